/**
 * Classifies a `.tdl` `where` query by mapping its conditions onto the key
 * expressions: equalities pin key parts, a range pins a key range only
 * through an order-preserving part, and the best row family (the main row
 * or an index row) serves the query.
 */
import { Cond, Query } from "../tdl/ast";
import { TableEstimates } from "./estimates";
import { KeyInfo, KeyPartInfo } from "./key-parts";
import { charsetMin } from "./charset";
import { Classification, QueryClass, withSelectivity } from "../odata/classes";

export interface KeyMapping {
  kind: "exact" | "prefix" | "range" | "none";
  /** Product of the distinct values of the parts pinned by equalities (1 when none). */
  pinnedDistinct: number;
  /** A range condition that met a part that does not keep order. */
  unordered?: { cond: Cond; part: KeyPartInfo; reason: string };
}

const RANGE_OPS = new Set(["<", "<=", ">", ">=", "between", "prefix"]);

/** True when the literal after part `i` sorts above a character the part may hold, and the part's values may be prefixes of one another. */
export function separatorBreaksOrder(parts: KeyPartInfo[], i: number): boolean {
  const part = parts[i];
  const next = parts[i + 1];
  if (!part?.props.length || !part.prefixProne || part.fixedWidth || !part.charset || next?.literal === undefined || next.literal === "") return false;
  return next.literal.charCodeAt(0) > charsetMin(part.charset);
}

/** Maps conditions onto one key. `literalPrefixNarrows`: a leading literal selects a row family (RowKeys), or nothing (PartitionKeys). */
export function mapKey(key: KeyInfo, conds: ReadonlyMap<string, Cond>, literalPrefixNarrows: boolean): KeyMapping {
  let pinnedDistinct = 1;
  let pinnedProps = 0;
  let pinnedLiteral = false;
  for (let i = 0; i < key.parts.length; i++) {
    const part = key.parts[i];
    if (!part.props.length) { pinnedLiteral = true; continue; }
    if (part.props.every((p) => conds.get(p)?.op === "=")) {
      pinnedDistinct *= part.distinct ?? 1;
      pinnedProps++;
      continue;
    }
    const rangeCond = part.props.length === 1 ? conds.get(part.props[0]) : undefined;
    if (rangeCond && RANGE_OPS.has(rangeCond.op)) {
      const broken = separatorBreaksOrder(key.parts, i);
      if (part.order !== "none" && !broken) return { kind: "range", pinnedDistinct };
      const reason = broken ? `the separator "${key.parts[i + 1].literal}" after it sorts above its characters` : part.orderReason ?? "it does not keep order";
      return { kind: pinnedProps || (pinnedLiteral && literalPrefixNarrows) ? "prefix" : "none", pinnedDistinct, unordered: { cond: rangeCond, part, reason } };
    }
    return { kind: pinnedProps || (pinnedLiteral && literalPrefixNarrows) ? "prefix" : "none", pinnedDistinct };
  }
  return { kind: "exact", pinnedDistinct };
}

export interface WhereClassification extends Classification {
  pk: KeyMapping;
  rk: KeyMapping;
}

const RANK: Record<QueryClass, number> = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 };

/** Classifies a `where` query against the table's keys and estimates. */
export function classifyWhere(q: Query, est: TableEstimates, indexNames: string[]): WhereClassification | undefined {
  if (!q.where || !est.pk || !est.rk) return undefined;
  const conds = new Map(q.where.map((c) => [c.property.text, c]));
  const pk = mapKey(est.pk, conds, false);
  const families = [{ via: "rowKey", key: est.rk }, ...est.indexKeys.map((key, i) => ({ via: indexNames[i], key }))];
  let best: WhereClassification | undefined;
  for (const fam of families) {
    const rk = mapKey(fam.key, conds, true);
    const c = estimate(q, pk, rk, est, fam.via);
    if (!best || RANK[c.class] < RANK[best.class] || (RANK[c.class] === RANK[best.class] && (c.scanned ?? Infinity) < (best.scanned ?? Infinity))) best = c;
  }
  return best;
}

function estimate(q: Query, pk: KeyMapping, rk: KeyMapping, est: TableEstimates, via: string): WhereClassification {
  const reasons: string[] = [];
  let cls: QueryClass;
  if (pk.kind === "exact") {
    cls = rk.kind === "exact" ? "point" : "row-range";
    if (cls === "row-range") reasons.push(rk.kind === "none" ? "the partition is read whole: no condition pins the start of the RowKey" : `one partition, a range of ${via === "rowKey" ? "RowKeys" : `'${via}' index rows`}`);
  } else if (pk.kind === "none") {
    cls = "table-scan";
    reasons.push("no condition pins the start of the PartitionKey: every partition is read");
  } else {
    cls = "partition-range";
    reasons.push("the conditions pin only the start of the PartitionKey: several partitions are read");
  }
  const returns = q.returns && Number.isFinite(q.returns.value) ? q.returns.value : undefined;
  // A range that maps onto an order-preserving key part is read as a key range: the service seeks to its
  // start and stops at its end, so it scans what it returns (`returns N`, else 10 % of the enclosing range).
  const mappedRange = pk.kind === "range" || rk.kind === "range";
  const narrow = (n: number) => (mappedRange ? Math.max(1, returns ?? n * 0.1) : n);
  const entitiesPerPartition = est.entitiesPerPartition;
  // Rows in the enclosing key range of one partition: the pinned slice of one row family, or the whole partition when nothing pins the RowKey.
  const inPartition = entitiesPerPartition === undefined ? undefined
    : rk.kind === "exact" ? 1
    : rk.kind === "none" ? entitiesPerPartition * est.rowsPerEntity
    : Math.max(1, entitiesPerPartition / rk.pinnedDistinct);
  let partitions: number | null;
  let scanned: number | null;
  if (cls === "point") { partitions = 1; scanned = 1; }
  else if (cls === "row-range") { partitions = 1; scanned = inPartition !== undefined ? narrow(inPartition) : null; }
  else if (cls === "partition-range") {
    partitions = est.partitions !== undefined ? Math.max(1, est.partitions / pk.pinnedDistinct) : null;
    scanned = partitions !== null && inPartition !== undefined ? narrow(partitions * inPartition) : null;
  } else {
    partitions = est.partitions ?? null;
    scanned = est.rows !== undefined ? est.rows * est.rowsPerEntity : null;
  }
  const ranged = q.where!.some((c) => RANGE_OPS.has(c.op) || (c.op !== "=" && c.value.kind === "param"));
  let returned: number | null = returns ?? null;
  if (returned === null) {
    if (cls === "point") returned = 1;
    else if (scanned !== null) returned = ranged && !mappedRange ? Math.max(1, scanned * 0.1) : scanned;
  }
  return { ...withSelectivity({ class: cls, partitions, scanned, returned, reasons, via }), pk, rk };
}
