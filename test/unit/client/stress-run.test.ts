/**
 * The VS Code stress command's choices, without `vscode`: the engine
 * options it runs with (the CLI's concurrency, no read mix, the emulator's
 * throttle, a compared design's calibration), report tab titles that differ
 * between runs, and a table picker that lists every table of every design.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { commandStressRequest, designTables, reportTitle } from "@client/commands/stress-options";
import { buildStressJob, STRESS_DEFAULTS } from "@runtime";
import { analyzeTdl } from "@core";

const throttle = { throttles: true, setThrottle: () => undefined };
const base = {
  target: {
    connection: { id: "emulator", name: "Emulator", kind: "emulator" as const, endpoint: "http://127.0.0.1:1/devstoreaccount1" },
    secret: {},
    emulator: true,
    throttle,
  },
  design: { text: "", file: "a.tdl", table: "T" },
  mode: "spread" as const,
  seconds: 10,
  maxSeconds: 120,
  analysis: {},
  cleanupHint: "run the command",
};

test("the command runs with the CLI's defaults and hands the emulator's throttle to the run", () => {
  const { target, plan, limits } = buildStressJob(commandStressRequest(base));
  assert.equal(plan.concurrency, STRESS_DEFAULTS.concurrency);
  assert.equal(plan.mix, undefined, "no point-read mix the CLI does not send");
  assert.equal(target.throttle, throttle);
  assert.equal(plan.durationMs, 10_000);
  assert.equal(limits.maxDurationMs, 120_000);
  assert.equal(target.confirmedRealAccount, false);
  assert.equal(plan.calibration, undefined);
});

test("a real account gets no throttle hook and counts as confirmed (the command asked in a modal)", () => {
  const { target } = buildStressJob(commandStressRequest({ ...base, target: { ...base.target, emulator: false } }));
  assert.equal(target.throttle, undefined);
  assert.equal(target.confirmedRealAccount, true);
});

test("a compared design is judged at the first run's calibration", () => {
  const calibration = {
    scale: 0.12,
    capacityEntitiesPerSecond: 4800,
    partitionTargetEntitiesPerSecond: 240,
    accountTargetEntitiesPerSecond: 2400,
    azure: { partitionTargetEntitiesPerSecond: 2000, accountTargetEntitiesPerSecond: 20_000 },
    throttled: true,
  };
  assert.equal(buildStressJob(commandStressRequest({ ...base, calibration })).plan.calibration, calibration);
});

test("two reports get different tab titles: table, mode and time", () => {
  const a = reportTitle("Orders", "spread", new Date(2026, 0, 2, 14, 3, 7), false);
  assert.equal(a, "Stress test: Orders · spread · 14:03:07");
  assert.notEqual(reportTitle("Orders", "design", new Date(2026, 0, 2, 14, 3, 7), false), a);
  assert.notEqual(reportTitle("Orders", "spread", new Date(2026, 0, 2, 14, 3, 8), false), a);
  assert.equal(
    reportTitle("Orders", "design", new Date(2026, 0, 2, 9, 0, 0), true),
    "Stress test: Orders (compared with its fix) · design · 09:00:00",
  );
});

function designs(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? designs(p) : p.endsWith(".tdl") ? [p] : [];
  });
}

test("the picker offers every table of every design, not only those of open editors", () => {
  const files = designs("examples").map((p) => ({ path: path.resolve(p), label: p, text: readFileSync(p, "utf8") }));
  const tablesOf = (text: string) =>
    analyzeTdl(text)
      .tables.filter((t) => !t.table.hasSyntaxError && t.table.name.text)
      .map((t) => t.table.name.text);
  const items = designTables(files, tablesOf);
  const expected = files.reduce((n, f) => n + tablesOf(f.text).length, 0);
  assert.equal(items.length, expected);
  assert.ok(items.length >= 11, String(items.length));
  for (const name of ["PurchasesBySeller", "PurchasesByOrderNumber", "TelemetryByHour"])
    assert.ok(
      items.some((i) => i.table === name),
      name,
    );
  // Sorted by file, then table; each item carries its own file's text.
  assert.deepEqual(
    items.map((i) => i.label),
    [...items.map((i) => i.label)].sort((a, b) => a.localeCompare(b)),
  );
  for (const i of items) assert.ok(tablesOf(i.text).includes(i.table));
  // A file that does not parse as a design, or has no table, adds nothing; a table with a syntax error is left out.
  assert.deepEqual(designTables([{ path: "/x.tdl", label: "x.tdl", text: "\0\r table {" }], tablesOf), []);
});
