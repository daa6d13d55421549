/**
 * A design's queries as the Python workload sends them: the same requests
 * the built-in engine makes (runtime/stress/reads.ts), worked out here once
 * from the design — which key parts a query pins, which it bounds, which
 * conditions the service filters by property — and written as data with a
 * Python function per key part, so a Locust worker only fills in the values
 * of the entity it samples (`tdl_locust.read_request`).
 */
import { type Cond, type KeyInfo, type PropertyInfo, type QueryAnalysis, separatorBreaksOrder, type TableEstimates } from "@core";
import { filterRequest, takeOf } from "../stress/reads";
import { pyPart, type PyContext } from "@codegen/python/parts";
import { pyStr } from "@codegen/python/source";

/**
 * The Python expression of a query's plan (a dict `tdl_locust.read_request`
 * reads), or undefined when the built-in engine would skip it too.
 */
export function pythonReadPlan(
  q: QueryAnalysis,
  est: TableEstimates,
  props: ReadonlyMap<string, PropertyInfo>,
  indexes: Array<{ name: string }>,
  ctx: PyContext,
): string | undefined {
  const c = q.classification;
  if (!c) return undefined;
  const take = takeOf(q);
  if (q.query.filter) {
    const r = filterRequest(q, q.query.filter.value, take);
    if (!r) return undefined;
    const request =
      r.kind === "get"
        ? `("get", ${pyStr(r.pk)}, ${pyStr(r.rk)})`
        : `("list", ${r.filter === undefined ? "None" : pyStr(r.filter)}, ${r.take}, ${r.pk === undefined ? "None" : pyStr(r.pk)})`;
    return `{"static": ${request}}`;
  }
  const where = q.query.where;
  const mapping = q.mapping;
  if (!where || !mapping || !est.pk || !est.rk) return undefined;
  const family = mapping.via === "rowKey" ? est.rk : (est.indexKeys[indexes.findIndex((ix) => ix.name === mapping.via)] ?? est.rk);
  const conds = new Map(where.map((w) => [w.property.text, w]));
  const used = new Set<string>();
  const pk = bound("PartitionKey", est.pk, conds, used, false, ctx);
  const rk = bound("RowKey", family, conds, used, true, ctx);
  const rest = where
    .filter((w) => !used.has(w.property.text))
    .map((w) => `(${pyStr(w.property.text)}, ${pyStr(w.op)}, ${pyStr(props.get(w.property.text)?.type ?? "string")})`);
  return `{"class": ${pyStr(c.class)}, "take": ${take}, "literals": ${literals(where, props)}, "pk": ${pk}, "rk": ${rk}, "rest": [${rest.join(", ")}]}`;
}

/** The conditions' literal values (a literal wins over the sampled entity's value), as a Python dict. */
function literals(where: Cond[], props: ReadonlyMap<string, PropertyInfo>): string {
  const items: string[] = [];
  for (const w of where) {
    if (w.value.kind === "param") continue;
    const p = props.get(w.property.text);
    const numeric = w.value.kind === "number" || (p && ["int", "int64", "double"].includes(p.type));
    const value = numeric ? String(Number(w.value.text)) : pyStr(w.value.text);
    items.push(`${pyStr(w.property.text)}: ${value === "NaN" ? "None" : value}`);
  }
  return `{${items.join(", ")}}`;
}

/**
 * The walk of runtime/stress/reads.ts's `bound`, done on the design: literal
 * parts and parts pinned by `=` extend the prefix; a range or prefix
 * condition on an order-keeping part bounds the key and ends it; anything
 * else ends it (bounded by the prefix when something pinned it).
 */
function bound(
  name: string,
  key: KeyInfo,
  conds: ReadonlyMap<string, Cond>,
  used: Set<string>,
  literalNarrows: boolean,
  ctx: PyContext,
): string {
  const steps: string[] = [];
  let pinned = false;
  const render = (i: number) => `lambda v: ${pyPart(key.parts[i]!.part, (p) => `v.get(${pyStr(p)})`, ctx)}`;
  const done = (end: string) =>
    `{"name": ${pyStr(name)}, "steps": [${steps.join(", ")}], "pinned": ${pinned ? "True" : "False"}, "end": ${end}}`;
  for (let i = 0; i < key.parts.length; i++) {
    const part = key.parts[i]!;
    if (!part.props.length) {
      steps.push(part.literal !== undefined ? pyStr(part.literal) : render(i));
      pinned ||= literalNarrows;
      continue;
    }
    if (part.props.every((p) => conds.get(p)?.op === "=")) {
      steps.push(render(i));
      pinned = true;
      for (const p of part.props) used.add(p);
      continue;
    }
    const cond = part.props.length === 1 ? conds.get(part.props[0]!) : undefined;
    if (cond && part.order !== "none" && !separatorBreaksOrder(key.parts, i)) {
      used.add(cond.property.text);
      return done(`("range", ${render(i)}, ${pyStr(cond.op)}, ${part.order === "reversing" ? "True" : "False"})`);
    }
    return done(`("open",)`);
  }
  return done(`("exact",)`);
}
