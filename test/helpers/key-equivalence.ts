/**
 * Comparing key expressions as a reader would: two keys are the same when
 * they render the same properties with the same functions in the same
 * order and the same literal text between them (`"T" + "_" + A` is
 * `"T_" + A`), or when they build the same key from every entity of the
 * design's domain (`lower(Active)` of a bool is `Active`); and what a key repeats (a property rendered twice — a hash
 * or bucket prefix of a property the key then renders is the guide's
 * pattern, not a repeat).
 */
import { renderKey, Scalar, tableFacts } from "@core";
import type { Expr, KeyInfo, TableModel } from "@core";
import type { EntityRow } from "@protocol/entities";
import { scalarOf } from "@runtime/infer/values";

/** Top-level parts of a normalized expression (no spaces outside strings), adjacent literals merged. */
function partsOf(expr: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = "";
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i];
    if (c === '"' && expr[i - 1] !== "\\") quoted = !quoted;
    if (!quoted && c === "(") depth++;
    if (!quoted && c === ")") depth--;
    if (!quoted && depth === 0 && c === "+") {
      parts.push(cur);
      cur = "";
    } else cur += c;
  }
  parts.push(cur);
  const merged: string[] = [];
  for (const p of parts) {
    const last = merged[merged.length - 1];
    if (p.startsWith('"') && last?.startsWith('"')) merged[merged.length - 1] = JSON.stringify(JSON.parse(last) + JSON.parse(p));
    else merged.push(p);
  }
  return merged;
}

/** Whether two normalized key expressions say the same thing. */
export function sameKeys(a: string, b: string): boolean {
  return JSON.stringify(partsOf(a)) === JSON.stringify(partsOf(b));
}

/** The properties a key renders more than once. */
export function repeatedProperties(key: KeyInfo | undefined): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const part of key?.parts ?? []) {
    if (part.fn === "hash" || part.fn === "bucket") continue;
    for (const p of part.props) (seen.has(p) ? repeated : seen).add(p);
  }
  return [...repeated];
}

/** "Orders.rowKey repeats ReadingAt" for every key of the table that repeats a property. */
export function repeatedKeyProperties(tm: TableModel): string[] {
  const { est } = tableFacts(tm.table, tm.props);
  const keys: Array<[string, KeyInfo | undefined]> = [
    ["partitionKey", est.pk],
    ["rowKey", est.rk],
    ...est.indexKeys.map((k, i): [string, KeyInfo] => [`index ${tm.table.indexes[i]?.name.text ?? i}`, k]),
  ];
  return keys.flatMap(([which, key]) => repeatedProperties(key).map((p) => `${tm.table.name.text}.${which} repeats ${p}`));
}

/** A key expression with the table it reads its properties from. */
export interface BoundKey {
  tm: TableModel;
  expr: Expr;
}

/**
 * Whether two keys build the same text from every entity given (fresh
 * entities of the original design, not the sample the inference read): the
 * same function over the design's domain, whatever its spelling.
 */
export function sameOnRows(a: BoundKey, b: BoundKey, rows: readonly EntityRow[]): boolean {
  try {
    return rows.every((row) => {
      const values = new Map<string, Scalar>();
      for (const [k, v] of Object.entries(row.properties)) {
        const s = scalarOf(v);
        if (s !== undefined) values.set(k, s);
      }
      return renderKey(a.expr, { props: a.tm.props, values }) === renderKey(b.expr, { props: b.tm.props, values });
    });
  } catch {
    return false; // a property the other design lacks
  }
}
