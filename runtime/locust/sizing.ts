/**
 * Sizing a Locust run: for a target rate, how many workers (here) or
 * engines (Azure Load Testing) it takes, from what one worker sustained in
 * a short calibration, and how many billable transactions the run makes —
 * Table Storage bills each call (a batch of up to 100 entities is one, a
 * query page is one; throttled attempts are billed too, and not counted
 * here because they depend on how hot the design runs).
 */
import type { Work } from "../stress/workload";
import { formatCount, plural } from "@core/text/words";

/** At most this many engines in one Azure Load Testing run. */
export const MAX_ENGINES = 400;

/** A worker's calls per second when no calibration ran (a Debian python3-locust worker on one core, measured here). */
export const ASSUMED_WORKER_CALLS_PER_SECOND = 400;
/** Workers are sized to run at this share of what one sustained, so a busy engine keeps the pace. */
export const WORKER_HEADROOM = 0.7;

export interface Sizing {
  /** Calls per second the run offers (all workers together). */
  targetCallsPerSecond: number;
  /** Entities per second that is (writes in batches count each entity). */
  targetEntitiesPerSecond: number;
  /** Calls per second one worker sustained in the calibration, or the assumption. */
  workerCallsPerSecond: number;
  measured: boolean;
  /** Workers (engines) the target takes at WORKER_HEADROOM of a worker's rate, at most MAX_ENGINES. */
  workers: number;
  /** Billable transactions of the whole run, before retries. */
  transactions: number;
}

/** Entities per call of a plan, averaged by weight (writes carry their batch; a read returns one page, counted as a call). */
function entitiesPerCall(work: readonly Work[]): number {
  const total = work.reduce((s, w) => s + w.weight, 0) || 1;
  return work.reduce((s, w) => s + (w.weight / total) * (w.op === "pointRead" || w.op === "query" || w.op === "scan" ? 1 : w.batch), 0);
}

/** The sizing of a run at `callsPerSecond` for `durationMs`, given one worker's measured (or assumed) rate. */
export function sizeRun(work: readonly Work[], callsPerSecond: number, durationMs: number, worker?: number): Sizing {
  const workerRate = worker && worker > 0 ? worker : ASSUMED_WORKER_CALLS_PER_SECOND;
  const workers = Math.max(1, Math.min(MAX_ENGINES, Math.ceil(callsPerSecond / (workerRate * WORKER_HEADROOM))));
  return {
    targetCallsPerSecond: round(callsPerSecond),
    targetEntitiesPerSecond: round(callsPerSecond * entitiesPerCall(work)),
    workerCallsPerSecond: round(workerRate),
    measured: worker !== undefined && worker > 0,
    workers,
    transactions: Math.round(callsPerSecond * (durationMs / 1000)),
  };
}

/** The sizing in a sentence, for the CLI and the export's README. */
export function sizingText(s: Sizing, where: "workers" | "engines"): string {
  const basis = s.measured
    ? `one worker sustained ${formatCount(s.workerCallsPerSecond)} calls/s in a short calibration`
    : `one worker is assumed to sustain ${formatCount(s.workerCallsPerSecond)} calls/s (no calibration ran)`;
  return (
    `${formatCount(s.targetCallsPerSecond)} calls/s (${formatCount(s.targetEntitiesPerSecond)} entities/s) takes ${plural(s.workers, where.replace(/s$/, ""), where)}: ` +
    `${basis}, sized at ${Math.round(WORKER_HEADROOM * 100)} % of it. The run makes about ${formatCount(s.transactions)} billable transactions (each call is one; retries of throttled calls add to it).`
  );
}

function round(n: number): number {
  return n >= 100 ? Math.round(n) : Math.round(n * 10) / 10;
}
