// The bulk jobs at a throttling service (`node scripts/bench.mjs throttled`): `tdl export` and `tdl import`
// of 20,000 entities (200 partitions × 100) on `tdl emulator` (fidelity on, --scale 0.1: the account serves
// 2,000 entities/s) at --share 0.8, beside an SDK loop that sends at the target and waits 1 s on a 503 (its
// ascending keys land on the range partition at the end of the key order, as on Azure). The jobs learn the
// service's pace from its 503s (runtime/net/pace.ts): the figure is the share of the scaled account target
// they sustain, the done-when of issue #33 being ≥ 0.75.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { TableClient } from "@azure/data-tables";
import { ROOT } from "./shared.mjs";

const CLI = path.join(ROOT, "dist/cli.js");
const SCALE = 0.1;
const TARGET = 20_000 * SCALE;
const PARTITIONS = 200;
const ROWS = 100;

/** `tdl export` and `tdl import` at --share 0.8 on a throttling emulator: their share of the scaled account target. */
export async function run() {
  const emulator = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--scale", String(SCALE)], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const first = await new Promise((resolve) => createInterface({ input: emulator.stdout }).once("line", resolve));
  const { connectionString } = JSON.parse(first);
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-bench-throttled-"));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  try {
    const table = (name) => TableClient.fromConnectionString(connectionString, name, { allowInsecureConnection: true });
    /** The SDK loop: 100-entity batches at the target (a batch every 1/20 s), waiting 1 s on a 503. */
    const sdkLoop = async (name, make) => {
      const t = table(name);
      await t.createTable();
      const start = performance.now();
      for (let p = 0; p < PARTITIONS; p++) {
        const due = start + (p * ROWS * 1000) / TARGET;
        await sleep(due - performance.now());
        for (;;) {
          try {
            await t.submitTransaction(make(p).map((e) => ["create", e]));
            break;
          } catch (e) {
            if (e.statusCode !== 503) throw e;
            await sleep(1000);
          }
        }
      }
      return (PARTITIONS * ROWS) / ((performance.now() - start) / 1000);
    };
    const rows = (p) =>
      Array.from({ length: ROWS }, (_, r) => ({
        partitionKey: `p${String(p).padStart(4, "0")}`,
        rowKey: `r${String(r).padStart(4, "0")}`,
        n: r,
        s: "x".repeat(150),
      }));
    const sdkWrite = await sdkLoop("Source", rows);
    await sleep(1500);
    const tdl = (...args) => {
      const start = performance.now();
      const r = spawnSync(process.execPath, [CLI, ...args, "--connection-string-env", "TDL_BENCH"], {
        env: { ...process.env, TDL_BENCH: connectionString },
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`tdl ${args[0]} failed: ${r.stderr}`);
      return (PARTITIONS * ROWS) / ((performance.now() - start) / 1000);
    };
    const out = path.join(dir, "export");
    const exportRate = tdl("export", "--table", "Source", "--out", out, "--share", "0.8");
    await sleep(1500);
    const importRate = tdl("import", out, "--table", "Target", "--share", "0.8");
    const row = (what, sdk, mine) =>
      console.log(
        `${what.padEnd(34)} ${(sdk === undefined ? "—" : sdk.toFixed(0)).padStart(9)} ${mine.toFixed(0).padStart(9)} ${(mine / TARGET).toFixed(2).padStart(8)}`,
      );
    console.log(
      `\nBulk jobs at a throttling service: tdl emulator --scale ${SCALE} (account target ${TARGET.toLocaleString("en-US")} entities/s), ${(PARTITIONS * ROWS).toLocaleString("en-US")} entities, --share 0.8 (each tdl time includes starting the CLI)\n`,
    );
    console.log(`${"".padEnd(34)} ${"SDK loop".padStart(9)} ${"tdl".padStart(9)} ${"/target".padStart(8)}`);
    row("write (SDK: paced at the target)", sdkWrite, importRate);
    row("read: export", undefined, exportRate);
    console.log("done when: tdl ≥ 0.75 of the target with no failure");
  } finally {
    emulator.kill("SIGINT");
    rmSync(dir, { recursive: true, force: true });
  }
}
