/**
 * What one stress run knows as it goes, passed from phase to phase
 * (engine.ts) and read by the ending (ending.ts): the job, the checked
 * design and its work, the clients, the table, and what each phase found.
 */
import type { TableClient, TableServiceClient } from "@azure/data-tables";
import type { ReportCost, Skipped } from "@protocol/stress-report";
import type { ThrottleControl } from "../emulator/fidelity-emulator";
import type { Calibration } from "./calibrate";
import type { ExternalLoad, ExternalOutcome } from "./external";
import type { StressJob } from "./job";
import type { Metrics } from "./metrics";
import type { CallContext } from "./operations";
import type { StressPhase } from "./phases";
import type { RunClock } from "./run-phase";
import type { Work } from "./workload";

/** A run in progress. */
export interface RunState {
  readonly job: StressJob;
  readonly external?: ExternalLoad;
  readonly context: CallContext;
  readonly work: Work[];
  readonly skipped: Skipped[];
  /** Azure's targets for the design's service (the calibration scales them on an emulator). */
  readonly azure: Calibration["azure"];
  /** The emulator's throttle: only on an emulator. */
  readonly throttle?: ThrottleControl;
  readonly host: string;
  readonly service: TableServiceClient;
  readonly client: TableClient;
  readonly table: string;
  readonly metrics: Metrics;
  readonly clock: RunClock;
  readonly notes: string[];
  /** Entities the preload is to write (0 when the load reads nothing back, or another engine preloads). */
  readonly wanted: number;
  /** Whether the table may exist: deletion is tried whenever it may. */
  readonly created: { mayExist: boolean };
  phase: StressPhase;
  loaded: number;
  calibration?: Calibration;
  outcome?: ExternalOutcome;
  /** Design mode: the design's declared load as `tdl cost` prices it. */
  readonly cost?: ReportCost;
}

/** A phase that threw (an abort after the user cancelled is no failure). */
export interface PhaseFailure {
  phase: StressPhase;
  error: unknown;
}
