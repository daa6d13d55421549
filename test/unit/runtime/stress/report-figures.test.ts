/**
 * A design run's figures in the report's vocabulary (core/text/figures.ts):
 * each pattern's planned, offered, sent, served and throttled rates, from
 * the calls the run counted; and its cost line, whose monthly figure is the
 * design's declared load as `tdl cost` prices it, not the run's rate.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl, designCost, SNAPSHOT } from "@core";
import { dollars } from "@core/text/words";
import { Metrics } from "@runtime/stress/metrics";
import { buildReport, declaredCost } from "@runtime/stress/report";
import { figureRows } from "@protocol/run-figures";
import { runCostLine } from "@protocol/run-cost";
import type { Work } from "@runtime/stress/workload";

const LEDGER = readFileSync("examples/ledger.tdl", "utf8");

/** A 10 s design run at scale 0.5: Transfer planned at 300 calls/s (offered 150), 40 calls sent, 30 served, 12 throttled answers. */
function ledgerRun() {
  const metrics = new Metrics(0);
  for (let i = 0; i < 30; i++) {
    metrics.success("transaction", `a${i % 3}`, 2, 4, i * 300);
    metrics.called("Transfer", true);
  }
  for (let i = 0; i < 10; i++) {
    metrics.failure("transaction", 503, "ServerBusy", 9000);
    metrics.called("Transfer", false);
  }
  for (let i = 0; i < 12; i++) metrics.throttledCall("Transfer");
  const work: Work[] = [{ op: "transaction", weight: 300, planned: 300, batch: 2, source: "Transfer" }];
  return buildReport({
    metrics,
    durationMs: 10_000,
    target: "emulator",
    table: "stress0123456789",
    design: { file: "examples/ledger.tdl", table: "Ledger" },
    mode: "design",
    concurrency: 4,
    partitionTarget: 1000,
    work,
    calibration: {
      scale: 0.5,
      partitionTargetEntitiesPerSecond: 1000,
      accountTargetEntitiesPerSecond: 10_000,
      azure: { partitionTargetEntitiesPerSecond: 2000, accountTargetEntitiesPerSecond: 20_000 },
      throttled: true,
    },
    cost: declaredCost(analyzeTdl(LEDGER), "Ledger"),
  });
}

test("one row per pattern puts planned, offered, sent, served and throttled side by side", () => {
  const rows = figureRows(ledgerRun());
  assert.equal(rows.length, 1);
  assert.deepEqual(rows[0].figures, { planned: 300, offered: 150, sent: 4, served: 3, throttled: 1.2 });
  assert.equal(rows[0].pattern.throttled, 12);
});

test("the cost line prices the design's declared load with tdl cost's function, and the run's own bill apart", () => {
  const report = ledgerRun();
  const priced = designCost(analyzeTdl(LEDGER), { prices: SNAPSHOT, table: "Ledger", services: ["azure-table"] })[0].estimates[0];
  assert.equal(report.cost?.designMonthlyUsd, priced.monthlyUsd);
  const line = runCostLine(report, SNAPSHOT);
  assert.ok(
    line.startsWith(
      `The design's declared load (table Ledger) costs ≈ ${dollars(priced.monthlyUsd!)} a month on Table Storage, as tdl cost prices it`,
    ),
    line,
  );
  // 30 answered + 10 refused with 503 are billed: the run's bill, not a month at its throttled rate.
  assert.match(line, / This run billed 40 requests ≈ under \$0\.0001 /);
});

test("a run measured without per-pattern 503 counts says so: throttled is left out, not zero", () => {
  const metrics = new Metrics(0);
  metrics.calledTimes("Transfer", 10, 0);
  const report = buildReport({
    metrics,
    durationMs: 1000,
    target: "emulator",
    table: "stress0123456789",
    design: { file: "examples/ledger.tdl", table: "Ledger" },
    mode: "design",
    concurrency: 4,
    partitionTarget: 1000,
    work: [{ op: "transaction", weight: 300, batch: 2, source: "Transfer" }],
    engine: { name: "locust", workers: 2, records: 2, skippedLines: 0 },
  });
  assert.equal(figureRows(report)[0].figures.throttled, undefined);
  assert.equal(figureRows(report)[0].figures.sent, 10);
});
