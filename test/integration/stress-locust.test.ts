/**
 * `tdl stress --engine locust` against the embedded emulator with its
 * fidelity layer: a Locust master and two workers (Debian's python3-locust,
 * found on PATH) send the design's load in place of the built-in engine.
 * For the hot example (PurchasesBySeller) and its quick fix, both engines
 * run at the same offered load (the fix and the Locust runs reuse the first
 * run's calibration): the verdicts agree with each other and with the
 * analyzer, and the rates Locust's records give — the hot partition's, and
 * the design's in all — are within 10 % of the built-in engine's. A
 * cancelled Locust run stops every process and still deletes its table.
 * An export sizes its engines from one calibrated worker.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { type FlatStress, jobOf, runStressWith } from "../helpers/stress-job";
import { proposedAlternative } from "@runtime/stress/compare";
import { runLocustStress } from "@runtime/locust";
import { prepareExport } from "@runtime/locust/prepare";
import { AccountSession } from "@runtime/account/session";
import type { StressReport } from "@protocol/stress-report";
import { analyzeTdl } from "@core";

const FILE = "examples/student-cards/by-seller.tdl";
const TABLE = "PurchasesBySeller";
const LOAD_CODES = ["partition/hot", "partition/append-only", "partition/single-value"];

let emu: FidelityEmulator;
before(async () => {
  emu = await FidelityEmulator.start();
});
after(async () => emu?.stop());

function options(text: string, extra: Partial<FlatStress> = {}): FlatStress {
  return {
    connection: { id: "e", name: "emulator", kind: "emulator", endpoint: emu.endpoint },
    secret: { connectionString: emu.connectionString },
    throttle: emu,
    design: { text, file: FILE, table: TABLE },
    mode: "design",
    durationMs: 6000,
    // 32 requests in flight at once for both engines: Locust's two workers have 16 users each.
    concurrency: 32,
    drainMs: 1000,
    calibrateMs: 800,
    ...extra,
  };
}

const stressTables = async () =>
  (
    await new AccountSession(
      { id: "e", name: "e", kind: "emulator", endpoint: emu.endpoint },
      { connectionString: emu.connectionString },
    ).listTables()
  ).filter((t) => t.startsWith("stress"));

const loadFindings = (text: string) =>
  analyzeTdl(text)
    .findings.filter((f) => LOAD_CODES.includes(f.code))
    .map((f) => f.code);
const total = (r: StressReport) => r.partitions.reduce((s, p) => s + p.entities, 0) / (r.durationMs / 1000);
const within = (a: number, b: number, share: number) => Math.abs(a - b) <= share * Math.max(a, b);
const figures = (r: StressReport) =>
  JSON.stringify({ hottest: r.partitions.slice(0, 2), total: total(r), throttled: r.verdict.throttled, pace: r.pace, ms: r.durationMs });

test("Locust with two workers judges the hot design and its quick fix as the built-in engine and the analyzer do, at the same rates", async () => {
  const text = readFileSync(FILE, "utf8");
  const fix = proposedAlternative(text, TABLE)!;
  assert.ok(fix, "the hot design has a quick fix");
  assert.deepEqual(loadFindings(text), ["partition/hot"]);
  assert.deepEqual(loadFindings(fix.text), []);

  const builtinHot = await runStressWith(options(text));
  const calibration = builtinHot.calibration;
  const locustHot = await runLocustStress(jobOf(options(text, { calibration, concurrency: 16 })), { workers: 2 });
  assert.deepEqual(locustHot.engine, { name: "locust", workers: 2, records: 2, skippedLines: 0 });
  assert.equal(locustHot.calibration?.scale, calibration?.scale, "judged at the same scale");
  assert.equal(locustHot.concurrency, builtinHot.concurrency, "the same requests in flight at most");
  assert.equal(locustHot.pace?.callsPerSecond, builtinHot.pace?.callsPerSecond, "the same offered load");
  for (const r of [builtinHot, locustHot]) {
    assert.equal(r.verdict.exceedsTarget, true, figures(r));
    assert.match(r.verdict.note, /Hot: \d+ requests \([\d.]+ %\) were throttled \(503 Server Busy\) at partition '/);
  }
  // The hot seller's partition, served at its throttled rate, and the design's rate in all.
  assert.equal(locustHot.partitions[0]!.partitionKey, builtinHot.partitions[0]!.partitionKey);
  assert.ok(
    within(locustHot.partitions[0]!.entitiesPerSecond, builtinHot.partitions[0]!.entitiesPerSecond, 0.1),
    `hot partition: locust ${figures(locustHot)} builtin ${figures(builtinHot)}`,
  );
  assert.ok(within(total(locustHot), total(builtinHot), 0.1), `in all: locust ${figures(locustHot)} builtin ${figures(builtinHot)}`);

  const builtinFix = await runStressWith(options(fix.text, { calibration }));
  const locustFix = await runLocustStress(jobOf(options(fix.text, { calibration, concurrency: 16 })), { workers: 2 });
  for (const r of [builtinFix, locustFix]) {
    assert.equal(r.verdict.exceedsTarget, false, figures(r));
    assert.equal(r.verdict.throttled.partition, 0, figures(r));
    assert.match(r.verdict.note, /No partition reached the [\d.,]+ entit(y|ies)\/s partition target/);
  }
  assert.ok(within(total(locustFix), total(builtinFix), 0.1), `fix in all: locust ${figures(locustFix)} builtin ${figures(builtinFix)}`);
  assert.deepEqual(await stressTables(), []);
});

test("a cancelled Locust run stops its master and workers and still deletes its table", async () => {
  const text = readFileSync(FILE, "utf8");
  const abort = new AbortController();
  let table = "";
  const pids: number[] = [];
  const report = await runLocustStress(
    jobOf(options(text, { emulatorScale: 0.05, durationMs: 60_000, concurrency: 8, signal: abort.signal, onTable: (t) => (table = t) })),
    {
      workers: 2,
      onProcess: (_name, pid) => pids.push(pid),
      // Cancelled a moment after a worker starts its load: in the middle of it.
      log: (line) => {
        if (/starts its load/.test(line) && !abort.signal.aborted) setTimeout(() => abort.abort(), 1500);
      },
    },
  );
  const alive = pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
  assert.equal(pids.length, 3, "a master and two workers");
  assert.deepEqual(alive, [], "every Locust process is gone");
  assert.match(report.stopped ?? "", /^cancelled/);
  assert.match(table, /^stress[0-9a-f]{10}$/);
  assert.deepEqual(await stressTables(), []);
  assert.ok(report.durationMs > 1000 && report.durationMs < 10_000, `measured until cancelled: ${report.durationMs} ms`);
  assert.ok(report.operations.insert.count > 0, "the load ran before it was cancelled");
});

test("the export sizes its engines from one Locust worker calibrated against a stand-in of the service", async () => {
  const text = readFileSync(FILE, "utf8");
  const out = await prepareExport({
    design: { text, file: FILE, table: TABLE },
    mode: "spread",
    rate: 5000,
    durationMs: 600_000,
    concurrency: 16,
    connection: { id: "e", name: "emulator", kind: "emulator", endpoint: emu.endpoint },
    secret: { connectionString: emu.connectionString },
    validForMs: 3_600_000,
    p99Ms: 1000,
  });
  const s = out.sizing;
  assert.equal(out.uncalibrated, undefined);
  assert.equal(s.measured, true);
  assert.ok(s.workerCallsPerSecond > 20, `one worker: ${s.workerCallsPerSecond} calls/s`);
  assert.equal(s.workers, Math.ceil(5000 / (s.workerCallsPerSecond * 0.7)));
  assert.equal(out.plan.workers, s.workers);
  assert.equal(s.transactions, 5000 * 600);
  assert.match(out.files.find((f) => f.name === "loadtest.yaml")!.text, new RegExp(`^engineInstances: ${s.workers}$`, "m"));
  assert.deepEqual(await stressTables(), [], "sizing touches no table");
});
