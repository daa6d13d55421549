/**
 * Stress jobs for the tests that run the engine: the options written side
 * by side, as a test changes one or two of them, sorted into the job's
 * parts and completed by the one builder the CLI and VS Code call.
 */
import type { StressReport } from "@protocol/stress-report";
import { buildStressJob, runStress, type StressHooks, type StressJob, type StressLimits, type StressRequest } from "@runtime/stress/engine";

/** Every option a test may set, in one flat object. */
export type FlatStress = StressRequest["target"] & StressRequest["plan"] & Partial<StressLimits> & StressHooks;

type Part = "target" | "plan" | "limits" | "hooks";

/** Which part each option belongs to: every option is listed (the compiler checks), so none is dropped on the way. */
const PART: Record<keyof FlatStress, Part> = {
  connection: "target",
  secret: "target",
  emulator: "target",
  confirmedRealAccount: "target",
  throttle: "target",
  cleanupHint: "target",
  clientOptions: "target",
  design: "plan",
  analysis: "plan",
  mode: "plan",
  durationMs: "plan",
  concurrency: "plan",
  mix: "plan",
  batch: "plan",
  scale: "plan",
  rate: "plan",
  preload: "plan",
  keepTable: "plan",
  partitionTarget: "plan",
  calibration: "plan",
  emulatorScale: "plan",
  maxDurationMs: "limits",
  requestTimeoutMs: "limits",
  drainMs: "limits",
  preloadMs: "limits",
  outageMs: "limits",
  deleteWithinMs: "limits",
  hurryDeleteMs: "limits",
  calibrateMs: "limits",
  signal: "hooks",
  hurry: "hooks",
  onProgress: "hooks",
  onPhase: "hooks",
  onTable: "hooks",
  onDeleteWait: "hooks",
};

/** The job of a flat set of options. */
export function jobOf(flat: FlatStress): StressJob {
  const parts: Record<Part, Record<string, unknown>> = { target: {}, plan: {}, limits: {}, hooks: {} };
  for (const [k, v] of Object.entries(flat)) if (v !== undefined) parts[PART[k as keyof FlatStress]][k] = v;
  return buildStressJob(parts as unknown as StressRequest);
}

/** Runs the built-in engine with a flat set of options. */
export function runStressWith(flat: FlatStress): Promise<StressReport> {
  return runStress(jobOf(flat));
}
