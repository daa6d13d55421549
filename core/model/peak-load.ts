/**
 * Peak load of a table's access patterns: entities per second in total and
 * on the hottest partition (writes with their index rows, plus entities
 * scanned by reads — the performance checklist, "Entities per second"), and request units
 * where the profile counts them. A table scan's reads are what that query
 * costs (`query/table-scan` says so), not partition or account load: they
 * are kept apart (`scans`), so that no figure of load grows with the table
 * and no advice to add partitions or accounts answers a scan.
 *
 * Load is temporal (`docs/language.md`, "Estimates"): when the partition key
 * moves with time, every write of the current moment lands on the current
 * partition, so the hottest partition takes the whole write rate (times
 * the other key parts' hottest share), however many partitions pile up
 * over time; reads count with what they scan of one partition, the current
 * one included.
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
  /** A table scan: its `total` is what the query reads, counted in no load figure. */
  scan?: boolean;
}

export interface LoadEstimate {
  patterns: PatternLoad[];
  /** Entities per second of every pattern but the table scans. */
  total: number;
  /** Entities per second the table scans read (not in `total` nor on any partition). */
  scans: number;
  hottest: number;
  /** Request units per second on the hottest partition (1 RU per KiB read, 5 per KiB written). */
  hottestRU: number;
  /**
   * Request units per second on the hottest logical partition — one key
   * value — where partitions are placed by hash (Cosmos DB): a key that
   * gives each new entity its own value (`increasing`) spreads the moment's
   * writes over as many logical partitions, whatever their order; only a
   * value many entities share (a time bucket, a hot value) makes one hot.
   */
  hottestLogicalRU: number;
  /** The partition key moves with time: `hottest` is the current partition's load. */
  temporal: boolean;
}

export function estimateLoad(accesses: Access[], est: TableEstimates, queries: QueryAnalysis[]): LoadEstimate {
  const patterns: PatternLoad[] = [];
  const byQuery = new Map(queries.map((q) => [q.query as Access, q]));
  const temporal = !!est.pk?.temporal;
  for (const a of accesses) {
    if (!a.rate || !(a.rate.perSecond > 0)) continue;
    if (a.kind === "query") {
      const c = byQuery.get(a)?.classification;
      const scanned = c?.scanned;
      if (scanned === null || scanned === undefined) continue;
      const total = a.rate.perSecond * scanned;
      if (c!.class === "table-scan") {
        patterns.push({ access: a, total, hottest: 0, written: false, scan: true });
        continue;
      }
      patterns.push({
        access: a,
        total,
        hottest: temporal ? currentPartitionRead(total, c!.class, c!.partitions, est) : total * est.hotShare,
        written: false,
      });
    } else {
      const total = writeEntitiesPerSecond(a, est);
      patterns.push({ access: a, total, hottest: total * est.writeShare, written: true });
    }
  }
  const kib = Math.max(1, (est.entitySize ?? 1024) / 1024);
  // The moment's writes share one key value only when every part that moves with time is a bucket.
  const shared = !!est.pk?.temporal?.parts.every((p) => p.monotonic === "bucket");
  const logical = (p: PatternLoad) => (!temporal || shared || p.scan ? p.hottest : p.total * est.hotShare);
  return {
    patterns,
    total: patterns.reduce((s, p) => s + (p.scan ? 0 : p.total), 0),
    scans: patterns.reduce((s, p) => s + (p.scan ? p.total : 0), 0),
    hottest: patterns.reduce((s, p) => s + p.hottest, 0),
    hottestRU: patterns.reduce((s, p) => s + p.hottest * kib * (p.written ? 5 : 1), 0),
    hottestLogicalRU: patterns.reduce((s, p) => s + logical(p) * kib * (p.written ? 5 : 1), 0),
    temporal,
  };
}

/**
 * What a read scans of the current partition each second: a read of one
 * partition reads the current one as often as the moment's writes hit it
 * (`writeShare`); a read over several scans its share of each, the current
 * one among them. Unknown (0) when it reads an unknown number of partitions.
 */
function currentPartitionRead(total: number, cls: string, partitions: number | null, est: TableEstimates): number {
  const touched = partitions ?? (cls === "point" || cls === "row-range" ? 1 : null);
  if (touched === null) return 0;
  return touched <= 1 ? total * est.writeShare : total / touched;
}
