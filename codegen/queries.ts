/**
 * One helper per declared query, returning its OData filter through the
 * `odata` tag, so that the query in code is the query the analyzer
 * classified. A `where` query maps onto the keys as the classifier maps it
 * (`model/where.ts`): equalities pin leading key parts, one range continues
 * them through an order-keeping part, and the row family is the one the
 * classifier chose. The key bounds always contain every matching entity;
 * a condition they do not decide exactly is repeated on the property, so
 * the filter returns exactly what the query asks for.
 */
import { analyzeKey, separatorBreaksOrder, summary, TableModel, tableFacts } from "@core";
import { KeyPlan } from "./keys";
import { PartPlan, planExpr, PlanContext } from "./parts";
import { CondPlan, paramsType, planConditions, propertyClauses, Query } from "./query-values";
import { commentText, Source, str } from "./source";

type KeyPartInfo = ReturnType<typeof analyzeKey>["parts"][number];

const RANGE_OPS = new Set(["<", "<=", ">", ">=", "between", "prefix"]);

interface KeyUse {
  which: "PartitionKey" | "RowKey";
  plan: KeyPlan;
  parts: PartPlan[];
  infos: KeyPartInfo[];
  /** A leading literal alone narrows the RowKey to a row family, not the PartitionKey to anything. */
  literalNarrows: boolean;
}

/** What a query's helper needs of the table: its model, its key plans and the planning context. */
export interface QueryTable {
  tm: TableModel;
  pk: KeyPlan;
  rk: KeyPlan;
  indexes: Map<string, KeyPlan>;
  ctx: PlanContext;
}

export function emitQuery(src: Source, query: Query, t: QueryTable): void {
  const name = `query${query.name.text}`;
  const facts = tableFacts(t.tm.table, t.tm.props).queries.find((q) => q.query === query);
  const c = facts?.classification;
  const head = `${commentText(queryText(t.tm, query))}${c ? ` — ${commentText(summary(c))}` : ""}`;
  if (!query.where) {
    src.doc([`The filter of \`${head}\`, as declared.`]);
    src
      .add(`export function ${name}(): string {`)
      .add(`return ${str(query.filter?.value ?? "")};`, 1)
      .add("}");
    return;
  }
  const conds = planConditions(query, t.ctx.props);
  const byProp = new Map(conds.map((cp) => [cp.cond.property.text, cp])); // the last condition on a property counts, as for the classifier
  const via = c?.via && c.via !== "rowKey" ? t.indexes.get(c.via) : undefined;
  const family = via ?? t.rk;
  const keys: KeyUse[] = [keyUse("PartitionKey", t.pk, t, false), keyUse("RowKey", family, t, true)];
  const body = new Source();
  const clauses: string[] = [];
  const captured = new Set<CondPlan>();
  const rkClauses: string[] = [];
  for (const key of keys) {
    const made = keyClauses(key, byProp, body, captured, t.ctx);
    clauses.push(...made);
    if (key.which === "RowKey") rkClauses.push(...made);
  }
  for (const cp of conds) if (!captured.has(cp)) clauses.push(...propertyClauses(cp, t.ctx.rt));
  const params = paramsType(conds);
  const familyName = via ? c!.via! : "rowKey";
  src.doc([
    `The filter of \`${head}\`${via ? `, served by the '${commentText(family.label)}' rows` : ""}.`,
    ...(familyNarrowed(family, t, rkClauses)
      ? []
      : [
          `An entity's other rows (it has ${1 + t.indexes.size}) may match too, as no key prefix sets its row families apart: keep the rows with \`rowFamily(row) === ${str(familyName)}\`.`,
        ]),
    "Throws KeyError when a value lies outside the property's domain in the design (no entity can hold it).",
  ]);
  src.add(`export function ${name}(${params ? `p: ${params}` : ""}): string {`);
  src.add(
    body
      .text()
      .trimEnd()
      .split("\n")
      .filter((l) => l),
    1,
  );
  src.add(`return odata\`${clauses.join(" and ")}\`;`, 1);
  src.add("}");
}

