/**
 * The heatmap of a service's logs as it crosses from the runtime to the
 * CLI, the HTML page and the heatmap panel: per partition what happened,
 * counted twice — in requests (a query page is one, a batch is one) and in
 * entities as the emulator's heatmap counts them (a batch of 100 is 100);
 * per bucket of time (a second, or a minute, an hour or a day when the
 * logs span longer) a cell per partition in the emulator's own
 * `TrafficSecond` shape, so one heatmap draws both. Types only.
 */
import type { TrafficSecond } from "./traffic";

/** Entities as the emulator's heatmap counts them: served by reads, written, refused with 503. */
export interface EntityCounts {
  read: number;
  written: number;
  throttled: number;
}

/** One partition's figures over the whole log. */
export interface PartitionSummary {
  table: string;
  partitionKey: string;
  /** Requests on the partition: succeeded, throttled and failed. */
  operations: number;
  /** Succeeded point reads and query pages. */
  reads: number;
  /** Succeeded writes and batches (a batch is one request, whatever its entities). */
  writes: number;
  /** Of the writes, entity group transactions. */
  batches: number;
  /** Refused with 503 Server Busy (429 on Cosmos DB). */
  throttled: number;
  /** Answered with another error, or left unanswered (the client went away). */
  failed: number;
  /** The same requests in entities: a batch counts its operations when the log shows them, a query page counts one. */
  entities: EntityCounts;
  /** Cosmos DB: request units charged. */
  requestUnits?: number;
  /** The busiest bucket's entities per second (served: read and written, over the bucket's length; throttled ones are apart). */
  peakPerSecond: number;
  /** When that bucket started (ISO 8601). */
  peakAt: string;
  /** How the partition was known, in requests: from the URI, the object key, the filter, a continuation token, the log's own column. */
  via: Record<string, number>;
  /** With a design: the design table and key expression this key matches (null: none of the design's). */
  design?: { table: string; partitionKey: string } | null;
  /**
   * Set when the figures may be short: the most entities (and requests) the
   * row may lack, because the key came back after a row of it was folded
   * into `#others` to keep memory bounded. Absent: the row is exact.
   */
  shortBy?: number;
  /** A stress run's calibration partition (`~probe-NN`): shown apart, and left out of shares and predictions. */
  probe?: boolean;
}

/** A PartitionKey range some query pages read (`from` inclusive, `to` as the filter bounds it; either may be open). */
export interface QueriedRange {
  from?: string;
  to?: string;
  pages: number;
}

/** Requests that name no one partition (a query over several, a batch whose partition the line does not name), per table. */
export interface Unattributed {
  table: string;
  operations: number;
  throttled: number;
  /** By query class (partition-range, table-scan…) and `batch`. */
  byClass: Record<string, number>;
  /** The PartitionKey ranges queried most (at most a few per table). */
  ranges: QueriedRange[];
}

/** A log entry that was skipped: where, and why. */
export interface SkippedLine {
  file: string;
  line: number;
  reason: string;
}

export type LogFormat = "json-array" | "json-lines" | "storage-analytics" | "csv";

/** One file read: its format, its entries, and why it could not be read (to its end), if so. */
export interface LogFileSummary {
  file: string;
  format?: LogFormat;
  entries: number;
  skipped: number;
  problem?: string;
}

/** One log table beside the design table it is read as. */
export interface TableComparison {
  logTable: string;
  designTable: string;
  partitionKey: string;
  /** Observed partitions whose key the expression renders, and those it does not. */
  matched: number;
  unmatched: number;
  /** The design at its declared peak, in entities per second (index rows and scanned entities included), times `scale`. */
  predicted: {
    /** The factor the design's rates were multiplied by (a stress run scaled by it); 1 unless asked. */
    scale: number;
    hottestPerSecond: number;
    totalPerSecond: number;
    hottestShare: number | null;
    partitions: number | null;
    temporal: boolean;
    /** The access patterns that load the hottest partition most, hottest first. */
    patterns: Array<{ name: string; kind: string; hottestPerSecond: number }>;
  };
  /** The logs: the hottest partitions by their busiest bucket's rate, each with the entities it served and its share of the table's. */
  observed: {
    hottest: Array<{ partitionKey: string; entities: number; peakPerSecond: number; share: number }>;
    partitions: number;
    entities: number;
  };
  /** Observed against predicted: the hottest partition's peak rate (relative: 0.25 is 25 % above), its share (difference). */
  error: { hottestPerSecond: number | null; hottestShare: number | null };
  /** The prediction and the error in words, as every front end says them. */
  said: { predicted: string; error: string };
}

export interface DesignComparison {
  file: string;
  tables: TableComparison[];
  /** Log tables that no design table matches. */
  unmatchedTables: string[];
  note: string;
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
  /** The partitions by entities, hottest first (at most MAX_LISTED; `partitionCount` says how many there were). */
  partitions: PartitionSummary[];
  partitionCount: number;
  unattributed: Unattributed[];
  /** Entries that are no entity traffic: table and service operations, other services' lines. */
  ignored: number;
  /** Entries outside the time window or of another table than the one asked. */
  filteredOut: number;
  /** Entries counted as operations of the batch before them (the same correlation id). */
  batchOperations: number;
  /**
   * Partitions folded into `<table>/#others` to keep memory bounded (the
   * coldest first), and the most entities one of them had when folded: a
   * partition's count may be short by at most that.
   */
  folded?: { partitions: number; entities: number; maxUndercount: number };
  /** Entities per bucket over every partition: the time axis. */
  timeline: Array<{ t: string; entities: number; throttled: number }>;
  /** The cells: one `TrafficSecond` per bucket (`t` its start), keys `table/partitionKey`, entities per bucket. */
  seconds: TrafficSecond[];
  files: LogFileSummary[];
  skippedExamples: SkippedLine[];
  notes: string[];
  /** With a design: the design beside the logs. */
  design?: DesignComparison;
}
