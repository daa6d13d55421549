/**
 * The one builder of a stress job and the one engine chooser: `tdl stress`'s
 * flags and the VS Code command's picks and settings ask for the same run
 * and get the same job (the same defaults, bounds and throttle), and the
 * engine is chosen, bounded and checked in one place.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parseCommand } from "@cli/args";
import { stress, stressRequest, type StressValues } from "@cli/commands/stress";
import { commandStressRequest } from "@client/commands/stress-options";
import { buildStressJob, chooseEngine, LOCUST_INSTALL, STRESS_DEFAULTS, type StressJob } from "@runtime";
import { UnavailableError } from "@core/errors";

const throttle = { throttles: true, setThrottle: () => undefined };
const connection = { id: "e", name: "emulator", kind: "emulator" as const, endpoint: "http://127.0.0.1:10002/devstoreaccount1" };
const secret = { connectionString: "UseDevelopmentStorage=true" };
const design = { text: "table T {}", file: "a.tdl", table: "T" };

/** `tdl stress ARGS` against the embedded emulator, as the command builds its job. */
function fromCli(args: string[]): StressJob {
  const options = parseCommand(stress, ["--design", "a.tdl", "--table", "T", "--emulator", ...args]).options as StressValues;
  return buildStressJob(stressRequest(options, design, { connection, secret, local: true }, throttle));
}

/** The VS Code command's run of the same design on the embedded emulator. */
function fromCommand(mode: "spread" | "single-partition" | "design", seconds: number): StressJob {
  return buildStressJob(
    commandStressRequest({
      target: { connection, secret, emulator: true, throttle },
      design,
      mode,
      seconds,
      maxSeconds: 300,
      analysis: {},
      cleanupHint: "run the command",
    }),
  );
}

/** A part without its unset fields, as JSON would carry it. */
const plain = (x: object) => JSON.parse(JSON.stringify(x)) as unknown;

test("tdl stress and the VS Code command ask for the same job: plan, limits and target", () => {
  for (const [args, mode, seconds] of [
    [["--duration", "10s"], "spread", 10],
    [["--mode", "single-partition", "--duration", "1m"], "single-partition", 60],
    [["--mode", "design", "--duration", "30s"], "design", 30],
  ] as const) {
    const cli = fromCli([...args]);
    const code = fromCommand(mode, seconds);
    assert.deepEqual(plain(cli.plan), plain(code.plan), args.join(" "));
    assert.deepEqual(cli.limits, code.limits, args.join(" "));
    assert.equal(cli.target.emulator, true);
    assert.equal(cli.target.throttle, throttle);
    assert.equal(code.target.throttle, throttle);
  }
  const job = fromCli([]);
  assert.equal(job.plan.concurrency, STRESS_DEFAULTS.concurrency);
  assert.equal(job.plan.preload, STRESS_DEFAULTS.preload);
  assert.equal(job.plan.durationMs, 30_000);
  assert.deepEqual(job.limits, {
    maxDurationMs: 300_000,
    requestTimeoutMs: 10_000,
    drainMs: 2000,
    preloadMs: 60_000,
    outageMs: 5000,
    deleteWithinMs: 60_000,
    hurryDeleteMs: 10_000,
    calibrateMs: 1000,
  });
});

test("the builder bounds the duration, completes the defaults and keeps a throttle off a real account", () => {
  const job = buildStressJob({
    target: { connection, secret },
    plan: { design, mode: "spread", durationMs: 900_000, preload: 12.7 },
    limits: { requestTimeoutMs: 800, maxDurationMs: 60_000 },
  });
  assert.equal(job.plan.durationMs, 60_000);
  assert.equal(job.plan.preload, 12);
  assert.equal(job.limits.drainMs, 800, "the drain is no longer than one request may take");
  assert.equal(job.target.emulator, true, "a loopback endpoint is an emulator");
  assert.equal(job.target.confirmedRealAccount, false);
  const real = buildStressJob({
    target: { connection: { ...connection, endpoint: "https://acct.table.core.windows.net" }, secret, throttle },
    plan: { design, mode: "spread", durationMs: 1000 },
  });
  assert.equal(real.target.emulator, false);
  assert.equal(real.target.throttle, undefined);
});

test("the engine chooser: builtin as is, Locust bounded to 1–64 workers and found on PATH, or a sentence with the install line", () => {
  assert.deepEqual(chooseEngine("builtin"), { name: "builtin" });
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-engines-"));
  try {
    const exe = path.join(dir, process.platform === "win32" ? "locust.cmd" : "locust");
    writeFileSync(exe, "#!/bin/sh\n");
    chmodSync(exe, 0o755);
    assert.deepEqual(chooseEngine("locust", undefined, dir), { name: "locust", workers: 2, locust: exe });
    const bounded = [0, 3.9, 500].map((n) => {
      const e = chooseEngine("locust", n, dir);
      return e.name === "locust" ? e.workers : 0;
    });
    assert.deepEqual(bounded, [1, 3, 64]);
    const empty = path.join(dir, "empty");
    assert.throws(
      () => chooseEngine("locust", 2, empty),
      (e: unknown) => e instanceof UnavailableError && e.message.includes(LOCUST_INSTALL),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
