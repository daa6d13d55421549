/**
 * The heatmap from logs against traffic whose truth is known: a stress run
 * against the embedded emulator, recorded by the fidelity layer as
 * StorageTableLogs rows (`--record-format storage-table-logs`), read back
 * by the same code as `tdl heatmap --logs`. Per partition, the entities the
 * logs count equal the stress report's within 1 % (rounded up to a whole
 * entity): reads, single writes and batches (whose operations are rows of
 * their own, joined by their CorrelationId), throttled ones marked.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { type FlatStress, runStressWith } from "../helpers/stress-job";
import { readLogHeatmap } from "@runtime/logs/read-logs";
import type { StressReport } from "@protocol/stress-report";
import type { LogHeatmap } from "@protocol/log-heatmap";
import { shopsDesign } from "../helpers/shops-design";

const DESIGN = shopsDesign("  query ById 50/s where Shop = ? and Id = ?\n  insert Place 50/s");

let emu: FidelityEmulator;
let dir: string;
let record: string;
before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "tdl-logs-"));
  record = path.join(dir, "StorageTableLogs.json");
  emu = await FidelityEmulator.start({ record, recordFormat: "storage-table-logs" });
});
after(async () => {
  await emu?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a stress test and reads the record back from the moment its load started, for its table only. */
async function recorded(extra: Partial<FlatStress>): Promise<{ report: StressReport; heatmap: LogHeatmap }> {
  let started = 0;
  const report = await runStressWith({
    connection: { id: "e", name: "emulator", kind: "emulator", endpoint: emu.endpoint },
    secret: { connectionString: emu.connectionString },
    throttle: emu,
    design: { text: DESIGN, file: "orders.tdl", table: "Orders" },
    mode: "spread",
    durationMs: 2500,
    concurrency: 16,
    preload: 100,
    emulatorScale: 0.02,
    onPhase: (phase) => {
      if (phase === "run") started = Date.now();
    },
    ...extra,
  });
  // The recorder writes its rows four times a second; the run's last ones are out once it has ticked.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const heatmap = await readLogHeatmap(record, { from: started, table: report.table });
  return { report, heatmap };
}

/** |logs − report| within 1 % of the report's count, rounded up to a whole entity. */
function within(logs: number, report: number, what: string): void {
  assert.ok(Math.abs(logs - report) <= Math.ceil(report * 0.01), `${what}: the logs count ${logs}, the report ${report}`);
}

test("spread, reads and batches of 5: each partition's entities in the logs equal the report's", async () => {
  const { report, heatmap } = await recorded({ mix: { read: 50, write: 50 }, batch: 5 });
  assert.equal(heatmap.skipped, 0);
  assert.ok(report.operations.pointRead.entities > 0 && report.operations.insert.count > 0, JSON.stringify(report.operations));
  assert.ok(report.partitionCount >= 10 && report.partitionCount === report.partitions.length, `${report.partitionCount} partitions`);
  assert.equal(heatmap.partitionCount, report.partitionCount);
  const logs = new Map(heatmap.partitions.map((p) => [p.partitionKey, p]));
  for (const p of report.partitions) {
    const l = logs.get(p.partitionKey);
    assert.ok(l, `partition ${p.partitionKey} is in the logs`);
    within(l.entities.read + l.entities.written, p.entities, p.partitionKey);
    // The report counts 503s at a partition per partition, those at the account apart; the logs cannot tell them apart.
    assert.ok(l.entities.throttled >= p.throttled, `${p.partitionKey}: throttled ${l.entities.throttled} ≥ ${p.throttled}`);
  }
  const served = heatmap.partitions.reduce((s, p) => s + p.entities.read + p.entities.written, 0);
  const total = Object.values(report.operations).reduce((s, o) => s + o.entities, 0);
  within(served, total, "all partitions");
  // Batches are counted as what they are: one request of 5 entities, its operations joined to it.
  const batches = heatmap.partitions.reduce((s, p) => s + p.batches, 0);
  within(batches, report.operations.insert.count, "batches");
  assert.equal(
    heatmap.partitions.reduce((s, p) => s + p.entities.written, 0),
    batches * 5,
  );
  assert.ok(heatmap.batchOperations >= batches * 5, `${heatmap.batchOperations} operations of ${batches} batches`);
});

test("one hot partition, batches of 10: served and throttled entities equal the report's, throttled cells marked", async () => {
  const { report, heatmap } = await recorded({ mode: "single-partition", batch: 10, mix: { read: 0, write: 100 } });
  assert.equal(report.verdict.throttled.account, 0, "only the partition throttles");
  const [hot] = report.partitions;
  assert.ok(hot.throttled > 0, `the run throttled (${JSON.stringify(report.verdict.throttled)})`);
  assert.equal(heatmap.partitionCount, 1);
  const [p] = heatmap.partitions;
  assert.equal(p.partitionKey, hot.partitionKey);
  within(p.entities.written, hot.entities, "written");
  within(p.entities.throttled, hot.throttled, "throttled");
  // Each request once: a batch of 10 is one request and ten entities.
  assert.equal(p.batches * 10, p.entities.written);
  // The cells add up to the totals, and the throttled ones say so (the heatmap outlines them).
  const cells = heatmap.seconds.flatMap((s) => Object.values(s.partitions));
  assert.equal(
    cells.reduce((s, c) => s + c.writes, 0),
    p.entities.written,
  );
  assert.ok(cells.some((c) => c.throttled > 0));
  assert.equal(heatmap.bucketName, "second");
});
