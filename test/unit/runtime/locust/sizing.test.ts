/**
 * Sizing a Locust run: workers (engines) for a target rate at 70 % of what
 * one worker sustained, never more than Azure Load Testing's 400 engines,
 * and the run's billable transactions (a call is one, whatever its batch).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { sizeRun, sizingText } from "@runtime/locust/sizing";
import type { Work } from "@runtime/stress/workload";

const work: Work[] = [
  { op: "insert", weight: 75, batch: 4, source: "Write" },
  { op: "query", weight: 25, batch: 1, source: "Read" },
];

test("workers for a rate come from one worker's calibrated rate, with headroom; transactions are calls", () => {
  const s = sizeRun(work, 1000, 60_000, 300);
  assert.deepEqual(s, {
    targetCallsPerSecond: 1000,
    targetEntitiesPerSecond: 3250,
    workerCallsPerSecond: 300,
    measured: true,
    workers: 5,
    transactions: 60_000,
  });
  assert.equal(
    sizingText(s, "engines"),
    "1,000 calls/s (3,250 entities/s) takes 5 engines: one worker sustained 300 calls/s in a short calibration, sized at 70 % of it. The run makes about 60,000 billable transactions (each call is one; retries of throttled calls add to it).",
  );
});

test("without a calibration a worker's rate is assumed and said so; the engines stop at 400", () => {
  const s = sizeRun(work, 1_000_000, 1000);
  assert.equal(s.measured, false);
  assert.equal(s.workers, 400);
  assert.match(sizingText(s, "workers"), /takes 400 workers: one worker is assumed to sustain 400 calls\/s \(no calibration ran\)/);
  assert.equal(sizeRun(work, 10, 1000, 300).workers, 1);
});
