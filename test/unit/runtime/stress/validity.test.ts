/**
 * A run that did not carry its load is judged INVALID, never OK: the
 * service stalled (whole seconds with nothing served and nothing failed
 * while a closed or busy paced load should have kept it busy), or the
 * engine says a worker stopped. A run that is merely slow, a short hiccup,
 * and a sparse design pace stay judged as before.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Metrics } from "@runtime/stress/metrics";
import { buildReport } from "@runtime/stress/report";
import type { StressMode } from "@protocol/stress-report";

/** A 20-second run whose seconds in `served` each served 10 entities (and `failedAt` each failed once). */
function run(o: { served: number[]; failedAt?: number[]; mode?: StressMode; pace?: number; invalid?: string[]; durationMs?: number }) {
  const metrics = new Metrics(0);
  for (const s of o.served) for (let i = 0; i < 10; i++) metrics.success("insert", `p${i}`, 1, 5, s * 1000 + i * 50);
  for (const s of o.failedAt ?? []) metrics.failure("insert", 500, "InternalError", s * 1000 + 10);
  return buildReport({
    metrics,
    durationMs: o.durationMs ?? 20_000,
    target: "emulator",
    table: "stress0123456789",
    design: { file: "shop.tdl", table: "Orders" },
    mode: o.mode ?? "spread",
    concurrency: 8,
    partitionTarget: 2000,
    ...(o.pace !== undefined ? { pace: { callsPerSecond: o.pace, sent: 0, dropped: 0 } } : {}),
    ...(o.invalid ? { invalid: o.invalid } : {}),
  }).verdict;
}

const seconds = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

test("a stall of 17 of a 20-second run's seconds, to its end, is INVALID with the count and the longest stall", () => {
  const v = run({ served: seconds(0, 3) });
  assert.equal(
    v.headline,
    "INVALID: the service served nothing in 17 of the run's 20 seconds (the longest stall 17 s), so the run did not carry the design's load; nothing to judge the design by: run it again",
  );
  assert.equal(
    v.invalid,
    "The service served nothing in 17 of the run's 20 seconds (the longest stall 17 s), so the run did not carry the design's load.",
  );
  assert.match(v.note, /^Invalid run: The service served nothing in 17 of/);
});

test("a 6-second stall in the middle is INVALID; seconds that only failed are answers, not a stall", () => {
  assert.match(
    run({ served: [...seconds(0, 7), ...seconds(13, 20)] }).headline,
    /^INVALID: .* nothing in 6 of the run's 20 seconds \(the longest stall 6 s\)/,
  );
  const answered = run({ served: seconds(0, 7), failedAt: seconds(7, 20) });
  assert.equal(answered.invalid, undefined);
  assert.match(answered.headline, /^OK: /);
});

test("a hiccup of 2 seconds, and the drain's empty seconds at the end, leave the verdict as it was", () => {
  assert.equal(run({ served: [...seconds(0, 9), ...seconds(11, 20)] }).invalid, undefined);
  assert.equal(run({ served: seconds(0, 18), durationMs: 20_000 }).invalid, undefined);
});

test("a paced design slower than 2 calls a second may leave seconds empty; a busier one may not", () => {
  assert.equal(run({ served: [0, 5, 10, 15], mode: "design", pace: 0.25 }).invalid, undefined);
  assert.match(run({ served: [0, 5, 10, 15], mode: "design", pace: 20 }).headline, /^INVALID: /);
});

test("the engine's own reasons (a stopped worker) make the run INVALID, however full its seconds", () => {
  const v = run({
    served: seconds(0, 20),
    invalid: ["Locust worker vm-7 stopped sending after second 4 of 20 (its records end without the end of its run)"],
  });
  assert.equal(
    v.headline,
    "INVALID: Locust worker vm-7 stopped sending after second 4 of 20 (its records end without the end of its run); nothing to judge the design by: run it again",
  );
});
