/**
 * Classifies an OData filter as the Table service runs it. The service
 * seeks on PartitionKey and RowKey only through `and`: it does not split an
 * `or` into separate seeks, and `ne` (or `not eq`) cannot seek at all;
 * bare Boolean terms (`IsActive`, `true`) constrain no key either.
 *
 * The walks below recurse: the parser keeps every tree shallow (nesting
 * limit, balanced `and`/`or` runs), and each node is visited once.
 */
import { Classification, FilterContext, QueryClass, withSelectivity } from "./classes";
import { FilterExpr } from "./parser";
import { and, keyConstraint, KeyConstraint, normalize, or } from "./constraints";
import { bucketFanOut } from "./fan-out";

export { keyConstraint, normalize } from "./constraints";
export type { KeyConstraint } from "./constraints";
export type { FilterContext } from "./classes";

/** What one pass over a normalized filter learns. */
interface Facts {
  pk: KeyConstraint;
  rk: KeyConstraint;
  /** Only equalities (and bare terms), no `ne`, ranges or `not`. */
  onlyEq: boolean;
  /** Some run of `or` joins branches that each pin a partition, not all the same one. */
  acrossOr: boolean;
  /** As a branch of an `or` run: every branch of the run below pins the PartitionKey… */
  allPin: boolean;
  /** …and the one exact PartitionKey they all pin, if they do. */
  same?: string;
}

/**
 * Learns the facts of a normalized filter bottom-up, each node once, so
 * that classifying is linear in the filter's size. `inOr`: the parent is an
 * `or`, so this node's branches belong to the parent's run.
 */
function facts(e: FilterExpr, inOr: boolean): Facts {
  if (e.kind !== "and" && e.kind !== "or") {
    const pk = keyConstraint(e, "PartitionKey");
    const onlyEq = e.kind === "cmp" ? e.op === "eq" : e.kind !== "not";
    return {
      pk,
      rk: keyConstraint(e, "RowKey"),
      onlyEq,
      acrossOr: false,
      allPin: pk.kind !== "none",
      same: pk.kind === "exact" ? pk.value : undefined,
    };
  }
  const isOr = e.kind === "or";
  const l = facts(e.left, isOr);
  const r = facts(e.right, isOr);
  const pk = isOr ? or(l.pk, r.pk) : and(l.pk, r.pk);
  const rk = isOr ? or(l.rk, r.rk) : and(l.rk, r.rk);
  let allPin = pk.kind !== "none";
  let same = pk.kind === "exact" ? pk.value : undefined;
  if (isOr) {
    allPin = l.allPin && r.allPin;
    same = l.same !== undefined && l.same === r.same ? l.same : undefined;
  }
  // The whole run is judged once, at its top: splitting it helps only when every branch pins a partition.
  const acrossOr = l.acrossOr || r.acrossOr || (isOr && !inOr && allPin && same === undefined);
  return { pk, rk, onlyEq: l.onlyEq && r.onlyEq, acrossOr, allPin, same };
}

/**
 * The share of the scanned entities that the conditions which narrowed no key
 * keep, over the filter's top-level `and` terms: 1/N for `P eq v` with P's
 * `distinct N`, 10 % once for any range, `ne` or `not` among them; terms of
 * equalities only (an `or` of them, a bare Boolean) keep everything, as the
 * language's estimates say. `keysSeek`: which keys' comparisons narrowed the scan.
 */
function leftoverShare(e: FilterExpr, keysSeek: { pk: boolean; rk: boolean }, distinct: FilterContext["distinct"]): number {
  let share = 1;
  let ranged = false;
  const stack: FilterExpr[] = [e];
  while (stack.length) {
    const t = stack.pop()!;
    if (t.kind === "and") {
      stack.push(t.left, t.right);
      continue;
    }
    if (t.kind === "cmp" && ((t.property === "PartitionKey" && keysSeek.pk) || (t.property === "RowKey" && keysSeek.rk))) continue;
    if (t.kind === "cmp" && t.op === "eq") {
      const n = t.property === "PartitionKey" || t.property === "RowKey" ? undefined : distinct?.(t.property);
      if (n !== undefined && n > 1 && Number.isFinite(n)) share /= n;
    } else if (!facts(t, false).onlyEq) {
      ranged = true;
    }
  }
  return ranged ? share * 0.1 : share;
}

/** Classifies a parsed filter, with estimates where `ctx` allows. */
export function classifyFilter(expr: FilterExpr, ctx: FilterContext = {}): Classification {
  const normal = normalize(expr);
  const fanned = bucketFanOut(normal, ctx, classifyFilter);
  if (fanned) return fanned;
  const f = facts(normal, false);
  const { pk, rk } = f;
  const reasons: string[] = [];
  let cls: QueryClass;
  const acrossOr = pk.kind === "none" && f.acrossOr;
  if (pk.kind === "exact" || pk.kind === "empty") {
    cls = rk.kind === "exact" || rk.kind === "empty" ? "point" : "row-range";
    if (cls === "row-range")
      reasons.push(
        rk.kind === "range"
          ? "PartitionKey is exact and RowKey is a range"
          : "PartitionKey is exact; RowKey is not pinned, so the whole partition is read",
      );
  } else if (pk.kind === "range") {
    cls = "partition-range";
    reasons.push("PartitionKey is a range: several partitions, possibly several servers, with continuation tokens");
  } else {
    cls = "table-scan";
    reasons.push(
      acrossOr
        ? "an 'or' across PartitionKeys is not split into seeks: every partition is read; issue the branches as separate point or range queries"
        : "PartitionKey is not pinned (no 'eq', or only 'ne'): every partition is read",
    );
  }
  const total = ctx.rows !== undefined ? ctx.rows * (ctx.rowsPerEntity ?? 1) : undefined;
  const perPartition = total !== undefined && ctx.partitions ? total / ctx.partitions : undefined;
  const share = cls === "point" ? 1 : leftoverShare(normal, { pk: cls !== "table-scan", rk: cls === "row-range" }, ctx.distinct);
  let partitions: number | null = null;
  let scanned: number | null = null;
  switch (cls) {
    case "point":
      partitions = 1;
      scanned = 1;
      break;
    case "row-range":
      partitions = 1;
      // A RowKey range seeks to its start and stops at its end: it scans the range (what it returns before the
      // other conditions filter it, else 10 % of the partition), not the whole partition.
      scanned =
        perPartition === undefined
          ? null
          : rk.kind === "range"
            ? Math.min(perPartition, Math.max(1, ctx.returns !== undefined ? ctx.returns / share : perPartition * 0.1))
            : perPartition;
      break;
    case "partition-range":
      break;
    case "table-scan":
      partitions = ctx.partitions ?? null;
      scanned = total ?? null;
      break;
  }
  let returned: number | null = ctx.returns ?? null;
  if (returned === null) {
    if (cls === "point") returned = 1;
    else if (scanned !== null) returned = share < 1 ? Math.max(1, scanned * share) : scanned;
  }
  return withSelectivity({ class: cls, partitions, scanned, returned, reasons, ...(acrossOr ? { orAcrossPartitions: true } : {}) });
}
