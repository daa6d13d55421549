/**
 * The stress report of `interfaces.md`: operations with their rates,
 * latency percentiles, errors and retries; partitions by rate; the
 * timeline; and a verdict that says what the run shows — on the emulator
 * the design's load shape and the client's capacity, against an account
 * the throttling observed.
 */
import { Metrics, OP_TYPES, OpType, round } from "./metrics";
import type { Leftover } from "./phases";

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

export interface StressReport {
  target: "emulator" | "account";
  table: string;
  design: { file: string; table: string };
  mode: StressMode;
  durationMs: number;
  concurrency: number;
  operations: Record<OpType, OperationReport>;
  partitions: Array<{ partitionKey: string; entities: number; entitiesPerSecond: number }>;
  timeline: Array<{ tMs: number; entitiesPerSecond: number; p99Ms: number; errors: number; byOperation: Record<OpType, number> }>;
  verdict: { partitionTargetEntitiesPerSecond: number; hottestPartitionEntitiesPerSecond: number; exceedsTarget: boolean; note: string };
  /** Set when the run stopped early (cancelled, timed out, failed) or its table could not be deleted. */
  stopped?: string;
  /** The table the run could not delete (set only then). */
  leftover?: Leftover;
}

export function buildReport(args: {
  metrics: Metrics; durationMs: number; target: "emulator" | "account"; table: string; design: { file: string; table: string };
  mode: StressMode; concurrency: number; partitionTarget: number; stopped?: string;
  /** Sentences about the run itself (it overran, the preload was cut short), appended to the verdict's note. */
  notes?: string[]; leftover?: Leftover;
}): StressReport {
  const { metrics } = args;
  // Rates use the reported (whole-millisecond) measured duration of the run phase, so the figures divide back exactly.
  const durationMs = Math.max(1, Math.round(args.durationMs));
  const seconds = durationMs / 1000;
  const operations = {} as Record<OpType, OperationReport>;
  for (const op of OP_TYPES) {
    const s = metrics.ops[op];
    // HDR percentiles report their bucket's upper edge: never above the exact maximum.
    const ms = (p: number) => (s.latency.totalCount ? round(Math.min(s.latency.getValueAtPercentile(p), s.latency.maxValue) / 1000) : 0);
    operations[op] = {
      count: s.requests, entities: s.entities, entitiesPerSecond: round(s.entities / seconds, 1),
      latencyMs: { p50: ms(50), p95: ms(95), p99: ms(99), max: s.latency.totalCount ? round(s.latency.maxValue / 1000) : 0 },
      errors: { ...s.errors }, errorCodes: { ...s.errorCodes }, retries: s.retries,
      ...(op === "query" ? { entitiesScanned: s.scanned, pages: s.pages } : {}),
    };
  }
  const partitions = [...metrics.partitions].map(([partitionKey, n]) => ({ partitionKey, entities: n, entitiesPerSecond: round(n / seconds, 1) }))
    .sort((a, b) => b.entitiesPerSecond - a.entitiesPerSecond);
  const hottest = partitions[0]?.entitiesPerSecond ?? 0;
  const exceeds = hottest > args.partitionTarget;
  const throttled = OP_TYPES.reduce((n, op) => n + (metrics.ops[op].errors["503"] ?? 0), 0);
  const note = args.target === "emulator"
    ? `On the emulator: the hottest partition took ≈ ${hottest.toLocaleString("en-US")} entities/s (${partitions.length} partitions touched). ` +
      `This shows the design's load shape and this client's capacity, not Azure's limits` +
      (throttled ? `; the emulator's fidelity layer throttled ${throttled} requests at its simulated targets (503 Server Busy), as Azure would throttle a hot partition. ` : ` — Azure's throttling is not measured here. `) +
      (exceeds ? `At this rate one partition is above the ${args.partitionTarget.toLocaleString("en-US")} entities/s target: on Azure it would run hot and be throttled.`
        : `The hottest partition stays under the ${args.partitionTarget.toLocaleString("en-US")} entities/s target.`)
    : `Against the account: the hottest partition took ≈ ${hottest.toLocaleString("en-US")} entities/s; ${throttled} requests were throttled (503 Server Busy)` +
      (throttled ? " — the partition ran hot." : ".") + ` The target is ${args.partitionTarget.toLocaleString("en-US")} entities/s per partition.`;
  return {
    target: args.target, table: args.table, design: args.design, mode: args.mode, durationMs, concurrency: args.concurrency,
    operations, partitions, timeline: metrics.timeline(),
    verdict: { partitionTargetEntitiesPerSecond: args.partitionTarget, hottestPartitionEntitiesPerSecond: hottest, exceedsTarget: exceeds, note: [note, ...(args.notes ?? [])].join(" ") },
    ...(args.stopped ? { stopped: args.stopped } : {}),
    ...(args.leftover ? { leftover: args.leftover } : {}),
  };
}
