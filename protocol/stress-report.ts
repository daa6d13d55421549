/**
 * The stress report as it crosses from the runtime to the CLI and the report
 * page: operations with their rates, latency percentiles, errors and
 * retries; what each access pattern ran as; partitions by rate; the
 * timeline; how the run was scaled; the verdict. Types only (and the list of
 * operation types), so a page reads them without the runtime's Node code.
 */

/**
 * The calls a run makes: single writes (`insert` also counts upserts,
 * `update` merges and replaces), `getEntity` point reads, `listEntities`
 * over a key range (`query`) or the whole table (`scan`), and entity group
 * transactions.
 */
export type OpType = "insert" | "update" | "delete" | "pointRead" | "query" | "scan" | "transaction";

export const OP_TYPES: OpType[] = ["insert", "update", "delete", "pointRead", "query", "scan", "transaction"];

/** A point of the timeline: `tMs` is where its span ends; rates are per second of the span's real length. */
export interface TimelinePoint {
  tMs: number;
  entities: number;
  entitiesPerSecond: number;
  p99Ms: number;
  errors: number;
  byOperation: Record<OpType, number>;
}

export type StressMode = "single-partition" | "spread" | "design";

export interface OperationReport {
  count: number;
  entities: number;
  entitiesPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  errors: Record<string, number>;
  errorCodes: Record<string, number>;
  retries: number;
  entitiesScanned?: number;
  pages?: number;
}

/**
 * A design's access pattern and the call it ran as, with its rates in the
 * vocabulary of core/text/figures.ts: planned, offered (`callsPerSecond`),
 * sent, served and throttled. Reports written before the vocabulary lack the
 * optional rates.
 */
export interface PatternReport {
  name: string;
  op: OpType;
  queryClass?: string;
  /** Offered: calls per second it was paced at (the design's rate × the scales). */
  callsPerSecond: number;
  /** Calls sent (answered or failed). */
  calls: number;
  failed: number;
  /** Planned: the design's declared rate, calls per second, before any scale. */
  plannedPerSecond?: number;
  /** Sent: calls started per second of the run. */
  sentPerSecond?: number;
  /** Served: calls answered with success per second of the run. */
  servedPerSecond?: number;
  /** 503 Server Busy answers to its calls, retries included (absent when the engine did not count them per pattern). */
  throttled?: number;
  /** Throttled: those answers per second of the run. */
  throttledPerSecond?: number;
}

/**
 * What the design and the run cost on Table Storage: the design's declared
 * load for a month, priced by the function `tdl cost` uses (core/cost's
 * designCost), beside what the run itself billed.
 */
export interface ReportCost {
  /** The price sheet both figures use. */
  prices: { region: string; date: string };
  /** The design table's declared load for a month on Table Storage (null: the design has errors and is not priced). */
  designMonthlyUsd: number | null;
  /** Transactions a month the declared load makes (what `tdl cost` shows beside it). */
  designTransactionsPerMonth?: number;
}

export interface StressReport {
  target: "emulator" | "account";
  table: string;
  design: { file: string; table: string };
  mode: StressMode;
  durationMs: number;
  concurrency: number;
  operations: Record<OpType, OperationReport>;
  /** Design mode: each access pattern, the call it ran as, and how often. */
  patterns?: PatternReport[];
  /** Design mode: patterns that could not run, and why. */
  skipped?: Skipped[];
  /** The busiest partitions (at most 1,000), by rate; `partitionCount` says how many there were. */
  partitions: Array<{ partitionKey: string; entities: number; entitiesPerSecond: number; throttled: number }>;
  partitionCount: number;
  timeline: TimelinePoint[];
  verdict: Verdict;
  /** Emulator runs: how Azure's targets and the design's rates were scaled to this machine. */
  calibration?: Calibration & { note: string };
  /** Design mode: the open load's pace, and the calls it could not start on time (every worker was busy). */
  pace?: { callsPerSecond: number; sent: number; dropped: number };
  /** Set when the run stopped early (cancelled, timed out, failed) or its table could not be deleted. */
  stopped?: string;
  /** The table the run could not delete (set only then). */
  leftover?: Leftover;
  /** What sent the load when it was not the built-in engine: Locust, with how many workers (or engines) and their records. */
  engine?: EngineInfo;
  /** Design mode: the design's declared load priced as `tdl cost` prices it (the run's own bill is protocol/run-cost.ts's). */
  cost?: ReportCost;
}

/** The engine of a run measured by Locust workers (`tdl stress --engine locust`, `--ingest`). */
export interface EngineInfo {
  name: "locust";
  workers: number;
  /** Worker record files read, and lines that could not be read (left out). */
  records: number;
  skippedLines: number;
}

/** How a run was scaled to this machine (emulator runs only). */
export interface Calibration {
  /** Entities/s the probe measured (undefined when the scale was given, not measured). */
  capacityEntitiesPerSecond?: number;
  /** K: Azure's targets and the design's rates were multiplied by it. */
  scale: number;
  /** The targets the run was judged against: Azure's × K, entities/s. */
  partitionTargetEntitiesPerSecond: number;
  accountTargetEntitiesPerSecond: number;
  /** Azure's targets (the profile's, or the setting's partition target). */
  azure: { partitionTargetEntitiesPerSecond: number; accountTargetEntitiesPerSecond: number };
  /** The emulator's fidelity layer throttled at the scaled targets (false: nothing throttles there; the verdict compares rates). */
  throttled: boolean;
}

export interface Verdict {
  /** The verdict in one sentence ("HOT: partition 'p' would be throttled on Azure."), then its cause in one ("71 % of its requests were throttled: …"). */
  headline: string;
  /** The sentence of the verdict alone (the headline's first). */
  verdictSentence?: string;
  /** The sentence of its cause alone (the headline's second). */
  cause?: string;
  /** The rest, a sentence an item, shown under the headline (`note` joins them). */
  details?: string[];
  partitionTargetEntitiesPerSecond: number;
  hottestPartitionEntitiesPerSecond: number;
  exceedsTarget: boolean;
  note: string;
  /** 503 Server Busy answers: at a partition (or its range partition) and at the account; `share` of all requests at a partition. */
  throttled: { partition: number; account: number; share: number };
  /** New entities written beyond the highest (or lowest) partition key so far: the load on the range partition at that end. */
  keyRangeEndEntitiesPerSecond: number;
  /** Why it is hot, when it is. */
  reason?: "throttled" | "hottest-partition" | "append-only";
}

/** A table the run could not delete. */
export interface Leftover {
  table: string;
  /** The endpoint's host, e.g. `myaccount.table.core.windows.net`. */
  host: string;
  reason: string;
}

/** A design's pattern the run cannot send, and why (the report lists it). */
export interface Skipped {
  source: string;
  reason: string;
}
