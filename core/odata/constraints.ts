/**
 * What an OData filter pins PartitionKey and RowKey to, as the Table service
 * seeks: through `and` only — it does not split an `or` into seeks, and
 * `ne` (or `not eq`) cannot seek at all; `not` is pushed down first.
 */
import { CompareOp, FilterExpr } from "./parser";

/** What a filter pins a key to. */
export type KeyConstraint =
  { kind: "exact"; value: string } | { kind: "range"; lo?: string; hi?: string } | { kind: "none" } | { kind: "empty" };

const NEGATE: Record<CompareOp, CompareOp> = { eq: "ne", ne: "eq", gt: "le", ge: "lt", lt: "ge", le: "gt" };

/**
 * Pushes `not` down to the comparisons (De Morgan), so `not (A eq x)` is
 * `A ne x`; `not true` is `false`. A `not` stays only directly above a bare
 * Boolean property, which has no negated form.
 */
export function normalize(e: FilterExpr, negated = false): FilterExpr {
  switch (e.kind) {
    case "not":
      return normalize(e.expr, !negated);
    case "and":
    case "or": {
      const kind = negated ? (e.kind === "and" ? "or" : "and") : e.kind;
      return { ...e, kind, left: normalize(e.left, negated), right: normalize(e.right, negated) };
    }
    case "cmp":
      return negated ? { ...e, op: NEGATE[e.op] } : e;
    case "const":
      return negated ? { ...e, value: !e.value } : e;
    case "prop":
      return negated ? { kind: "not", expr: e, start: e.start, end: e.end } : e;
  }
}

function cmpConstraint(op: CompareOp, v: string): KeyConstraint {
  switch (op) {
    case "eq":
      return { kind: "exact", value: v };
    case "ne":
      return { kind: "none" };
    case "gt":
    case "ge":
      return { kind: "range", lo: v };
    case "lt":
    case "le":
      return { kind: "range", hi: v };
  }
}

export function and(a: KeyConstraint, b: KeyConstraint): KeyConstraint {
  if (a.kind === "empty" || b.kind === "empty") return { kind: "empty" };
  if (a.kind === "none") return b;
  if (b.kind === "none") return a;
  if (a.kind === "exact" && b.kind === "exact") return a.value === b.value ? a : { kind: "empty" };
  if (a.kind === "exact" || b.kind === "exact") {
    const [x, r] =
      a.kind === "exact"
        ? [a, b as Extract<KeyConstraint, { kind: "range" }>]
        : [b as Extract<KeyConstraint, { kind: "exact" }>, a as Extract<KeyConstraint, { kind: "range" }>];
    const inside = (r.lo === undefined || x.value >= r.lo) && (r.hi === undefined || x.value <= r.hi);
    return inside ? x : { kind: "empty" };
  }
  const lo = a.lo === undefined ? b.lo : b.lo === undefined ? a.lo : a.lo > b.lo ? a.lo : b.lo;
  const hi = a.hi === undefined ? b.hi : b.hi === undefined ? a.hi : a.hi < b.hi ? a.hi : b.hi;
  return { kind: "range", lo, hi };
}

export function or(a: KeyConstraint, b: KeyConstraint): KeyConstraint {
  if (a.kind === "empty") return b;
  if (b.kind === "empty") return a;
  if (a.kind === "exact" && b.kind === "exact" && a.value === b.value) return a;
  // The service does not split an `or` into seeks: anything else scans.
  return { kind: "none" };
}

/** The constraint a filter puts on one key. Bare Boolean terms constrain no key: the service cannot seek on them. */
export function keyConstraint(e: FilterExpr, key: "PartitionKey" | "RowKey"): KeyConstraint {
  switch (e.kind) {
    case "cmp":
      return e.property === key && e.value.type === "string" ? cmpConstraint(e.op, e.value.value) : { kind: "none" };
    case "and":
      return and(keyConstraint(e.left, key), keyConstraint(e.right, key));
    case "or":
      return or(keyConstraint(e.left, key), keyConstraint(e.right, key));
    case "prop":
    case "const":
      return { kind: "none" };
    case "not":
      return e.expr.kind === "prop" || e.expr.kind === "const" ? { kind: "none" } : keyConstraint(normalize(e), key);
  }
}
