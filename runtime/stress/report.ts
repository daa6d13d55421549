/**
 * The stress report `tdl stress --report` writes: operations with their rates,
 * latency percentiles, errors and retries; what each access pattern ran
 * as; partitions by rate, with what was throttled at each; the timeline;
 * how the run was scaled to the machine (emulator); and a verdict that
 * says whether a partition ran hot.
 */
import { designCost, SNAPSHOT, type PriceSheet, type TdlAnalysis } from "@core";
import { Metrics, round } from "./metrics";
import { calibrationNote, verdictOf } from "./verdict";
import { invalidHeadline, stallOf } from "./validity";
import type { Work } from "./workload";
import {
  OP_TYPES,
  type Calibration,
  type EngineInfo,
  type Leftover,
  type OperationReport,
  type OpType,
  type PatternReport,
  type ReportCost,
  type Skipped,
  type StressMode,
  type StressReport,
} from "@protocol/stress-report";

const MAX_PARTITIONS = 1000;

export function buildReport(args: {
  metrics: Metrics;
  durationMs: number;
  target: "emulator" | "account";
  table: string;
  design: { file: string; table: string };
  mode: StressMode;
  concurrency: number;
  partitionTarget: number;
  stopped?: string;
  /** Sentences about the run itself (it overran, the preload was cut short), appended to the verdict's note. */
  notes?: string[];
  leftover?: Leftover;
  calibration?: Calibration;
  work?: Work[];
  skipped?: Skipped[];
  pace?: { callsPerSecond: number; sent: number; dropped: number };
  /** Set when Locust workers measured the run. */
  engine?: EngineInfo;
  /** Why the engine's measurement cannot be judged (a worker stopped), besides a stall the timeline shows. */
  invalid?: string[];
  /** Design mode: the design's declared load, priced as `tdl cost` prices it. */
  cost?: ReportCost;
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
      count: s.requests,
      entities: s.entities,
      entitiesPerSecond: round(s.entities / seconds, 1),
      latencyMs: { p50: ms(50), p95: ms(95), p99: ms(99), max: s.latency.totalCount ? round(s.latency.maxValue / 1000) : 0 },
      errors: { ...s.errors },
      errorCodes: { ...s.errorCodes },
      retries: s.retries,
      ...(op === "query" || op === "scan" ? { entitiesScanned: s.scanned, pages: s.pages } : {}),
    };
  }
  const all = [...metrics.partitions]
    .map(([partitionKey, p]) => ({
      partitionKey,
      entities: p.entities,
      entitiesPerSecond: round(p.entities / seconds, 1),
      throttled: p.throttled,
    }))
    .sort((a, b) => b.entitiesPerSecond - a.entitiesPerSecond || b.throttled - a.throttled);
  const requests = OP_TYPES.reduce((n, op) => n + metrics.ops[op].requests, 0);
  const endWins = metrics.beyond.end >= metrics.beyond.start;
  const throttledMost = all.reduce<(typeof all)[number] | undefined>((m, p) => (p.throttled > (m?.throttled ?? 0) ? p : m), undefined);
  const verdict = verdictOf({
    target: args.target,
    partitionTarget: args.partitionTarget,
    hottest: all[0] ?? { entitiesPerSecond: 0 },
    partitions: all.length,
    throttled: metrics.throttled,
    requests,
    calibration: args.calibration,
    ...(throttledMost
      ? {
          mostThrottled: {
            partitionKey: throttledMost.partitionKey,
            servedPerSecond: throttledMost.entitiesPerSecond,
            offeredPerSecond: round((throttledMost.entities + throttledMost.throttled) / seconds, 1),
          },
        }
      : {}),
    beyond: {
      entitiesPerSecond: round((endWins ? metrics.beyond.end : metrics.beyond.start) / seconds, 1),
      end: endWins ? "end" : "start",
    },
  });
  const rates = (args.work ?? [])
    .filter((w) => w.source)
    .map((w) => ({ source: w.source!, perSecond: w.weight * (w.op === "insert" || w.op === "update" || w.op === "delete" ? w.batch : 1) }));
  const calibration = args.calibration && { ...args.calibration, note: calibrationNote(args.calibration, rates) };
  const timeline = metrics.timeline(durationMs);
  // A run that stopped early says so in `stopped`; one that ran its course may still have measured nothing to judge.
  const stall = args.stopped ? undefined : stallOf(timeline, durationMs, args.mode, args.pace?.callsPerSecond);
  const invalid = [...(args.invalid ?? []), ...(stall ? [stall] : [])];
  if (invalid.length) {
    verdict.headline = invalidHeadline(invalid);
    verdict.invalid = invalid.map((r) => `${r[0]!.toUpperCase()}${r.slice(1)}.`).join(" ");
  }
  const details = [
    ...(verdict.invalid ? [`Invalid run: ${verdict.invalid}`] : []),
    ...(verdict.details ?? []),
    ...(calibration ? [calibration.note] : []),
    ...(args.notes ?? []),
  ];
  return {
    target: args.target,
    table: args.table,
    design: args.design,
    mode: args.mode,
    durationMs,
    concurrency: args.concurrency,
    operations,
    ...(args.mode === "design" && args.work
      ? { patterns: patternsOf(args.work, metrics, { scale: args.calibration?.scale ?? 1, seconds, perPattern503s: !args.engine }) }
      : {}),
    ...(args.skipped?.length ? { skipped: args.skipped } : {}),
    partitions: all.slice(0, MAX_PARTITIONS),
    partitionCount: all.length,
    timeline,
    verdict: { ...verdict, details, note: details.join(" ") },
    ...(calibration ? { calibration } : {}),
    ...(args.pace ? { pace: args.pace } : {}),
    ...(args.stopped ? { stopped: args.stopped } : {}),
    ...(args.leftover ? { leftover: args.leftover } : {}),
    ...(args.engine ? { engine: args.engine } : {}),
    ...(args.cost ? { cost: args.cost } : {}),
  };
}

