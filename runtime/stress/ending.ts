/**
 * How a stress run ends (engine.ts's last phases): the table deleted within
 * its budget, the report with its notes and its "stopped" sentence, and the
 * failure thrown with what became of the table.
 */
import type { Leftover, StressReport } from "@protocol/stress-report";
import { toAccountError } from "../account/errors";
import { concurrencyOf } from "./job";
import { deleteWithBackoff, TableTaken } from "./lifecycle";
import type { Metrics } from "./metrics";
import { DEFAULT_CLEANUP_HINT, leftoverMessage, PHASE_WORDS, StressFailure, StressInputError, type StressPhase } from "./phases";
import { buildReport } from "./report";
import { EndpointSilent } from "./run-phase";
import type { PhaseFailure, RunState } from "./state";
import { formatCount } from "@core/text/words";

/** What deletion came to: `leftover` when the table remains, `afterMs` when it took more than one attempt (the endpoint came back). */
export interface Deletion {
  leftover?: Leftover;
  afterMs?: number;
}

/**
 * Deletes the table within its budget; a second Ctrl+C (`hurry`) shortens
 * the budget to `hurryDeleteMs` from then.
 */
export async function deletePhase(run: RunState, enter: () => void): Promise<Deletion> {
  const { target, limits, hooks } = run.job;
  enter();
  const t0 = performance.now();
  const budget = { until: t0 + limits.deleteWithinMs };
  const hurry = () => {
    budget.until = Math.min(budget.until, performance.now() + limits.hurryDeleteMs);
  };
  if (hooks.hurry?.aborted) hurry();
  else hooks.hurry?.addEventListener("abort", hurry, { once: true });
  try {
    const endpoint = target.connection.endpoint;
    const outcome = await deleteWithBackoff(run.service, run.table, endpoint, budget, limits.requestTimeoutMs, hooks.onDeleteWait);
    if (!outcome.deleted) return { leftover: { table: run.table, host: run.host, reason: outcome.reason ?? "deleting it failed" } };
    return outcome.attempts > 1 ? { afterMs: performance.now() - t0 } : {};
  } finally {
    hooks.hurry?.removeEventListener("abort", hurry);
  }
}

/** The report of a run that has ended: its figures, notes and, when it did not finish cleanly, why it stopped. */
export function reportOf(
  run: RunState,
  failure: PhaseFailure | undefined,
  cancelledIn: StressPhase | undefined,
  deletion: Deletion | undefined,
): StressReport {
  const { target, plan, limits } = run.job;
  const { clock, outcome, notes } = run;
  const runMs = outcome ? outcome.durationMs : clock.startedAt === undefined ? 0 : (clock.endedAt ?? performance.now()) - clock.startedAt;
  notes.push(...(outcome?.notes ?? []));
  if (clock.startedAt !== undefined && !cancelledIn && runMs > plan.durationMs + Math.max(250, plan.durationMs * 0.02))
    notes.push(overrunNote(runMs, plan.durationMs, run.metrics, limits.drainMs, limits.requestTimeoutMs));
  const pacer = clock.pacer;
  if (pacer && pacer.counts.dropped > Math.max(5, 0.1 * (pacer.counts.sent + pacer.counts.dropped))) {
    notes.push(
      `This machine could not keep the design's pace: ${formatCount(pacer.counts.dropped)} of ${formatCount(pacer.counts.sent + pacer.counts.dropped)} calls could not start on time (every worker was busy), so the load was lighter than the design's.`,
    );
  }
  const leftover = deletion?.leftover;
  const stopped = failure ? failedWhile(run, failure) : cancelledIn && cancelledSentence(run, cancelledIn);
  return buildReport({
    metrics: run.metrics,
    durationMs: runMs,
    target: target.emulator ? "emulator" : "account",
    table: run.table,
    design: { file: plan.design.file, table: plan.design.table },
    mode: plan.mode,
    concurrency: concurrencyOf(plan),
    partitionTarget: run.calibration?.partitionTargetEntitiesPerSecond ?? run.azure.partitionTargetEntitiesPerSecond,
    notes,
    stopped: stopped || leftover ? `${stopped ?? "finished"}${leftoverClause(run, leftover)}` : undefined,
    leftover,
    calibration: run.calibration,
    work: run.work,
    skipped: run.skipped,
    pace: pacer ? { callsPerSecond: Math.round(pacer.perSecond * 100) / 100, ...pacer.counts } : outcome?.pace,
    ...(outcome ? { engine: outcome.engine } : {}),
    ...(run.cost ? { cost: run.cost } : {}),
  });
}

