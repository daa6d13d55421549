/**
 * Classifies a `.tdl` `where` query by mapping its conditions onto the key
 * expressions: equalities pin key parts, a range pins a key range only
 * through an order-preserving part, and the best row family (the main row
 * or an index row) serves the query. A mapped range scans only itself; the
 * conditions left over filter what was scanned (`= ` on a property with
 * `distinct N` keeps 1/N of it, a range 10 %).
 */
import { Cond, Query } from "../tdl/ast";
import { TableEstimates } from "./estimates";
import { KeyInfo, KeyPartInfo } from "./key-parts";
import { charsetMin } from "./charset";
import { PropertyInfo } from "./properties";
import { Classification, QueryClass, withSelectivity } from "../odata/classes";

export interface KeyMapping {
  kind: "exact" | "prefix" | "range" | "none";
  /** Product of the distinct values of the parts pinned by equalities (1 when none). */
  pinnedDistinct: number;
  /** Properties whose conditions narrowed the key (pinned parts, the mapped range). */
  used: string[];
  /** A range condition that met a part that does not keep order. */
  unordered?: { cond: Cond; part: KeyPartInfo; reason: string };
}

const RANGE_OPS = new Set(["<", "<=", ">", ">=", "between", "prefix"]);

/** True when the literal after part `i` sorts above a character the part may hold, and the part's values may be prefixes of one another. */
export function separatorBreaksOrder(parts: KeyPartInfo[], i: number): boolean {
  const part = parts[i];
  const next = parts[i + 1];
  if (!part?.props.length || !part.prefixProne || part.fixedWidth || !part.charset || next?.literal === undefined || next.literal === "")
    return false;
  return next.literal.charCodeAt(0) > charsetMin(part.charset);
}

/** Maps conditions onto one key. `literalPrefixNarrows`: a leading literal selects a row family (RowKeys), or nothing (PartitionKeys). */
export function mapKey(key: KeyInfo, conds: ReadonlyMap<string, Cond>, literalPrefixNarrows: boolean): KeyMapping {
  let pinnedDistinct = 1;
  let pinnedProps = 0;
  let pinnedLiteral = false;
  const used: string[] = [];
  for (let i = 0; i < key.parts.length; i++) {
    const part = key.parts[i];
    if (!part.props.length) {
      pinnedLiteral = true;
      continue;
    }
    if (part.props.every((p) => conds.get(p)?.op === "=")) {
      pinnedDistinct *= part.distinct ?? 1;
      pinnedProps++;
      used.push(...part.props);
      continue;
    }
    const rangeCond = part.props.length === 1 ? conds.get(part.props[0]) : undefined;
    const narrowed = pinnedProps || (pinnedLiteral && literalPrefixNarrows) ? "prefix" : "none";
    if (rangeCond && RANGE_OPS.has(rangeCond.op)) {
      const broken = separatorBreaksOrder(key.parts, i);
      if (part.order !== "none" && !broken) return { kind: "range", pinnedDistinct, used: [...used, part.props[0]] };
      const reason = broken
        ? `the separator "${key.parts[i + 1].literal}" after it sorts above its characters`
        : (part.orderReason ?? "it does not keep order");
      return { kind: narrowed, pinnedDistinct, used: narrowed === "prefix" ? used : [], unordered: { cond: rangeCond, part, reason } };
    }
    return { kind: narrowed, pinnedDistinct, used: narrowed === "prefix" ? used : [] };
  }
  return { kind: "exact", pinnedDistinct, used };
}

export interface WhereClassification extends Classification {
  pk: KeyMapping;
  rk: KeyMapping;
}

const RANK: Record<QueryClass, number> = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 };

