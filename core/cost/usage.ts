/**
 * What a design table's declared load does in a month, in the units the
 * services bill: requests (Table Storage bills each request, a batch of up
 * to 100 entities being one and each page of a query another), entities
 * read and written with their size (Cosmos DB's request units, Tablestore's
 * capacity units), the throttled requests its hottest partition would get
 * (billed too), and the data it keeps. Rates are peak rates: the month is
 * priced as if the peak lasted, which is what a design must be able to pay.
 */
import type { Access } from "../tdl/ast";
import type { TableFacts } from "../model/facts";
import type { ServiceProfile } from "../services";

/**
 * A month of usage, the same for every profile: 730 hours, the month Azure
 * prices provisioned capacity by (8,760 hours a year over twelve). Requests,
 * capacity units and hours are all counted over it, so profiles compare.
 */
export const HOURS_PER_MONTH = 730;
export const SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600;
/** At most this many entities in one page of a query. */
export const PAGE_ENTITIES = 1000;
/**
 * Entities a query scans in one page at most: a page is cut after 5 s of
 * work (the partitioning guide's "Query timeout and pagination"); at the
 * partition target of 2,000 entities a second that is 10,000 entities.
 */
export const SCAN_PER_PAGE = 10_000;
/** Entity size when the design says none. */
export const DEFAULT_ENTITY_BYTES = 1024;

export interface PatternUsage {
  name: string;
  kind: Access["kind"];
  /** Requests (billable transactions) per second, entities written and scanned per second. */
  requestsPerSecond: number;
  entitiesWrittenPerSecond: number;
  entitiesReadPerSecond: number;
  /** Query calls: pages each (one billable transaction each). */
  pagesPerCall?: number;
}

export interface TableUsage {
  table: string;
  patterns: PatternUsage[];
  requestsPerSecond: number;
  /** Throttled requests a second on the hottest partition (503 ServerBusy, retried and billed). */
  throttledPerSecond: number;
  entitiesWrittenPerSecond: number;
  entitiesReadPerSecond: number;
  entityBytes: number;
  /** Rows stored (index rows included). */
  storedRows: number | undefined;
  storedBytes: number | undefined;
  /** Entities a second on the hottest partition (writes and single-partition reads), and the profile's target. */
  hottest: number;
  target: number | undefined;
  /** Request units a second on the hottest logical partition (1 per KiB read, 5 per KiB written). */
  hottestRU: number;
  /** Request units a second on the hottest logical partition (one key value) when partitions are placed by hash (Cosmos DB). */
  hottestLogicalRU: number;
  /** What the estimate had to assume, in words. */
  assumptions: string[];
}

/** The monthly usage of one table from its facts (model/facts.ts) on `profile`. */
export function tableUsage(name: string, facts: TableFacts, profile: ServiceProfile): TableUsage {
  const { est, queries, load } = facts;
  const assumptions: string[] = [];
  const entityBytes = est.entitySize ?? DEFAULT_ENTITY_BYTES;
  if (est.entitySize === undefined) assumptions.push(`entities of ${DEFAULT_ENTITY_BYTES} bytes (the design declares no entitySize)`);
  const byQuery = new Map(queries.map((q) => [q.query as Access, q]));
  const patterns: PatternUsage[] = [];
  for (const p of load.patterns) {
    const a = p.access;
    const rate = a.rate?.perSecond ?? 0;
    if (a.kind === "query") {
      const c = byQuery.get(a)?.classification;
      const scanned = c?.scanned ?? 0;
      const returned = c?.returned ?? 1;
      const pages = Math.max(1, Math.ceil(returned / PAGE_ENTITIES), Math.ceil(scanned / SCAN_PER_PAGE));
      patterns.push({
        name: a.name.text,
        kind: a.kind,
        requestsPerSecond: rate * pages,
        entitiesWrittenPerSecond: 0,
        entitiesReadPerSecond: rate * scanned,
        pagesPerCall: pages,
      });
    } else {
      // A rate counts entities; `batch N` sends N of them (with their index rows) per entity group transaction.
      const written = p.total;
      const perRequest =
        a.kind === "transaction"
          ? written / Math.max(rate, Number.MIN_VALUE)
          : Math.min(profile.batchMaxOperations, (batchOf(a) ?? 1) * est.rowsPerEntity);
      patterns.push({
        name: a.name.text,
        kind: a.kind,
        requestsPerSecond: a.kind === "transaction" ? rate : written / perRequest,
        entitiesWrittenPerSecond: written,
        entitiesReadPerSecond: 0,
      });
    }
  }
  const requestsPerSecond = patterns.reduce((n, p) => n + p.requestsPerSecond, 0);
  const target = profile.partitionTarget?.unit === "entities/s" ? profile.partitionTarget.value : undefined;
  // Throttling is judged on what one partition takes: writes and reads of one partition. A scan's
  // reads spread over every partition it crosses; what it costs is its pages (its own finding says so).
  const onePartition = load.patterns.filter((p) => {
    if (p.written) return true;
    const c = byQuery.get(p.access)?.classification;
    return c?.class === "point" || c?.class === "row-range";
  });
  const hottest = onePartition.reduce((n, p) => n + p.hottest, 0);
  const total = onePartition.reduce((n, p) => n + p.total, 0);
  const oneRequests = patterns
    .filter((u) => onePartition.some((p) => p.access.name.text === u.name))
    .reduce((n, u) => n + u.requestsPerSecond, 0);
  // The hottest partition's share of those requests is its share of their load; past the target the rest is throttled and retried.
  const hotRequests = total > 0 ? oneRequests * (hottest / total) : 0;
  const throttledPerSecond = target && hottest > target ? hotRequests * (1 - target / hottest) : 0;
  const storedRows = est.rows !== undefined ? est.rows * est.rowsPerEntity : undefined;
  if (storedRows === undefined) assumptions.push("no stored data (the design declares no rows)");
  return {
    table: name,
    patterns,
    requestsPerSecond,
    throttledPerSecond,
    entitiesWrittenPerSecond: patterns.reduce((n, p) => n + p.entitiesWrittenPerSecond, 0),
    entitiesReadPerSecond: patterns.reduce((n, p) => n + p.entitiesReadPerSecond, 0),
    entityBytes,
    storedRows,
    storedBytes: storedRows !== undefined ? storedRows * entityBytes : undefined,
    hottest,
    target,
    hottestRU: load.hottestRU,
    hottestLogicalRU: load.hottestLogicalRU,
    assumptions,
  };
}

function batchOf(a: Access): number | undefined {
  return a.kind === "write" ? a.batch?.value : undefined;
}
