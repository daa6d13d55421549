/**
 * The stress report's cost line (protocol/run-cost.ts): the requests Table
 * Storage bills for a run, and a design run's rates for a month — divided
 * by the scale an emulator ran the design at, so the month is the design's.
 * The figures are docs/cost.md's: 2,000 single inserts a second cost
 * $189.22 a month on Table Storage.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { SNAPSHOT } from "@core";
import { Metrics } from "@runtime/stress/metrics";
import { buildReport } from "@runtime/stress/report";
import { dollars, runCost } from "@protocol/run-cost";

/** A run of `calls` inserts in one second, `retried` of them retried once, `failed` more refused with 503. */
function run(calls: number, o: { retried?: number; failed?: number; scale?: number; mode?: "design" | "spread" } = {}) {
  const metrics = new Metrics(0);
  for (let i = 0; i < calls; i++) metrics.success("insert", `p${i % 10}`, 1, 2, (i * 1000) / calls);
  for (let i = 0; i < (o.retried ?? 0); i++) metrics.retry("insert");
  for (let i = 0; i < (o.failed ?? 0); i++) metrics.failure("insert", 503, "ServerBusy", 900);
  const report = buildReport({
    metrics,
    durationMs: 1000,
    target: "emulator",
    table: "stress0123456789",
    design: { file: "events.tdl", table: "Events" },
    mode: o.mode ?? "design",
    concurrency: 4,
    partitionTarget: 2000,
  });
  if (o.scale !== undefined)
    report.calibration = {
      scale: o.scale,
      partitionTargetEntitiesPerSecond: 2000 * o.scale,
      accountTargetEntitiesPerSecond: 20000 * o.scale,
      azure: { partitionTargetEntitiesPerSecond: 2000, accountTargetEntitiesPerSecond: 20000 },
      throttled: true,
      note: "",
    };
  return report;
}

test("a design's run at Azure's scale: 2,000 inserts a second cost docs/cost.md's $189.22 a month", () => {
  const c = runCost(run(2000), SNAPSHOT);
  assert.equal(c.requests, 2000);
  assert.equal(dollars(c.monthUsd!), "$189.22");
  // The run itself: 2,000 × $0.00036 / 10,000 = $0.000072, below what the line writes in digits.
  assert.ok(Math.abs(c.usd - 0.000072) < 1e-12, String(c.usd));
  assert.equal(dollars(c.usd), "under $0.0001");
});

test("on the emulator at a tenth of Azure's scale, the month is the design's rate: the run's ÷ 0.1", () => {
  // 200 calls in a second at scale 0.1 stand for the design's 2,000 a second.
  assert.equal(dollars(runCost(run(200, { scale: 0.1 }), SNAPSHOT).monthUsd!), "$189.22");
});

test("retries and refused requests are billed; a run that is not the design's patterns has no month", () => {
  const c = runCost(run(1000, { retried: 300, failed: 200, mode: "spread" }), SNAPSHOT);
  assert.equal(c.requests, 1500);
  assert.equal(c.monthUsd, undefined);
  // 1,500 × $0.00036 / 10,000 = $0.000054.
  assert.equal(dollars(c.usd), "under $0.0001");
  assert.equal(dollars(runCost(run(30_000, { mode: "spread" }), SNAPSHOT).usd), "$0.0011");
});
