/**
 * Peak load of a table's access patterns: entities per second in total and
 * on the hottest partition (writes with their index rows, plus entities
 * scanned by reads — seed 002 "Entities per second"), and request units
 * where the profile counts them.
 */
import { Access } from "../tdl/ast";
import { TableEstimates, writeEntitiesPerSecond } from "./estimates";
import { QueryAnalysis } from "./queries";

export interface PatternLoad {
  access: Access;
  /** Entities per second over the whole table. */
  total: number;
  /** Entities per second on the hottest partition. */
  hottest: number;
  /** Of which written (the rest is read). */
  written: boolean;
}

export interface LoadEstimate {
  patterns: PatternLoad[];
  total: number;
  hottest: number;
  /** Request units per second on the hottest partition (1 RU per KiB read, 5 per KiB written). */
  hottestRU: number;
}

export function estimateLoad(accesses: Access[], est: TableEstimates, queries: QueryAnalysis[]): LoadEstimate {
  const patterns: PatternLoad[] = [];
  const byQuery = new Map(queries.map((q) => [q.query as Access, q]));
  for (const a of accesses) {
    if (!a.rate || !(a.rate.perSecond > 0)) continue;
    if (a.kind === "query") {
      const scanned = byQuery.get(a)?.classification?.scanned;
      if (scanned === null || scanned === undefined) continue;
      const total = a.rate.perSecond * scanned;
      patterns.push({ access: a, total, hottest: total * est.hotShare, written: false });
    } else {
      const total = writeEntitiesPerSecond(a, est);
      patterns.push({ access: a, total, hottest: total * est.hotShare, written: true });
    }
  }
  const kib = Math.max(1, (est.entitySize ?? 1024) / 1024);
  return {
    patterns,
    total: patterns.reduce((s, p) => s + p.total, 0),
    hottest: patterns.reduce((s, p) => s + p.hottest, 0),
    hottestRU: patterns.reduce((s, p) => s + p.hottest * kib * (p.written ? 5 : 1), 0),
  };
}
