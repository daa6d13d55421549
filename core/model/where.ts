/**
 * Classifies a `.tdl` `where` query by mapping its conditions onto the key
 * expressions: equalities pin key parts, a range pins a key range only
 * through an order-preserving part, and the best row family (the main row
 * or an index row) serves the query. A mapped range scans only itself; the
 * conditions left over filter what was scanned (`= ` on a property with
 * `distinct N` keeps 1/N of it, a range 10 %).
 */
import { Cond, isNumberLit, Query } from "../tdl/ast";
import { TableEstimates } from "./estimates";
import { KeyInfo, KeyPartInfo } from "./key-parts";
import { charsetMin } from "./charset";
import { PropertyInfo } from "./properties";
import { FANOUT_MAX_PARTS, QueryClass } from "../odata/classes";
import { estimate, KeyMapping, WhereClassification } from "./where-estimate";

export type { KeyMapping, WhereClassification } from "./where-estimate";

const RANGE_OPS = new Set(["<", "<=", ">", ">=", "between", "prefix"]);

/** How many texts a `bucket(Q, n)` (n) or `hash(P, k)` (16^k) part renders, when few enough to enumerate. */
function enumerable(part: KeyPartInfo, conds: ReadonlyMap<string, Cond>): number | undefined {
  if ((part.fn !== "bucket" && part.fn !== "hash") || part.part.kind !== "call") return undefined;
  if (part.props.length && part.props.every((p) => conds.get(p)?.op === "=")) return undefined;
  const arg = part.part.args[1];
  const n = isNumberLit(arg) && Number.isFinite(arg.value) ? arg.value : undefined;
  const values = n === undefined ? undefined : part.fn === "hash" ? 16 ** n : Math.floor(n);
  return values !== undefined && values >= 1 && values <= FANOUT_MAX_PARTS ? values : undefined;
}

/** True when the literal after part `i` sorts above a character the part may hold, and the part's values may be prefixes of one another. */
export function separatorBreaksOrder(parts: KeyPartInfo[], i: number): boolean {
  const part = parts[i];
  const next = parts[i + 1];
  if (!part?.props.length || !part.prefixProne || part.fixedWidth || !part.charset || next?.literal === undefined || next.literal === "")
    return false;
  return next.literal.charCodeAt(0) > charsetMin(part.charset);
}

const KIND_RANK: Record<KeyMapping["kind"], number> = { exact: 0, range: 1, prefix: 2, none: 3 };

/**
 * Maps conditions onto one key. `literalPrefixNarrows`: a leading literal selects a row family (RowKeys), or nothing (PartitionKeys).
 * A fan-out is chosen only when it narrows the key further than reading without it, and some condition narrows it:
 * enumerating every bucket of an otherwise unpinned key reads the whole table, which is no fan-out but a scan.
 */
export function mapKey(key: KeyInfo, conds: ReadonlyMap<string, Cond>, literalPrefixNarrows: boolean): KeyMapping {
  const plain = mapParts(key, conds, literalPrefixNarrows, false);
  if (plain.kind === "exact" || !key.parts.some((p) => enumerable(p, conds) !== undefined)) return plain;
  const fanned = mapParts(key, conds, literalPrefixNarrows, true);
  return fanned.fanOut > 1 && fanned.fanOut <= FANOUT_MAX_PARTS && fanned.used.length > 0 && KIND_RANK[fanned.kind] < KIND_RANK[plain.kind]
    ? fanned
    : plain;
}

function mapParts(key: KeyInfo, conds: ReadonlyMap<string, Cond>, literalPrefixNarrows: boolean, fan: boolean): KeyMapping {
  let pinnedDistinct = 1;
  let pinnedProps = 0;
  let pinnedLiteral = false;
  let fanOut = 1;
  let reach = 1;
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
    const values = fan ? enumerable(part, conds) : undefined;
    if (values !== undefined) {
      // One request per bucket: each pins this part, so the next parts map as if it were pinned.
      fanOut *= values;
      reach *= Math.min(part.distinct ?? values, values);
      pinnedDistinct *= Math.min(part.distinct ?? values, values);
      pinnedProps++;
      continue;
    }
    const rangeCond = part.props.length === 1 ? conds.get(part.props[0]) : undefined;
    const narrowed = pinnedProps || (pinnedLiteral && literalPrefixNarrows) ? "prefix" : "none";
    if (rangeCond && RANGE_OPS.has(rangeCond.op)) {
      const broken = separatorBreaksOrder(key.parts, i);
      if (part.order !== "none" && !broken) return { kind: "range", pinnedDistinct, used: [...used, part.props[0]], fanOut, reach };
      const reason = broken
        ? `the separator "${key.parts[i + 1].literal}" after it sorts above its characters`
        : (part.orderReason ?? "it does not keep order");
      return {
        kind: narrowed,
        pinnedDistinct,
        used: narrowed === "prefix" ? used : [],
        unordered: { cond: rangeCond, part, reason },
        fanOut,
        reach,
      };
    }
    return { kind: narrowed, pinnedDistinct, used: narrowed === "prefix" ? used : [], fanOut, reach };
  }
  return { kind: "exact", pinnedDistinct, used, fanOut, reach };
}

const RANK: Record<QueryClass, number> = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 };

/** Lower class first, then fewer entities scanned, then fewer requests. */
function better(c: WhereClassification, best: WhereClassification): boolean {
  if (RANK[c.class] !== RANK[best.class]) return RANK[c.class] < RANK[best.class];
  const scanned = (c.scanned ?? Infinity) - (best.scanned ?? Infinity);
  return scanned < 0 || (scanned === 0 && (c.requests ?? 1) < (best.requests ?? 1));
}

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
    if (!best || better(c, best)) best = c;
  }
  return best;
}
