/**
 * A stress test's options in four named parts — where the load goes
 * (target), what it sends (plan), how long anything may take (limits) and
 * who is told what happens (hooks) — and the one builder that turns what a
 * user asked for into them. `tdl stress` and the VS Code command both call
 * `buildStressJob`, so every default is chosen here and nowhere else, and
 * the engine (engine.ts) never restates one.
 */
import type { AnalysisOptions } from "@core";
import type { ConnectionInfo, StressMode } from "@protocol";
import type { Secret } from "../account/secret";
import { isLoopback } from "../account/connection-string";
import type { ThrottleControl } from "../emulator/fidelity-emulator";
import type { Calibration } from "./calibrate";
import type { DeleteWait } from "./lifecycle";
import type { StressPhase } from "./phases";

/** What `tdl stress` and the VS Code command both run with unless told otherwise, so their figures compare. */
export const STRESS_DEFAULTS = { concurrency: 16, preload: 200 } as const;

/** Where the load goes, and what the user agreed to. */
export interface StressTarget {
  connection: ConnectionInfo;
  secret: Secret;
  /** The embedded or a local emulator (loopback): no confirmation needed. Resolved from the endpoint when not given. */
  emulator: boolean;
  /** Explicit consent to load a real account (`--yes-real-account`, or the VS Code modal). */
  confirmedRealAccount: boolean;
  /** The emulator's fidelity layer, when the run may rescale its throttling (emulators only). */
  throttle?: ThrottleControl;
  /** How the user removes a table left behind (the CLI names its exact command line). */
  cleanupHint?: string;
  /** Extra pipeline policy (tests inject faults with it). */
  clientOptions?: { additionalPolicies?: unknown[] };
}

/** What the run sends, and how its figures are judged. */
export interface StressPlan {
  design: { text: string; file: string; table: string };
  /** How the design is analysed (the profile when it declares no service, the partition target): the same options as everywhere else. */
  analysis?: AnalysisOptions;
  mode: StressMode;
  /** How long the load runs, already bounded by `limits.maxDurationMs`. */
  durationMs: number;
  concurrency: number;
  /** Shares of writes and point reads (single-partition and spread modes). */
  mix?: { read: number; write: number };
  /** Inserts per batch (entity group transaction); the design's `batch` in design mode. */
  batch?: number;
  /** Design mode: multiply the design's rates by this (on an emulator, on top of the calibrated scale). */
  scale?: number;
  /** Single-partition and spread modes: calls per second in all, as an open load (without it, every worker sends as fast as it is answered). */
  rate?: number;
  /** Entities written before the load starts, for reads (none is written when the load reads nothing back). */
  preload: number;
  /** Keep the table afterwards (`--keep-table`). */
  keepTable: boolean;
  /** Per-partition target; the profile's when omitted. */
  partitionTarget?: number;
  /** A calibration to reuse (the second design of a comparison is judged at the first one's scale). */
  calibration?: Calibration;
  /** A scale to use instead of measuring one (`tdl stress --emulator-scale`). */
  emulatorScale?: number;
}

/** Upper bounds on every wait of a run, each with its default filled in. */
export interface StressLimits {
  /** The longest run anyone may ask for (VS Code's `stress.maxDurationSeconds`; 300 s). */
  maxDurationMs: number;
  /** One request (10 s). */
  requestTimeoutMs: number;
  /** How long requests in flight at the end of the run may still finish (2 s, or the request bound when shorter). */
  drainMs: number;
  /** The preload phase (60 s); the run then reads what was loaded. */
  preloadMs: number;
  /** The run fails when the endpoint gives no answer at all for this long (5 s). */
  outageMs: number;
  /** How long deletion keeps trying while the endpoint is down or stalls (60 s: a 40 s stall still ends with the table deleted). */
  deleteWithinMs: number;
  /** Deletion's bound once the user will not wait (a second Ctrl+C; 10 s). */
  hurryDeleteMs: number;
  /** The calibration probe's measured length (1 s). */
  calibrateMs: number;
}

