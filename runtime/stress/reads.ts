/**
 * A design's query as the request its class says: a point read is a
 * `getEntity` of the keys its conditions render; a row range or partition
 * range a `listEntities` whose filter bounds the keys as the analyzer mapped
 * the conditions (equalities pin a prefix, a range on an order-preserving
 * part bounds it, the rest is filtered by property); a table scan a
 * `listEntities` with no key bound. `?` parameters take the values of an
 * entity the run wrote, so the reads find what the design would find.
 */
import {
  type Cond,
  type Expr,
  type KeyInfo,
  type KeyPartInfo,
  renderKey,
  Scalar,
  type PropertyInfo,
  type QueryAnalysis,
  type TableEstimates,
  type QueryClass,
  keyConstraint,
  normalize,
  parseFilter,
  separatorBreaksOrder,
} from "@core";
import type { WrittenEntity } from "./written";
import { stringLiteral as lit } from "@core";

export type ReadRequest =
  | { kind: "get"; pk: string; rk: string }
  /** `take`: entities the design says one call returns (one page, at most 1,000). */
  | { kind: "list"; filter?: string; take: number; pk?: string };

export interface ReadPlan {
  queryClass: QueryClass;
  /** The request for one call; `sample` supplies the values of `?` parameters. */
  request(sample: WrittenEntity | undefined): ReadRequest;
}

const PAGE = 1000;

/** What one call of `q` returns: the design's `returns`, else the analyzer's estimate (one page at most). */
export function takeOf(q: QueryAnalysis): number {
  const returned = q.query.returns?.value ?? q.classification?.returned ?? PAGE;
  return Math.max(1, Math.min(PAGE, Math.round(Number.isFinite(returned) ? returned : PAGE)));
}

/** The one request of a `filter` query (its filter names the keys, so it is the same on every call); undefined when it does not parse. */
export function filterRequest(q: QueryAnalysis, filter: string, take: number): ReadRequest | undefined {
  const parsed = parseFilter(filter);
  if (!parsed.ok) return undefined;
  const expr = normalize(parsed.expr);
  const pk = keyConstraint(expr, "PartitionKey");
  const rk = keyConstraint(expr, "RowKey");
  if (q.classification?.class === "point" && pk.kind === "exact" && rk.kind === "exact") return { kind: "get", pk: pk.value, rk: rk.value };
  return { kind: "list", filter, take, pk: pk.kind === "exact" ? pk.value : undefined };
}

/** How `q` runs, or undefined when the analyzer could not classify it (it is then skipped and the report says so). */
export function readPlan(
  q: QueryAnalysis,
  est: TableEstimates,
  props: ReadonlyMap<string, PropertyInfo>,
  indexes: Array<{ name: string; expr: Expr }>,
): ReadPlan | undefined {
  const c = q.classification;
  if (!c) return undefined;
  const take = takeOf(q);
  if (q.query.filter) {
    const request = filterRequest(q, q.query.filter.value, take);
    return request && { queryClass: c.class, request: () => request };
  }
  const where = q.query.where;
  const mapping = q.mapping;
  if (!where || !mapping || !est.pk || !est.rk) return undefined;
  const family = mapping.via === "rowKey" ? est.rk : (est.indexKeys[indexes.findIndex((ix) => ix.name === mapping.via)] ?? est.rk);
  return {
    queryClass: c.class,
    request: (sample) => {
      const values = withLiterals(sample?.values, where, props);
      const ctx = { props, values };
      const conds = new Map(where.map((w) => [w.property.text, w]));
      const used = new Set<string>();
      const pk = bound("PartitionKey", est.pk!, conds, ctx, used, false);
      const rk = bound("RowKey", family, conds, ctx, used, true);
      if (c.class === "point" && pk.exact !== undefined && rk.exact !== undefined) return { kind: "get", pk: pk.exact, rk: rk.exact };
      const rest = where
        .filter((w) => !used.has(w.property.text))
        .map((w) => propertyClause(w, values.get(w.property.text), props.get(w.property.text)));
      const clauses = [...pk.clauses, ...rk.clauses, ...rest.filter((x): x is string => !!x)];
      return { kind: "list", filter: clauses.length ? clauses.join(" and ") : undefined, take, pk: pk.exact };
    },
  };
}

/** The sample's values with the conditions' literal values put in (a literal wins over the sample). */
function withLiterals(
  values: ReadonlyMap<string, Scalar> | undefined,
  where: Cond[],
  props: ReadonlyMap<string, PropertyInfo>,
): Map<string, Scalar> {
  const out = new Map(values ?? []);
  for (const w of where) {
    if (w.value.kind === "param") continue;
    const p = props.get(w.property.text);
    const numeric = p && ["int", "int64", "double"].includes(p.type);
    out.set(w.property.text, w.value.kind === "number" || numeric ? Number(w.value.text) : w.value.text);
  }
  return out;
}

