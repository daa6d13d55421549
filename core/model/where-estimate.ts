/**
 * The estimates of a `where` query once its conditions are mapped onto the
 * keys (`where.ts`): its class, the partitions it reads, the entities it
 * scans and returns, and the requests a fan-out over an enumerated bucket
 * issues. Bounded so that a figure cannot contradict another: a query
 * scans at least what it returns, and one whose conditions are all `=`
 * returns at most the entities that can match them.
 */
import { Cond, Query } from "../tdl/ast";
import { Classification, QueryClass, withSelectivity } from "../odata/classes";
import { TableEstimates } from "./estimates";
import { KeyPartInfo } from "./key-parts";
import { PropertyInfo } from "./properties";

export interface KeyMapping {
  kind: "exact" | "prefix" | "range" | "none";
  /** Product of the distinct values of the parts pinned by equalities or enumerated (1 when none). */
  pinnedDistinct: number;
  /** Properties whose conditions narrowed the key (pinned parts, the mapped range). */
  used: string[];
  /** A range condition that met a part that does not keep order. */
  unordered?: { cond: Cond; part: KeyPartInfo; reason: string };
  /**
   * Requests the key needs: a `bucket(Q, n)` or `hash(P, k)` part that no
   * condition pins is enumerated — the query is issued once per value (a
   * fan-out) — when that lets a condition narrow the key further. 1 otherwise.
   */
  fanOut: number;
  /**
   * Requests of the fan-out that can find rows: the values its buckets
   * hold (a `bucket(Flag, 16)` of a bool fills 2 of its 16), at most `fanOut`.
   */
  reach?: number;
}

export interface WhereClassification extends Classification {
  pk: KeyMapping;
  rk: KeyMapping;
}

/**
 * The share of the scanned entities that the conditions left over (those that
 * narrowed no key) keep: 1/N for each `=` on a property with `distinct N`
 * (1 when unknown), and 10 % once for any range among them.
 */
function leftoverShare(q: Query, used: ReadonlySet<string>, props: ReadonlyMap<string, PropertyInfo> | undefined): number {
  let share = 1;
  let ranged = false;
  const seen = new Set<string>();
  for (const c of q.where ?? []) {
    const name = c.property.text;
    if (used.has(name) || seen.has(name)) continue;
    seen.add(name);
    if (c.op !== "=") {
      ranged = true;
      continue;
    }
    const distinct = props?.get(name)?.distinct;
    if (distinct !== undefined && distinct > 1 && Number.isFinite(distinct)) share /= distinct;
  }
  return ranged ? share * 0.1 : share;
}

/**
 * Entities that can match a query whose conditions are all `=`: the table's
 * rows over the product of the pinned properties' distinct values, at least
 * 1; undefined when a condition is a range or a count is unknown.
 */
function matching(q: Query, est: TableEstimates, props: ReadonlyMap<string, PropertyInfo> | undefined): number | undefined {
  if (est.rows === undefined || !q.where?.length || q.where.some((c) => c.op !== "=")) return undefined;
  let combinations = 1;
  for (const name of new Set(q.where.map((c) => c.property.text))) {
    const distinct = props?.get(name)?.distinct;
    if (distinct === undefined || !Number.isFinite(distinct) || distinct < 1) return undefined;
    combinations *= distinct;
  }
  return Math.max(1, est.rows / combinations);
}

function classOf(pk: KeyMapping, rk: KeyMapping, via: string, fanOut: number): { cls: QueryClass; reason?: string } {
  const family = via === "rowKey" ? "RowKey" : `'${via}' index RowKey`;
  const each = fanOut > 1 ? ` (in each of ${fanOut} requests, one per bucket)` : "";
  if (pk.kind === "exact") {
    if (rk.kind === "exact")
      return { cls: "point", reason: fanOut > 1 ? `one entity, read with ${fanOut} point requests, one per bucket` : undefined };
    return {
      cls: "row-range",
      reason:
        rk.kind === "none"
          ? `the partition is read whole: no condition pins the start of the RowKey${each}`
          : `one partition, a range of ${via === "rowKey" ? "RowKeys" : `'${via}' index rows`}${each}`,
    };
  }
  if (pk.kind === "none") return { cls: "table-scan", reason: "no condition pins the start of the PartitionKey: every partition is read" };
  return {
    cls: "partition-range",
    reason:
      fanOut <= 1
        ? "the conditions pin only the start of the PartitionKey: several partitions are read"
        : pk.fanOut > 1
          ? `the PartitionKey starts with a bucket no condition pins: the query is issued once per bucket (${fanOut} requests), each reading a range of partitions`
          : `the conditions pin only the start of the PartitionKey, and the ${family} has a bucket no condition pins: the query is issued once per bucket (${fanOut} requests), each reading one bucket of the same partitions`,
  };
}

