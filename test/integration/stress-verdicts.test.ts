/**
 * Stress verdicts that agree with the analyzer, on the emulator with its
 * fidelity layer: for every example design table with a load finding
 * (partition/hot, partition/append-only, partition/single-value), a design
 * run calibrated to this machine is throttled and judged hot, and the same
 * table with the finding's quick fix applied (by the real fix code) is
 * neither; tables without such a finding are not judged hot either. Each
 * run is a few seconds; the fix runs at its design's calibration, as the
 * VS Code command compares them.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { type FlatStress, runStressWith } from "../helpers/stress-job";
import { proposedAlternative } from "@runtime/stress/compare";
import type { StressReport } from "@protocol/stress-report";
import { analyzeTdl } from "@core";

const LOAD_CODES = ["partition/hot", "partition/append-only", "partition/single-value"];

let emu: FidelityEmulator;
before(async () => {
  emu = await FidelityEmulator.start();
});
after(async () => emu?.stop());

function designs(dir = "examples"): string[] {
  return readdirSync(dir)
    .flatMap((f) => {
      const p = path.join(dir, f);
      return statSync(p).isDirectory() ? designs(p) : p.endsWith(".tdl") ? [p] : [];
    })
    .sort();
}

/** Every table of every example, with the load findings the analyzer reports on it. */
function tables(): Array<{ file: string; text: string; table: string; findings: string[] }> {
  return designs().flatMap((file) => {
    const text = readFileSync(file, "utf8");
    const analysis = analyzeTdl(text);
    return analysis.tables.map((tm) => ({
      file,
      text,
      table: tm.table.name.text,
      findings: analysis.findings
        .filter((f) => LOAD_CODES.includes(f.code) && f.start >= tm.base + tm.table.start && f.start <= tm.base + tm.table.end)
        .map((f) => f.code),
    }));
  });
}

function run(file: string, text: string, table: string, extra: Partial<FlatStress> = {}): Promise<StressReport> {
  return runStressWith({
    connection: { id: "e", name: "emulator", kind: "emulator", endpoint: emu.endpoint },
    secret: { connectionString: emu.connectionString },
    throttle: emu,
    design: { text, file, table },
    mode: "design",
    durationMs: 3000,
    concurrency: 16,
    drainMs: 1000,
    calibrateMs: 800,
    ...extra,
  });
}

const figures = (r: StressReport) =>
  `${r.verdict.note} ${JSON.stringify({ throttled: r.verdict.throttled, end: r.verdict.keyRangeEndEntitiesPerSecond, pace: r.pace, calibration: r.calibration?.scale })}`;

test("every example table with a load finding is throttled and judged hot; its quick fix is neither", async () => {
  const flagged = tables().filter((t) => t.findings.length);
  // The examples name their findings (by-seller: hot; by-order-number and telemetry: append-only, whose newest partition is also hot): the test covers them all.
  assert.deepEqual(flagged.map((t) => `${t.table}: ${t.findings.join(", ")}`).sort(), [
    "PurchasesByOrderNumber: partition/append-only, partition/hot",
    "PurchasesBySeller: partition/hot",
    "TelemetryByHour: partition/append-only, partition/hot",
  ]);
  for (const t of flagged) {
    const hot = await run(t.file, t.text, t.table);
    assert.equal(hot.verdict.exceedsTarget, true, `${t.table} as designed: ${figures(hot)}`);
    assert.ok(hot.verdict.throttled.partition > 0, `${t.table} as designed was throttled: ${figures(hot)}`);
    assert.match(hot.verdict.note, /Hot: /);
    assert.ok(hot.calibration?.throttled && hot.calibration.capacityEntitiesPerSecond! > 0, JSON.stringify(hot.calibration));
    assert.match(
      hot.calibration!.note,
      /The emulator was calibrated at [\d,]+ entities\/s .* the partition target 2,000 → [\d.,]+ entit(y|ies)\/s/,
    );

    const fix = proposedAlternative(t.text, t.table);
    assert.ok(fix, `${t.table} has a quick fix`);
    assert.ok(
      !analyzeTdl(fix.text).findings.some((f) => LOAD_CODES.includes(f.code)),
      `the analyzer is content with the fix of ${t.table}`,
    );
    const fixed = await run(t.file, fix.text, t.table, { calibration: hot.calibration });
    assert.equal(fixed.calibration?.scale, hot.calibration!.scale, "judged at the same scale");
    assert.equal(fixed.verdict.exceedsTarget, false, `${t.table} with '${fix.title}': ${figures(fixed)}`);
    assert.equal(fixed.verdict.throttled.partition, 0, `${t.table} with the fix was not throttled: ${figures(fixed)}`);
    assert.match(fixed.verdict.note, /No partition reached the [\d.,]+ entit(y|ies)\/s partition target/);
  }
});

test("example tables without a load finding are not judged hot", async () => {
  const calm = tables().filter((t) => !t.findings.length);
  assert.ok(calm.length >= 8, calm.map((t) => t.table).join(", "));
  let calibration: StressReport["calibration"];
  for (const t of calm) {
    const r = await run(t.file, t.text, t.table, { durationMs: 1500, calibration });
    calibration ??= r.calibration;
    assert.equal(r.verdict.exceedsTarget, false, `${t.table}: ${figures(r)}`);
    assert.equal(r.verdict.throttled.partition, 0, `${t.table}: ${figures(r)}`);
  }
});
