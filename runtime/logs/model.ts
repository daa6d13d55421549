/**
 * The heatmap of a service's logs as the CLI prints it, the HTML page
 * draws it and the panel takes it: per partition, what happened (counted
 * in requests: a query page is one, a batch is one); per bucket of time
 * (a second, or a minute, an hour or a day when the logs span longer), a
 * cell per partition in the emulator's own `TrafficSecond` shape, so the
 * key-space heatmap that draws the emulator's traffic draws logs too.
 */
import type { TrafficSecond } from "@protocol/traffic";
import type { DesignComparison } from "./design";
import type { ReadSummary, SkippedLine } from "./sources";

/** One partition's figures over the whole log. */
export interface PartitionSummary {
  table: string;
  partitionKey: string;
  /** Requests on the partition: succeeded, throttled and failed. */
  operations: number;
  /** Succeeded point reads and query pages. */
  reads: number;
  /** Succeeded writes and batches (a batch is one, whatever its entities). */
  writes: number;
  /** Of the writes, entity group transactions. */
  batches: number;
  /** Refused with 503 Server Busy (429 on Cosmos DB). */
  throttled: number;
  /** Answered with another error. */
  failed: number;
  /** Cosmos DB: request units charged. */
  requestUnits?: number;
  /** The busiest bucket's requests per second (its requests over its length). */
  peakPerSecond: number;
  /** When that bucket started (ISO 8601). */
  peakAt: string;
  /** How the partition was known, in requests: from the URI, the object key, the filter, a continuation token, the log's own column. */
  via: Record<string, number>;
  /** With --design: the design table and key expression this key matches (null: none of the design's). */
  design?: { table: string; partitionKey: string } | null;
}

/** Requests that name no one partition (a query over several, a batch whose partition the line does not name), per table. */
export interface Unattributed {
  table: string;
  operations: number;
  throttled: number;
  /** By query class (partition-range, table-scan…) and `batch`. */
  byClass: Record<string, number>;
}

export interface LogHeatmap {
  /** Log entries read (lines, rows, array elements), skipped ones included. */
  lines: number;
  skipped: number;
  /** The first and last request's time (ISO 8601); null when nothing was read. */
  from: string | null;
  to: string | null;
  /** The cells' length: 1,000 (a second) unless the logs span too long for that (bucketName says which). */
  bucketMs: number;
  bucketName: "second" | "minute" | "hour" | "day";
  /** The partitions by requests, hottest first (at most MAX_LISTED; `partitionCount` says how many there were). */
  partitions: PartitionSummary[];
  partitionCount: number;
  unattributed: Unattributed[];
  /** Entries that are no entity traffic: table and service operations, other services' lines. */
  ignored: number;
  /** Entries outside --from/--to or of another table than --table. */
  filteredOut: number;
  /**
   * Partitions folded into `<table>/#others` to keep memory bounded (the
   * coldest first), and the most requests one of them had when folded: a
   * partition's count may be short by at most that.
   */
  folded?: { partitions: number; operations: number; maxUndercount: number };
  /** Requests per bucket over every partition: the time axis. */
  timeline: Array<{ t: string; operations: number; throttled: number }>;
  /** The cells, for the panel: one `TrafficSecond` per bucket (`t` its start), keys `table/partitionKey`; counts are per bucket. */
  seconds: TrafficSecond[];
  files: ReadSummary["files"];
  skippedExamples: SkippedLine[];
  notes: string[];
  /** With --design: the design beside the logs. */
  design?: DesignComparison;
}
