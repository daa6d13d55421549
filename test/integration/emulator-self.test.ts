/**
 * An emulator knows itself: a real `tdl emulator` answers
 * `GET <endpoint>/$tdl-emulator` and the `x-tdl-emulator` header with
 * whether its fidelity is on and at which scale, and `tdl stress` against
 * it (by connection string, as a user runs it against their own emulator)
 * says so — throttled at that scale — instead of "does not throttle".
 * Plain Azurite answers neither.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { readEmulatorSelf } from "@runtime/emulator/fidelity/self";
import { startAzurite } from "../helpers/azurite";

const CLI = path.resolve("dist/cli.js");

interface Started {
  child: ChildProcess;
  info: { connectionString: string; tableEndpoint: string; fidelity: string; scale: number };
}

/** `tdl emulator` with `args`, on a free port; its first stdout line. */
async function emulator(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [CLI, "emulator", "--port", "0", ...args]);
  const first = await new Promise<string>((resolve) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
  });
  return { child, info: JSON.parse(first) };
}

async function stop(e: Started): Promise<void> {
  e.child.kill("SIGINT");
  await new Promise((resolve) => e.child.once("exit", resolve));
}

/** A short single-partition run of tdl stress against the emulator, by its connection string; the JSON report. */
function stress(connectionString: string, extra: string[] = []) {
  const r = spawnSync(
    process.execPath,
    [
      CLI,
      "stress",
      ...["--design", "examples/marathon.tdl", "--table", "Registrations"],
      ...["--connection-string-env", "TDL_SELF_EMULATOR", "--mode", "single-partition", "--duration", "3s", "--format", "json"],
      ...extra,
    ],
    { env: { ...process.env, TDL_SELF_EMULATOR: connectionString }, encoding: "utf8", timeout: 120_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as {
    verdict: { note: string; throttled: { partition: number } };
    calibration?: { scale: number; throttled: boolean; partitionTargetEntitiesPerSecond: number };
  };
}

test("tdl emulator with fidelity at scale 0.005 says so, and tdl stress against it is throttled and judged at that scale", async () => {
  const e = await emulator(["--scale", "0.005"]);
  try {
    assert.equal(e.info.fidelity, "azure-table");
    assert.equal(e.info.scale, 0.005);
    const self = await fetch(`${e.info.tableEndpoint}/$tdl-emulator`);
    assert.equal(self.status, 200);
    assert.deepEqual(await self.json(), {
      emulator: "tdl",
      fidelity: "azure-table",
      throttles: true,
      scale: 0.005,
      partitionTargetEntitiesPerSecond: 10,
      accountTargetEntitiesPerSecond: 100,
    });
    const tables = await fetch(`${e.info.tableEndpoint}/Tables`);
    assert.equal(tables.headers.get("x-tdl-emulator"), "fidelity=azure-table; scale=0.005; throttles=true", "every answer says it");

    const report = stress(e.info.connectionString, ["--emulator-scale", "0.5"]);
    assert.doesNotMatch(report.verdict.note, /does not throttle/);
    assert.match(
      report.verdict.note,
      /The emulator throttles at Azure's targets × 0\.005 \(tdl emulator --scale 0\.005\); the run is judged at that scale, not at --emulator-scale 0\.5\./,
    );
    assert.equal(report.calibration?.scale, 0.005);
    assert.equal(report.calibration?.throttled, true);
    assert.equal(report.calibration?.partitionTargetEntitiesPerSecond, 10);
    assert.ok(report.verdict.throttled.partition > 0, "one hot partition at 10 entities/s is throttled");
  } finally {
    await stop(e);
  }
});

test("tdl emulator --fidelity off says it does not throttle, and tdl stress says why", async () => {
  const e = await emulator(["--fidelity", "off"]);
  try {
    assert.equal(e.info.fidelity, "off");
    const self = await readEmulatorSelf(e.info.tableEndpoint);
    assert.equal(self?.fidelity, "off");
    assert.equal(self?.throttles, false);
    const report = stress(e.info.connectionString);
    assert.match(report.verdict.note, /The emulator's fidelity layer is off \(tdl emulator --fidelity off\): nothing is throttled\./);
    assert.equal(report.calibration?.throttled, false);
    assert.equal(report.verdict.throttled.partition, 0);
  } finally {
    await stop(e);
  }
});

test("plain Azurite says nothing of itself: it is not taken for a throttling emulator", async () => {
  const azurite = await startAzurite();
  try {
    assert.equal(await readEmulatorSelf(azurite.endpoint), undefined);
  } finally {
    await azurite.stop();
  }
});