/** Who is told what happens, and who may stop it. */
export interface StressHooks {
  /** Cancels the run in whichever phase it is; the table is still deleted. */
  signal?: AbortSignal;
  /** Aborted when the user will not wait long (a second Ctrl+C): deletion then gets at most `limits.hurryDeleteMs` more. */
  hurry?: AbortSignal;
  onProgress?: (p: { elapsedMs: number; entities: number; entitiesPerSecond: number }) => void;
  /** Each phase as it starts, with the table's name (known before it is created). */
  onPhase?: (phase: StressPhase, table: string) => void;
  /** Called once the table exists (tests use it to check the table is gone afterwards). */
  onTable?: (name: string) => void;
  /** Each failed delete attempt while deletion keeps trying (the CLI says it is still trying). */
  onDeleteWait?: (w: DeleteWait) => void;
}

/** One stress test, ready to run: every part complete. */
export interface StressJob {
  target: StressTarget;
  plan: StressPlan;
  limits: StressLimits;
  hooks: StressHooks;
}

/** What a caller asks for: the same parts, with everything that has a default left out at will. */
export interface StressRequest {
  target: Omit<StressTarget, "emulator" | "confirmedRealAccount"> & { emulator?: boolean; confirmedRealAccount?: boolean };
  plan: Omit<StressPlan, "concurrency" | "preload" | "keepTable"> & { concurrency?: number; preload?: number; keepTable?: boolean };
  limits?: Partial<StressLimits>;
  hooks?: StressHooks;
}

/** How long deletion keeps trying by default while the endpoint does not answer. */
export const DELETE_WITHIN_MS = 60_000;

/**
 * The one builder: fills every default, bounds the duration, and hands the
 * emulator's throttle on only when the target is an emulator.
 */
export function buildStressJob(r: StressRequest): StressJob {
  const requestTimeoutMs = r.limits?.requestTimeoutMs ?? 10_000;
  const limits: StressLimits = {
    maxDurationMs: r.limits?.maxDurationMs ?? 300_000,
    requestTimeoutMs,
    drainMs: r.limits?.drainMs ?? Math.min(2000, requestTimeoutMs),
    preloadMs: r.limits?.preloadMs ?? 60_000,
    outageMs: r.limits?.outageMs ?? 5000,
    deleteWithinMs: r.limits?.deleteWithinMs ?? DELETE_WITHIN_MS,
    hurryDeleteMs: r.limits?.hurryDeleteMs ?? 10_000,
    calibrateMs: r.limits?.calibrateMs ?? 1000,
  };
  const emulator = r.target.emulator ?? isLoopback(hostname(r.target.connection.endpoint));
  const { throttle, ...target } = r.target;
  return {
    target: {
      ...target,
      emulator,
      confirmedRealAccount: r.target.confirmedRealAccount ?? false,
      ...(emulator && throttle ? { throttle } : {}),
    },
    plan: {
      ...r.plan,
      durationMs: Math.min(r.plan.durationMs, limits.maxDurationMs),
      concurrency: r.plan.concurrency ?? STRESS_DEFAULTS.concurrency,
      preload: Math.max(0, Math.floor(r.plan.preload ?? STRESS_DEFAULTS.preload)),
      keepTable: r.plan.keepTable ?? false,
    },
    limits,
    hooks: r.hooks ?? {},
  };
}

/** The most requests a run keeps in flight. */
export const MAX_CONCURRENCY = 256;

/** Requests in flight at once: at least one, at most `MAX_CONCURRENCY`. */
export function concurrencyOf(p: Pick<StressPlan, "concurrency">): number {
  return Math.max(1, Math.min(MAX_CONCURRENCY, Math.floor(p.concurrency)));
}

/** The host name of an endpoint, or "" when it is not a URL. */
export function hostname(endpoint: string): string {
  try {
    return new URL(endpoint).hostname;
  } catch {
    return "";
  }
}