/**
 * Whether the RowKey clauses keep to the serving family's rows: a table
 * without index rows has one family; otherwise the clauses must start with
 * the family's leading literal, and no other family's may share a prefix with it.
 */
function familyNarrowed(family: KeyPlan, t: QueryTable, rkClauses: string[]): boolean {
  if (!t.indexes.size) return true;
  const lead = family.parts[0]?.literal;
  if (!rkClauses.length || !lead) return false;
  return [t.rk, ...t.indexes.values()].every((g) => {
    if (g === family) return true;
    const other = g.parts[0]?.literal;
    return other !== undefined && !other.startsWith(lead) && !lead.startsWith(other);
  });
}

function keyUse(which: KeyUse["which"], plan: KeyPlan, t: QueryTable, literalNarrows: boolean): KeyUse {
  return { which, plan, parts: planExpr(plan.expr, t.ctx), infos: analyzeKey(plan.expr, t.tm.props).parts, literalNarrows };
}

/** The rendered prefix of pinned parts, bound to a const the first time a clause uses it. */
class Prefix {
  private bound = false;

  constructor(
    private readonly parts: string[],
    private readonly name: string,
    private readonly body: Source,
  ) {}

  get empty(): boolean {
    return !this.parts.length;
  }

  ref(): string {
    if (!this.bound) {
      this.body.add(`const ${this.name} = ${this.parts.join(" + ")};`);
      this.bound = true;
    }
    return this.name;
  }

  /** The prefix followed by `text`. */
  then(text: string): string {
    return this.empty ? text : `${this.ref()} + ${text}`;
  }
}

/** The clauses on one key, mirroring `mapKey`; binds the bounds to consts in `body`. */
function keyClauses(key: KeyUse, conds: Map<string, CondPlan>, body: Source, captured: Set<CondPlan>, ctx: PlanContext): string[] {
  const rendered: string[] = [];
  const prefix = new Prefix(rendered, key.which === "PartitionKey" ? "pk" : "rk", body);
  const pinnedValues = new Map<string, CondPlan>();
  let pinnedProps = 0;
  let pinnedLiteral = false;
  // An equality is decided by the key bounds when its part sits at a known place with a known width.
  let fixedSoFar = true;
  for (let i = 0; i < key.parts.length; i++) {
    const part = key.parts[i];
    if (part.literal !== undefined) {
      rendered.push(part.render(() => ""));
      pinnedLiteral = true;
      continue;
    }
    if (part.props.every((p) => conds.get(p)?.cond.op === "=")) {
      for (const p of part.props) pinnedValues.set(p, conds.get(p)!);
      rendered.push(part.render((p) => conds.get(p)!.value()));
      pinnedProps++;
      const cp = part.read && pinnedValues.get(part.read.prop);
      if (cp && fixedSoFar && part.width !== undefined) captured.add(cp);
      fixedSoFar &&= part.width !== undefined;
      continue;
    }
    const range = part.props.length === 1 ? conds.get(part.props[0]) : undefined;
    if (range && RANGE_OPS.has(range.cond.op) && key.infos[i].order !== "none" && !separatorBreaksOrder(key.infos, i)) {
      const { clauses, exact } = rangeClauses(key, i, range, prefix, body, ctx);
      if (exact && fixedSoFar) captured.add(range);
      return clauses;
    }
    return pinnedProps || (pinnedLiteral && key.literalNarrows) ? familyClauses(key, prefix, ctx) : [];
  }
  // Every part pinned: the exact key. What a full parse gives back, the key decides.
  if (key.plan.segments)
    for (const p of key.plan.recovered) {
      const cp = pinnedValues.get(p);
      if (cp) captured.add(cp);
    }
  return [`${key.which} eq \${${prefix.empty ? '""' : prefix.ref()}}`];
}

function familyClauses(key: KeyUse, prefix: Prefix, ctx: PlanContext): string[] {
  if (prefix.empty) return [];
  return [`${key.which} ge \${${prefix.ref()}}`, `${key.which} lt \${${ctx.rt.use("keySuccessor")}(${prefix.ref()})}`];
}

type Bound = { op: "ge" | "gt" | "le" | "lt"; expr: string };