/**
 * Each pattern's rates in the report's vocabulary (core/text/figures.ts):
 * planned (the design's), offered (paced: × the scales), sent, served and
 * throttled (per second of the run). `perPattern503s` is false when another
 * engine measured the run: its records say per pattern whether they count
 * 503s (Locust's do since they carry `th`), else throttled is unknown.
 */
function patternsOf(work: Work[], metrics: Metrics, o: { scale: number; seconds: number; perPattern503s: boolean }): PatternReport[] {
  return work
    .filter((w) => w.source)
    .map((w) => {
      const counted = metrics.bySource.get(w.source!) ?? { calls: 0, failed: 0 };
      const throttled = counted.throttled ?? (o.perPattern503s ? 0 : undefined);
      return {
        name: w.source!,
        op: w.op,
        ...(w.queryClass ? { queryClass: w.queryClass } : {}),
        callsPerSecond: round(w.weight * o.scale, 2),
        calls: counted.calls,
        failed: counted.failed,
        plannedPerSecond: round(w.planned ?? w.weight, 2),
        sentPerSecond: round(counted.calls / o.seconds, 2),
        servedPerSecond: round((counted.calls - counted.failed) / o.seconds, 2),
        ...(throttled === undefined ? {} : { throttled, throttledPerSecond: round(throttled / o.seconds, 2) }),
      };
    });
}

/**
 * The design table's declared load for a month on Table Storage, priced by
 * `tdl cost`'s own function (designCost) with the same sheet, so the report
 * and `tdl cost DESIGN --table T` print one figure.
 */
export function declaredCost(analysis: TdlAnalysis, table: string, prices: PriceSheet = SNAPSHOT): ReportCost {
  const estimate = designCost(analysis, { prices, table, services: ["azure-table"] })[0]?.estimates[0];
  return {
    prices: { region: prices.region, date: prices.date },
    designMonthlyUsd: estimate?.monthlyUsd ?? null,
    ...(estimate?.transactionsPerMonth !== undefined ? { designTransactionsPerMonth: estimate.transactionsPerMonth } : {}),
  };
}
