/**
 * A phase's time bounds (runtime/stress/bound.ts): every request of a phase
 * gets the phase's cancel and one request's timeout; a narrowed bound (the
 * preload's time limit, the run's stop) ends its own requests without
 * cancelling the run, and leaves no listener on the run's signal.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { narrowed, phaseBound } from "@runtime/stress/bound";
import { RequestTimeout } from "@runtime/net/deadline";

const never = () => new Promise<never>(() => undefined);

test("a phase's request times out at the job's request bound, and aborts when the run is cancelled", { timeout: 10_000 }, async () => {
  const run = new AbortController();
  const bound = phaseBound(run.signal, 40);
  assert.equal(await bound.request(async () => "answered"), "answered");
  await assert.rejects(bound.request(never), (e: unknown) => e instanceof RequestTimeout && e.timeoutMs === 40);
  const pending = bound.request(never);
  run.abort();
  await assert.rejects(pending, (e: Error) => e.name === "AbortError");
});

test("a narrowed bound ends at its time limit or when cut, and the run goes on", { timeout: 10_000 }, async () => {
  const run = new AbortController();
  const bound = phaseBound(run.signal, 60_000);
  const timed = narrowed(bound, 30);
  const t0 = performance.now();
  await assert.rejects(timed.request(never), (e: Error) => e.name === "AbortError");
  assert.ok(performance.now() - t0 < 5000);
  assert.equal(timed.signal.aborted, true);
  assert.equal(run.signal.aborted, false, "the preload's limit does not cancel the run");
  timed.dispose();

  const stop = narrowed(bound);
  const pending = stop.request(never);
  stop.cut();
  await assert.rejects(pending, (e: Error) => e.name === "AbortError");
  assert.equal(run.signal.aborted, false, "the run's stop does not cancel the run");
  stop.dispose();
  assert.equal(getEventListeners(run.signal, "abort").length, 0, "disposed bounds leave no listener on the run's signal");

  const late = narrowed(bound);
  run.abort();
  assert.equal(late.signal.aborted, true, "a cancelled run ends every narrowed bound");
  late.dispose();
});