/**
 * Bounds of the key for a range on part `i`: they contain every entity in
 * the range whatever the part's alphabet, and are exact (the condition
 * needs no repeating on the property) where its width, its place at the end
 * or a separator below its alphabet make them so.
 */
function rangeClauses(
  key: KeyUse,
  i: number,
  cp: CondPlan,
  prefix: Prefix,
  body: Source,
  ctx: PlanContext,
): { clauses: string[]; exact: boolean } {
  const part = key.parts[i];
  const info = key.infos[i];
  const rt = ctx.rt;
  const succ = (x: string) => `${rt.use("keySuccessor")}(${x})`;
  const monotone = part.order;
  if (!monotone) return { clauses: familyClauses(key, prefix, ctx), exact: false };
  const injective = !!part.read;
  const next = key.parts[i + 1]?.literal;
  const last = i === key.parts.length - 1;
  const fixed = part.width !== undefined;
  const tight = !fixed && next !== undefined && !!info.charset?.ranges.length && next.charCodeAt(0) < info.charset.ranges[0][0];
  let lower: Bound | undefined;
  let upper: Bound | undefined;
  const atLeast = (v: string, strict: boolean) => {
    const x = prefix.then(v);
    if (!strict || !injective) lower = { op: "ge", expr: x };
    else if (fixed) lower = { op: "ge", expr: succ(x) };
    else if (last) lower = { op: "gt", expr: x };
    else if (tight) lower = { op: "ge", expr: succ(`${x} + ${str(next)}`) };
    else lower = { op: "ge", expr: x };
  };
  const atMost = (v: string, strict: boolean) => {
    const x = prefix.then(v);
    if (strict && injective && (fixed || last || tight)) upper = { op: "lt", expr: x };
    else if (last) upper = { op: "le", expr: x };
    else if (fixed) upper = { op: "lt", expr: succ(x) };
    else if (tight) upper = { op: "lt", expr: succ(`${x} + ${str(next)}`) };
  };
  const op = cp.cond.op;
  const render = (bound?: "from" | "to") => part.render(() => cp.value(bound));
  if (op === "prefix") {
    if (part.part.kind !== "ref" || !["string", "enum"].includes(cp.prop.info.type))
      return { clauses: familyClauses(key, prefix, ctx), exact: false };
    const from = prefix.then(cp.value());
    lower = { op: "ge", expr: from };
    upper = { op: "lt", expr: succ(from) };
  } else {
    // The property's lower end bounds the text from below when the part keeps order, from above when it reverses it.
    const low = (v: string, strict: boolean) => (monotone === "preserving" ? atLeast(v, strict) : atMost(v, strict));
    const high = (v: string, strict: boolean) => (monotone === "preserving" ? atMost(v, strict) : atLeast(v, strict));
    if (op === ">=" || op === ">") low(render(), op === ">");
    if (op === "<=" || op === "<") high(render(), op === "<");
    if (op === "between") {
      low(render("from"), false);
      high(render("to"), false);
    }
  }
  const name = key.which === "PartitionKey" ? "pk" : "rk";
  const out: string[] = [];
  const lo = lower as Bound | undefined;
  const hi = upper as Bound | undefined;
  // Bounds go to consts after the prefix they use; the family's bounds stand in for a missing end.
  if (lo) {
    const e = lo.expr;
    body.add(`const ${name}From = ${e};`);
    out.push(`${key.which} ${lo.op} \${${name}From}`);
  } else if (!prefix.empty) out.push(`${key.which} ge \${${prefix.ref()}}`);
  if (hi) {
    const e = hi.expr;
    body.add(`const ${name}To = ${e};`);
    out.push(`${key.which} ${hi.op} \${${name}To}`);
  } else if (!prefix.empty) out.push(`${key.which} lt \${${succ(prefix.ref())}}`);
  // Exact: every text in the bounds is a value in the range (its width, its place at the end or its separator say where it ends).
  return { clauses: out, exact: injective && (fixed || last || (tight && op !== "prefix")) };
}

/** The query as the design writes it, on one line. */
function queryText(tm: TableModel, query: Query): string {
  return tm.text.slice(query.start, query.end).replace(/\s+/g, " ");
}
