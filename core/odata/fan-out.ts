/**
 * A fan-out written as one OData filter: an `or` of exact PartitionKeys
 * that differ only in a bucket (or hash) token. The service would read every
 * partition for it, as for any `or` across partitions; the application
 * issues one request per branch instead (as the generated query helpers
 * do), so it is classified as that many requests of the branches' class.
 */
import { Classification, FANOUT_MAX_PARTS, FilterContext, QueryClass, withSelectivity } from "./classes";
import { keyConstraint } from "./constraints";
import { FilterExpr } from "./parser";

const RANK: Record<QueryClass, number> = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 };

/** The branches of an `or` run, left to right (iteratively: a run may be long). */
function orBranches(e: FilterExpr): FilterExpr[] {
  const out: FilterExpr[] = [];
  const stack = [e];
  while (stack.length) {
    const t = stack.pop()!;
    if (t.kind === "or") stack.push(t.right, t.left);
    else out.push(t);
  }
  return out;
}

/** A bucket number of at most 256 values (3 digits) or a hash of at most 2 hex digits. */
const BUCKET_TOKEN = /^[0-9a-f]{1,3}$/i;
const SEPARATOR = /[^0-9a-z]/i;

/**
 * Whether exact PartitionKeys differ only in a bucket (or hash) token at one
 * end, set off by a separator — `03_20260102` and `11_20260102`, or
 * `game1,0` and `game1,3`: the partitions of one bucketed key, which the
 * application reads with one request each (a fan-out), not a scan.
 */
export function differOnlyInBucket(values: readonly string[]): boolean {
  const distinct = [...new Set(values)];
  if (distinct.length < 2 || distinct.length > FANOUT_MAX_PARTS) return false;
  const first = distinct[0];
  if (distinct.some((v) => v.length !== first.length)) return false;
  let lo = first.length;
  let hi = -1;
  for (let i = 0; i < first.length; i++) {
    if (distinct.some((v) => v[i] !== first[i])) {
      lo = Math.min(lo, i);
      hi = i;
    }
  }
  const lead = first.search(SEPARATOR);
  const trail = Math.max(...[...first].map((ch, i) => (SEPARATOR.test(ch) ? i : -1)));
  const span: [number, number] | undefined =
    lead > 0 && hi < lead ? [0, lead] : trail >= 0 && trail < first.length - 1 && lo > trail ? [trail + 1, first.length] : undefined;
  return !!span && distinct.every((v) => BUCKET_TOKEN.test(v.slice(span[0], span[1])));
}

/**
 * An `or` of branches that each pin one partition of a bucketed key: each
 * branch is classified alone and the whole is a fan-out of the worst of
 * them, with one request per branch. Undefined when it is not one.
 */
export function bucketFanOut(
  normal: FilterExpr,
  ctx: FilterContext,
  classify: (e: FilterExpr, ctx: FilterContext) => Classification,
): Classification | undefined {
  if (normal.kind !== "or") return undefined;
  const branches = orBranches(normal);
  if (branches.length > FANOUT_MAX_PARTS) return undefined;
  const values: string[] = [];
  for (const b of branches) {
    const pk = keyConstraint(b, "PartitionKey");
    if (pk.kind !== "exact") return undefined;
    values.push(pk.value);
  }
  if (!differOnlyInBucket(values)) return undefined;
  const n = new Set(values).size;
  const each = branches.map((b) => classify(b, { ...ctx, returns: ctx.returns !== undefined ? ctx.returns / n : undefined }));
  const worst = each.reduce((a, b) => (RANK[b.class] > RANK[a.class] ? b : a));
  const sum = (pick: (c: Classification) => number | null) =>
    each.every((c) => pick(c) !== null) ? each.reduce((s, c) => s + pick(c)!, 0) : null;
  return withSelectivity({
    class: worst.class,
    partitions: n,
    scanned: sum((c) => c.scanned),
    returned: ctx.returns ?? sum((c) => c.returned),
    reasons: [
      `an 'or' of ${n} PartitionKeys that differ only in a bucket: issued as ${n} requests, one per bucket (a fan-out; sent as one filter, the service would read every partition)`,
    ],
    fanOut: n,
    requests: n,
  });
}
