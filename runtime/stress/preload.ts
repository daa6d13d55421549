/**
 * The preload: entities written before the load starts, keyed as the mode
 * keys its writes (with the design's index rows), so the first reads find
 * something. Upserts, so a retried write whose first attempt landed does
 * not fail. Every request carries the run's cancellation and its own
 * timeout.
 */
import type { TableClient } from "@azure/data-tables";
import type { NarrowBound } from "./bound";
import type { Metrics } from "./metrics";
import { CallContext, prepare } from "./operations";
import { STRESS_BACKOFF, withRetries } from "../net/retry";

/** Preload requests in flight at once. */
const PRELOAD_CONCURRENCY = 32;

/**
 * Writes up to `count` entities within `bound`. Stops early, without error, when its signal
 * aborts (cancelled, or the phase's time is up); returns how many were
 * written. Only written entities join the pool; they also set where the
 * ends of the key order are (`metrics`), without counting as load.
 */
export async function preload(
  client: TableClient,
  context: CallContext,
  metrics: Metrics,
  count: number,
  bound: NarrowBound,
): Promise<number> {
  const signal = bound.signal;
  let written = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  for (let i = 0; i < count && !signal.aborted && failure === undefined; i++) {
    const call = prepare({ op: "insert", weight: 1, batch: 1, write: "upsert" }, context);
    const p = withRetries(
      () => bound.request((abortSignal) => call.run(client, abortSignal)),
      STRESS_BACKOFF,
      () => undefined,
      signal,
    )
      .then(
        () => {
          written++;
          for (const w of call.written ?? []) {
            context.pool.add(w);
            metrics.inserted(w.pk, 1, false);
          }
        },
        (e: unknown) => {
          if (!signal.aborted) failure ??= e;
        },
      )
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    // A sliding window: one slow request does not hold the others back.
    if (inFlight.size >= PRELOAD_CONCURRENCY) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return written;
}
