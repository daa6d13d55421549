/**
 * What another engine (Locust, runtime/locust/run.ts) is handed when it
 * sends the load in place of the built-in one: the table's life, the
 * calibration and the report stay the built-in engine's.
 */
import type { EngineInfo, Skipped } from "@protocol/stress-report";
import type { Calibration } from "./calibrate";
import type { Metrics } from "./metrics";
import type { Work } from "./workload";

/** What another engine is given: the created table, the work at its rates, the calibration, and the run's metrics to fill. */
export interface ExternalContext {
  table: string;
  work: Work[];
  skipped: Skipped[];
  calibration?: Calibration;
  metrics: Metrics;
  /** Turns the emulator's throttling on at the calibrated scale: call it when the measured load starts. */
  startThrottling(): void;
  signal?: AbortSignal;
}

/** What another engine measured, besides the metrics it filled. */
export interface ExternalOutcome {
  durationMs: number;
  pace?: { callsPerSecond: number; sent: number; dropped: number };
  notes: string[];
  engine: EngineInfo;
  /** Why the measurement cannot be judged (a worker stopped sending), when it cannot. */
  invalid?: string[];
}

/** An engine that sends the load in place of the built-in one. */
export interface ExternalLoad {
  /** Entities the built-in engine would preload: an external engine preloads its own. */
  readonly preloadsItself: true;
  run(ctx: ExternalContext): Promise<ExternalOutcome>;
}