/** Classifies a `where` query against the table's keys and estimates; `props` give the leftover conditions' distinct values. */
export function classifyWhere(
  q: Query,
  est: TableEstimates,
  indexNames: string[],
  props?: ReadonlyMap<string, PropertyInfo>,
): WhereClassification | undefined {
  if (!q.where || !est.pk || !est.rk) return undefined;
  const conds = new Map(q.where.map((c) => [c.property.text, c]));
  const pk = mapKey(est.pk, conds, false);
  const families = [{ via: "rowKey", key: est.rk }, ...est.indexKeys.map((key, i) => ({ via: indexNames[i], key }))];
  let best: WhereClassification | undefined;
  for (const fam of families) {
    const rk = mapKey(fam.key, conds, true);
    const c = estimate(q, pk, rk, est, fam.via, props);
    if (
      !best ||
      RANK[c.class] < RANK[best.class] ||
      (RANK[c.class] === RANK[best.class] && (c.scanned ?? Infinity) < (best.scanned ?? Infinity))
    )
      best = c;
  }
  return best;
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

function estimate(
  q: Query,
  pk: KeyMapping,
  rk: KeyMapping,
  est: TableEstimates,
  via: string,
  props?: ReadonlyMap<string, PropertyInfo>,
): WhereClassification {
  const reasons: string[] = [];
  let cls: QueryClass;
  if (pk.kind === "exact") {
    cls = rk.kind === "exact" ? "point" : "row-range";
    if (cls === "row-range")
      reasons.push(
        rk.kind === "none"
          ? "the partition is read whole: no condition pins the start of the RowKey"
          : `one partition, a range of ${via === "rowKey" ? "RowKeys" : `'${via}' index rows`}`,
      );
  } else if (pk.kind === "none") {
    cls = "table-scan";
    reasons.push("no condition pins the start of the PartitionKey: every partition is read");
  } else {
    cls = "partition-range";
    reasons.push("the conditions pin only the start of the PartitionKey: several partitions are read");
  }
  const returns = q.returns && Number.isFinite(q.returns.value) ? q.returns.value : undefined;
  // The row-key conditions count only where the row key is read by them: in one partition, or across a partition range.
  const used = new Set([...pk.used, ...(cls === "table-scan" ? [] : rk.used)]);
  const share = cls === "point" ? 1 : leftoverShare(q, used, props);
  // A range that maps onto an order-preserving key part is read as a key range: the service seeks to its
  // start and stops at its end, so it scans only the range — what it returns (`returns N`) before the
  // leftover conditions filter it, else 10 % of the enclosing range.
  const mappedRange = pk.kind === "range" || rk.kind === "range";
  const narrow = (n: number) => (mappedRange ? Math.min(n, Math.max(1, returns !== undefined ? returns / share : n * 0.1)) : n);
  const entitiesPerPartition = est.entitiesPerPartition;
  // Rows in the enclosing key range of one partition: the pinned slice of one row family, or the whole partition when nothing pins the RowKey.
  const inPartition =
    entitiesPerPartition === undefined
      ? undefined
      : rk.kind === "exact"
        ? 1
        : rk.kind === "none"
          ? entitiesPerPartition * est.rowsPerEntity
          : Math.max(1, entitiesPerPartition / rk.pinnedDistinct);
  let partitions: number | null;
  let scanned: number | null;
  if (cls === "point") {
    partitions = 1;
    scanned = 1;
  } else if (cls === "row-range") {
    partitions = 1;
    scanned = inPartition !== undefined ? narrow(inPartition) : null;
  } else if (cls === "partition-range") {
    const enclosing = est.partitions !== undefined ? Math.max(1, est.partitions / pk.pinnedDistinct) : null;
    scanned = enclosing !== null && inPartition !== undefined ? narrow(enclosing * inPartition) : null;
    // A range over the PartitionKey reads the partitions its scan spans, not all those of the enclosing prefix.
    partitions =
      enclosing !== null && pk.kind === "range"
        ? Math.max(1, scanned !== null && inPartition ? Math.ceil(scanned / inPartition - 1e-9) : enclosing * 0.1)
        : enclosing;
  } else {
    partitions = est.partitions ?? null;
    scanned = est.rows !== undefined ? est.rows * est.rowsPerEntity : null;
  }
  let returned: number | null = returns ?? null;
  if (returned === null) {
    if (cls === "point") returned = 1;
    else if (scanned !== null) returned = share < 1 ? Math.max(1, scanned * share) : scanned;
  }
  return { ...withSelectivity({ class: cls, partitions, scanned, returned, reasons, via }), pk, rk };
}