interface KeyBound {
  exact?: string;
  clauses: string[];
}

/** The smallest string above every string that starts with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/**
 * Walks a key's parts as the analyzer's mapping does: literals and parts
 * whose properties are all pinned by `=` extend the prefix; a range or
 * prefix condition on an order-preserving (or reversing) part bounds the key
 * and ends the walk; anything else ends it too. Marks the properties the
 * bound covers in `used`.
 */
function bound(
  name: string,
  key: KeyInfo,
  conds: ReadonlyMap<string, Cond>,
  ctx: { props: ReadonlyMap<string, PropertyInfo>; values: ReadonlyMap<string, Scalar> },
  used: Set<string>,
  literalNarrows: boolean,
): KeyBound {
  let prefix = "";
  let pinned = false;
  const render = (part: KeyPartInfo) => renderKey({ ...key.expr, parts: [part.part] }, ctx);
  for (let i = 0; i < key.parts.length; i++) {
    const part = key.parts[i];
    if (!part.props.length) {
      prefix += part.literal ?? render(part);
      pinned ||= literalNarrows;
      continue;
    }
    if (part.props.every((p) => conds.get(p)?.op === "=")) {
      prefix += render(part);
      pinned = true;
      for (const p of part.props) used.add(p);
      continue;
    }
    const cond = part.props.length === 1 ? conds.get(part.props[0]) : undefined;
    if (cond && part.order !== "none" && !separatorBreaksOrder(key.parts, i)) {
      used.add(cond.property.text);
      return { clauses: rangeClauses(name, prefix, prefix + render(part), cond.op, part.order === "reversing") };
    }
    // Nothing pins this part: the key is bounded by the prefix so far.
    return { clauses: pinned && prefix ? within(name, prefix) : [] };
  }
  return { exact: prefix, clauses: [`${name} eq ${lit(prefix)}`] };
}

/** Keys that start with `prefix`. */
function within(name: string, prefix: string): string[] {
  return [`${name} ge ${lit(prefix)}`, `${name} lt ${lit(prefixEnd(prefix))}`];
}

/** Bounds for `op` on a part rendered as `at` (after the pinned `prefix`); a reversing part turns a lower bound into an upper one. */
function rangeClauses(name: string, prefix: string, at: string, op: Cond["op"], reversing: boolean): string[] {
  if (op === "prefix") return within(name, at);
  // `between ?` names one range; its lower end is the sample's value, and the call returns what the design says.
  const lower = op === ">" || op === ">=" || op === "between";
  const strict = op === ">" || op === "<";
  if (lower !== reversing)
    return [`${name} ${strict ? "gt" : "ge"} ${lit(at)}`, ...(prefix ? [`${name} lt ${lit(prefixEnd(prefix))}`] : [])];
  return [...(prefix ? [`${name} ge ${lit(prefix)}`] : []), `${name} ${strict ? "lt" : "le"} ${lit(at)}`];
}

/** A condition the key does not cover, as a property comparison the service filters by. */
function propertyClause(w: Cond, v: Scalar | undefined, p: PropertyInfo | undefined): string | undefined {
  if (v === undefined || !p) return undefined;
  const value = odataLiteral(v, p);
  const name = w.property.text;
  switch (w.op) {
    case "=":
      return `${name} eq ${value}`;
    case "<":
      return `${name} lt ${value}`;
    case "<=":
      return `${name} le ${value}`;
    case ">":
      return `${name} gt ${value}`;
    case ">=":
    case "between":
      return `${name} ge ${value}`;
    case "prefix":
      return typeof v === "string" && v ? `${name} ge ${value} and ${name} lt ${lit(prefixEnd(v))}` : undefined;
  }
}

/** A value as an OData literal of the property's type. */
export function odataLiteral(v: Scalar, p: PropertyInfo): string {
  switch (p.type) {
    case "int":
      return String(Math.trunc(Number(v)));
    case "int64":
      return `${Math.trunc(Number(v))}L`;
    case "double": {
      const s = String(Number(v));
      return /[.eE]/.test(s) ? s : `${s}.0`;
    }
    case "bool":
      return String(v === true || v === "true");
    case "datetime":
      return `datetime'${(v instanceof Date ? v : new Date(String(v))).toISOString()}'`;
    case "guid":
      return `guid'${String(v)}'`;
    case "binary":
      return `X'${String(v)}'`;
    default:
      return lit(String(v));
  }
}