/** The phases a cancel has its own words for; any later one is just "cancelled". */
const CANCELLED_WHILE: Partial<Record<StressPhase, (run: RunState) => string>> = {
  create: () => "cancelled while creating the table",
  calibrate: () => "cancelled while calibrating the emulator",
  preload: (run) => `cancelled while loading entities (${formatCount(run.loaded)} of ${formatCount(run.wanted)})`,
};

function cancelledSentence(run: RunState, phase: StressPhase): string {
  return CANCELLED_WHILE[phase]?.(run) ?? "cancelled";
}

/** "failed while creating the table at HOST: why". */
function failedWhile(run: RunState, failure: PhaseFailure): string {
  const { connection } = run.job.target;
  return `failed while ${PHASE_WORDS[failure.phase]} at ${run.host}: ${reason(failure.error, connection.endpoint, run.job.limits.requestTimeoutMs)}`;
}

function leftoverClause(run: RunState, leftover: Leftover | undefined): string {
  return leftover ? `; ${leftoverMessage(leftover, run.job.target.cleanupHint ?? DEFAULT_CLEANUP_HINT)}` : "";
}

/**
 * The report, or the `StressFailure` that carries it: a failed phase
 * (with what became of the table, so the user knows whether anything is
 * left to clean up) or a table left behind.
 */
export function settle(
  run: RunState,
  report: StressReport,
  failure: PhaseFailure | undefined,
  deletion: Deletion | undefined,
): StressReport {
  const leftover = deletion?.leftover;
  if (failure)
    throw new StressFailure(
      `the stress test ${failedWhile(run, failure)}${tableFate(run, failure, deletion)}${leftoverClause(run, leftover)}`,
      report,
      failure.phase,
      leftover,
    );
  if (leftover)
    throw new StressFailure(leftoverMessage(leftover, run.job.target.cleanupHint ?? DEFAULT_CLEANUP_HINT), report, "delete", leftover);
  return report;
}

/** What became of the table after a failure. */
function tableFate(run: RunState, failure: PhaseFailure, deletion: Deletion | undefined): string {
  if (deletion?.afterMs !== undefined)
    return `; the table ${run.table} was deleted once ${run.host} answered again (after ${(deletion.afterMs / 1000).toFixed(1)} s)`;
  if (deletion && !deletion.leftover) return `; the table ${run.table} was deleted`;
  if (!run.created.mayExist && !(failure.error instanceof TableTaken)) return "; no table was created";
  return "";
}

/** The report says so when the run phase took longer than asked, and why. */
function overrunNote(runMs: number, askedMs: number, metrics: Metrics, drainMs: number, requestTimeoutMs: number): string {
  const timeouts = Object.values(metrics.ops).reduce((n, s) => n + (s.errorCodes.RequestTimeout ?? 0), 0);
  return (
    `The run took ${(runMs / 1000).toFixed(1)} s, longer than the ${(askedMs / 1000).toFixed(1)} s asked: requests still in flight at the end were given up to ${(drainMs / 1000).toFixed(1)} s` +
    (timeouts ? `, and ${timeouts} got no answer within ${(requestTimeoutMs / 1000).toFixed(1)} s (the endpoint stalled).` : ".")
  );
}

/** A failure in words: the account module's description, plus how long the endpoint was silent. */
function reason(e: unknown, endpoint: string, timeoutMs: number): string {
  if (e instanceof EndpointSilent) return `${toAccountError(e.last, endpoint, timeoutMs).message} (${e.message})`;
  if (e instanceof TableTaken || e instanceof StressInputError) return e.message;
  return toAccountError(e, endpoint, timeoutMs).message;
}
