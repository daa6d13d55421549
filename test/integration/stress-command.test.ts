/**
 * The VS Code stress command's code path without `vscode`: the emulator
 * started as the extension host starts it (fidelity on, a log listener, the
 * heatmap's per-second listener), the engine options the command builds,
 * progress reported as the notification takes it. The command's run must be
 * the CLI's run: writes only in spread mode, calibrated and throttled at
 * this machine's scale, and a compared quick fix judged at the first run's
 * calibration, with verdicts that agree with the analyzer.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { buildStressJob, runStress, proposedAlternative, STRESS_DEFAULTS } from "@runtime";
import type { TrafficSecond } from "@protocol";
import { commandStressRequest, CommandTarget } from "@client/commands/stress-options";

let emu: FidelityEmulator;
let target: CommandTarget;
const seconds: TrafficSecond[] = [];
before(async () => {
  // As EmulatorHost.start does: the settings' port, fidelity and scale, Azurite's lines to the output channel, traffic to the heatmap.
  emu = await FidelityEmulator.start({ port: 0, fidelity: true, scale: 1, log: () => undefined });
  emu.recorder.on("second", (s: TrafficSecond) => seconds.push(s));
  target = {
    connection: { id: "emulator", name: "Emulator", kind: "emulator", endpoint: emu.endpoint },
    secret: { connectionString: emu.connectionString },
    emulator: true,
    throttle: emu,
  };
});
after(async () => emu?.stop());

const run = (text: string, table: string, extra: Partial<Parameters<typeof commandStressRequest>[0]> = {}) => {
  const progress: string[] = [];
  const request = commandStressRequest({
    target,
    design: { text, file: "design.tdl", table },
    mode: "spread",
    seconds: 2,
    maxSeconds: 120,
    analysis: {},
    cleanupHint: "run the command",
    onProgress: (p) => progress.push(`${(p.elapsedMs / 1000).toFixed(0)} s · ${p.entitiesPerSecond}`),
    ...extra,
  });
  // Shorter bounds than a user's: the drain and the calibration probe.
  return runStress(buildStressJob({ ...request, limits: { ...request.limits, drainMs: 1000, calibrateMs: 800 } })).then((report) => ({
    report,
    progress,
  }));
};

test("spread mode from the command sends what tdl stress sends: inserts only, at the CLI's concurrency, calibrated and throttled", async () => {
  const { report, progress } = await run(readFileSync("examples/marathon.tdl", "utf8"), "Registrations");
  assert.equal(report.concurrency, STRESS_DEFAULTS.concurrency);
  assert.ok(report.operations.insert.count > 0);
  assert.equal(report.operations.pointRead.count, 0, "no read mix the CLI does not send");
  assert.ok(report.calibration?.throttled, JSON.stringify(report.calibration));
  assert.ok(progress.length >= 2, progress.join("; "));
  assert.ok(seconds.length > 0, "the heatmap heard the traffic");
});

test("compared with its quick fix, the fix runs at the first run's calibration and the verdicts agree with the analyzer", async () => {
  const text = readFileSync("examples/student-cards/by-order-number.tdl", "utf8");
  const table = "PurchasesByOrderNumber";
  const hot = await run(text, table, { mode: "design", seconds: 3 });
  const fix = proposedAlternative(text, table)!;
  const fixed = await run(fix.text, table, { mode: "design", seconds: 3, calibration: hot.report.calibration });
  assert.equal(fixed.report.calibration?.scale, hot.report.calibration?.scale);
  assert.equal(hot.report.verdict.exceedsTarget, true, hot.report.verdict.note);
  assert.equal(fixed.report.verdict.exceedsTarget, false, fixed.report.verdict.note);
});

test("the command's requests do not pass through http.request, which VS Code's extension host replaces with a proxy-resolving agent per request", async () => {
  // As the extension host's proxy support does (http.proxySupport "override"): http.request is swapped for a wrapper. Count what still goes through it.
  const original = http.request;
  let through = 0;
  (http as unknown as { request: unknown }).request = (...args: Parameters<typeof http.request>) => {
    through++;
    return original(...args);
  };
  try {
    const { report } = await run(readFileSync("examples/marathon.tdl", "utf8"), "Registrations", { seconds: 1 });
    assert.ok(report.operations.insert.count > 0);
  } finally {
    (http as unknown as { request: unknown }).request = original;
  }
  assert.equal(through, 0, "requests of the stress client or of the emulator's relay went through the patched http.request");
});