export function estimate(
  q: Query,
  pk: KeyMapping,
  rk: KeyMapping,
  est: TableEstimates,
  via: string,
  props?: ReadonlyMap<string, PropertyInfo>,
): WhereClassification {
  const scan = pk.kind === "none";
  const fanOut = scan ? 1 : pk.fanOut * rk.fanOut;
  // Requests whose bucket holds rows: those of a bucket wider than its property's values find nothing.
  const pkReach = pk.reach ?? pk.fanOut;
  const rkReach = rk.reach ?? rk.fanOut;
  const { cls, reason } = classOf(pk, rk, via, fanOut);
  const reasons = reason ? [reason] : [];
  const returns = q.returns && Number.isFinite(q.returns.value) ? q.returns.value : undefined;
  // The row-key conditions count only where the row key is read by them: in one partition, or across a partition range.
  const used = new Set([...pk.used, ...(scan ? [] : rk.used)]);
  const share = cls === "point" ? 1 : leftoverShare(q, used, props);
  // A range that maps onto an order-preserving key part is read as a key range: the service seeks to its
  // start and stops at its end, so it scans only the range — what it returns (`returns N`) before the
  // leftover conditions filter it, else 10 % of the enclosing range. A fan-out splits the range over its
  // buckets: together they scan what one range would.
  const mappedRange = pk.kind === "range" || rk.kind === "range";
  const narrow = (n: number) => (mappedRange ? Math.min(n, Math.max(1, returns !== undefined ? returns / share : n * 0.1)) : n);
  const entitiesPerPartition = est.entitiesPerPartition;
  // Rows in the enclosing key range of one partition, for one request: the pinned slice of one row family, or the whole partition when nothing pins the RowKey.
  const inPartition =
    entitiesPerPartition === undefined
      ? undefined
      : rk.kind === "exact"
        ? 1
        : rk.kind === "none"
          ? entitiesPerPartition * est.rowsPerEntity
          : Math.max(1, entitiesPerPartition / rk.pinnedDistinct);
  // Rows of one partition that all the requests of a row-key fan-out read together: each request reads one
  // bucket's slice, so together they read at most what the partition holds of the row family (all of it when
  // nothing pins the RowKey) — the fan-out splits the partition's range, it does not multiply its entities.
  const holds =
    entitiesPerPartition === undefined ? undefined : rk.kind === "none" ? entitiesPerPartition * est.rowsPerEntity : entitiesPerPartition;
  const perPartition =
    inPartition === undefined || holds === undefined ? undefined : Math.min(inPartition * rkReach, Math.max(inPartition, holds));
  // A PartitionKey fan-out whose buckets outnumber the values they hold issues requests that find no partition.
  const touched = (n: number) => (est.partitions !== undefined ? Math.min(n, est.partitions) : n);
  let partitions: number | null;
  let scanned: number | null;
  if (cls === "point") {
    partitions = touched(pkReach);
    scanned = 1;
  } else if (cls === "row-range") {
    partitions = touched(pkReach);
    scanned = perPartition !== undefined ? narrow(partitions * perPartition) : null;
  } else if (cls === "partition-range") {
    // Partitions under one request's prefix; the fan-out's requests read as many each.
    const enclosing = est.partitions !== undefined ? Math.max(1, est.partitions / pk.pinnedDistinct) : null;
    const spanned = enclosing !== null ? touched(enclosing * pkReach) : null;
    scanned = spanned !== null && perPartition !== undefined ? narrow(spanned * perPartition) : null;
    // A range over the PartitionKey reads the partitions its scan spans, not all those of the enclosing prefix.
    partitions =
      spanned !== null && pk.kind === "range"
        ? touched(
            pkReach *
              Math.max(
                1,
                scanned !== null && perPartition ? Math.ceil(scanned / pkReach / perPartition - 1e-9) : (spanned / pkReach) * 0.1,
              ),
          )
        : spanned;
  } else {
    partitions = est.partitions ?? null;
    scanned = est.rows !== undefined ? est.rows * est.rowsPerEntity : null;
  }
  // Whatever a query reads, the table holds: no more than its rows (main and index rows).
  if (scanned !== null && est.rows !== undefined) scanned = Math.min(scanned, Math.max(1, est.rows * est.rowsPerEntity));
  let returned: number | null = returns ?? null;
  if (returned === null) {
    if (cls === "point") returned = 1;
    else if (scanned !== null) returned = share < 1 ? Math.max(1, scanned * share) : scanned;
    const most = matching(q, est, props);
    if (returned !== null && most !== undefined) returned = Math.min(returned, most);
  }
  // A query scans at least what it returns: a declared `returns` larger than the estimate corrects the estimate.
  if (scanned !== null && returned !== null && returned > scanned) scanned = returned;
  // Each request of a RowKey fan-out reads the same partitions; those of a PartitionKey fan-out split them.
  const perRequest = cls === "partition-range" && partitions !== null ? { partitionsPerRequest: Math.max(1, partitions / pkReach) } : {};
  const spread = fanOut > 1 ? { fanOut, requests: fanOut, ...perRequest } : {};
  return { ...withSelectivity({ class: cls, partitions, scanned, returned, reasons, via, ...spread }), pk, rk };
}
