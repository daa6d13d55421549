/**
 * A stress table's life: created and marked first thing, deleted last
 * thing. Creation may be cancelled at any moment (the caller then still
 * tries to delete: an aborted create may have reached the service).
 * Deletion keeps trying with back-off for a bounded time, so an endpoint
 * that is briefly gone does not leave the table behind; when it gives up it
 * says why, in words.
 */
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { describeError } from "../account/errors";
import type { PhaseBound } from "./bound";
import { sleep, withDeadline } from "../net/deadline";
import { markerEntity } from "./marker";
import { ErrorLike, errorCode, STRESS_BACKOFF, withRetries } from "../net/retry";

/** The random name is already taken by a table that is not ours: it must not be touched. */
export class TableTaken extends Error {}

/** Network failures that mean the request never left this machine or was never accepted: the service cannot have acted on it. */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * Whether a failed create may still have made the table: no answer (a
 * timeout, a cancel, a dropped connection) or an answer that says the
 * outcome is unknown (500 OperationTimedOut, 504). Any other answer is the
 * service's refusal, and a refused connection never reached it.
 */
function outcomeUnknown(e: unknown): boolean {
  const err = e as ErrorLike & { cause?: { code?: string } };
  if (err?.statusCode !== undefined) return err.statusCode === 500 || err.statusCode === 504;
  return !NEVER_SENT.has(err?.code ?? "") && !NEVER_SENT.has(err?.cause?.code ?? "");
}

/**
 * Creates `table` and writes its marker, each request within the phase's
 * `bound` (its signal cancels). `state.mayExist` becomes true once the table exists
 * or a create's outcome is unknown (so the caller deletes even after a
 * cancelled or timed-out create, and does not when every attempt was
 * refused). A 409 on the first attempt means someone else's table
 * (never deleted); on a later attempt it is our own earlier attempt that
 * reached the service before its answer was lost.
 */
export async function createMarkedTable(
  service: TableServiceClient,
  client: TableClient,
  table: string,
  design: string,
  bound: PhaseBound,
  state: { mayExist: boolean },
): Promise<void> {
  let attempt = 0;
  await withRetries(
    async () => {
      const first = attempt++ === 0;
      try {
        await bound.request((abortSignal) =>
          service.createTable(table, {
            abortSignal,
            onResponse: (res) => {
              if (res.status === 409 && first)
                throw new TableTaken(`a table named ${table} already exists and is not this run's: it was left alone`);
            },
          }),
        );
        state.mayExist = true;
      } catch (e) {
        if (!(e instanceof TableTaken) && outcomeUnknown(e)) state.mayExist = true;
        throw e;
      }
    },
    STRESS_BACKOFF,
    () => undefined,
    bound.signal,
  );
  // Upsert: a retried write whose first attempt landed must not fail with 409.
  await withRetries(
    () => bound.request((abortSignal) => client.upsertEntity(markerEntity(design), "Replace", { abortSignal })),
    STRESS_BACKOFF,
    () => undefined,
    bound.signal,
  );
}

/** How long deletion may keep trying; `until` (a `performance.now()` time) may be moved closer while it runs. */
export interface DeleteBudget {
  until: number;
}

export interface DeleteOutcome {
  deleted: boolean;
  attempts: number;
  /** Why it failed, in words (no secret): set when not deleted. */
  reason?: string;
}

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 4000;
/**
 * One delete request waits at most this long: a request sent into a stall
 * must not hold the whole budget, so a new attempt goes out within seconds
 * of the endpoint coming back.
 */
const ATTEMPT_MS = 5000;

/** A failed attempt, as it happens: the caller tells the user it is still trying. */
export interface DeleteWait {
  attempts: number;
  elapsedMs: number;
  /** How long deletion may still keep trying, from the start. */
  boundMs: number;
  reason: string;
}

/**
 * Deletes `table`, retrying connection failures, timeouts and 5xx with a
 * doubling delay until `budget.until`. "Not found" counts as deleted;
 * a refusal (403, 400) is not retried, since waiting will not change it.
 */
export async function deleteWithBackoff(
  service: TableServiceClient,
  table: string,
  endpoint: string,
  budget: DeleteBudget,
  requestTimeoutMs: number,
  onWait?: (w: DeleteWait) => void,
): Promise<DeleteOutcome> {
  let delay = FIRST_DELAY_MS;
  let attempts = 0;
  let last: unknown;
  let lastTimeout = requestTimeoutMs;
  const started = performance.now();
  for (;;) {
    const remaining = budget.until - performance.now();
    if (remaining <= 0 && attempts > 0) break;
    attempts++;
    lastTimeout = Math.max(250, Math.min(requestTimeoutMs, ATTEMPT_MS, remaining));
    try {
      await withDeadline(undefined, lastTimeout, (abortSignal) => service.deleteTable(table, { abortSignal }));
      return { deleted: true, attempts };
    } catch (e) {
      const err = e as ErrorLike;
      if (err.statusCode === 404 || errorCode(err) === "TableBeingDeleted") return { deleted: true, attempts };
      last = e;
      if (err.statusCode !== undefined && err.statusCode < 500 && err.statusCode !== 408 && err.statusCode !== 429) break;
      onWait?.({
        attempts,
        elapsedMs: performance.now() - started,
        boundMs: budget.until - started,
        reason: describeError(e, endpoint, lastTimeout).message,
      });
    }
    await sleep(Math.min(delay, budget.until - performance.now()));
    delay = Math.min(MAX_DELAY_MS, delay * 2);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const reason = describeError(last, endpoint, lastTimeout).message;
  return {
    deleted: false,
    attempts,
    reason: `deleting it failed ${attempts === 1 ? "once" : `${attempts} times over ${seconds} s`} (${reason})`,
  };
}
