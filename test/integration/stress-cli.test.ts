import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { EmbeddedEmulator } from "../../client/src/emulator/azurite";
import { session, startAzurite } from "../helpers/azurite";

let emu: EmbeddedEmulator;
before(async () => { emu = await startAzurite(); });
after(async () => emu?.stop());

const CLI = path.resolve("dist/cli.js");
const stressTables = async () => (await session(emu).listTables()).filter((t) => t.startsWith("stress"));

test("tdl stress writes the report of interfaces.md and leaves no table", async () => {
  const report = path.join(mkdtempSync(path.join(tmpdir(), "tdl-stress-")), "r.json");
  const r = spawnSync(process.execPath, [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--connection-string-env", "TDL_TEST_TABLES",
    "--duration", "2s", "--concurrency", "8", "--mode", "single-partition", "--mix", "read=20,write=80", "--report", report],
  { env: { ...process.env, TDL_TEST_TABLES: emu.connectionString }, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^single-partition on emulator \(table stress[0-9a-f]{10}/);
  const json = JSON.parse(readFileSync(report, "utf8"));
  assert.deepEqual(Object.keys(json).sort(), ["concurrency", "design", "durationMs", "mode", "operations", "partitions", "table", "target", "timeline", "verdict"]);
  assert.deepEqual(Object.keys(json.operations), ["insert", "pointRead", "query"]);
  assert.deepEqual(Object.keys(json.operations.insert.latencyMs), ["p50", "p95", "p99", "max"]);
  assert.deepEqual(Object.keys(json.verdict), ["partitionTargetEntitiesPerSecond", "hottestPartitionEntitiesPerSecond", "exceedsTarget", "note"]);
  assert.equal(json.design.table, "Registrations");
  assert.deepEqual(await stressTables(), []);
});

test("SIGINT cancels tdl stress, which still deletes its table and exits 1", async () => {
  const child = spawn(process.execPath, [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--connection-string-env", "TDL_TEST_TABLES", "--duration", "60s"],
    { env: { ...process.env, TDL_TEST_TABLES: emu.connectionString } });
  let stderr = "";
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  await new Promise<void>((resolve) => child.stderr.on("data", (d) => { stderr += d; if (/entities\/s/.test(stderr)) resolve(); }));
  assert.equal((await stressTables()).length, 1);
  child.kill("SIGINT");
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  assert.equal(code, 1);
  assert.equal(JSON.parse(stdout).stopped, "cancelled");
  assert.deepEqual(await stressTables(), []);
});

test("tdl stress refuses a real account without --yes-real-account, and bad usage exits 2", () => {
  const real = spawnSync(process.execPath, [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--connection-string-env", "REAL"],
    { env: { ...process.env, REAL: "DefaultEndpointsProtocol=https;AccountName=myaccount;AccountKey=abc=;EndpointSuffix=core.windows.net" }, encoding: "utf8" });
  assert.equal(real.status, 2);
  assert.match(real.stderr, /is not an emulator.*--yes-real-account/);
  const bad = spawnSync(process.execPath, [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--emulator", "--mode", "sideways"], { encoding: "utf8" });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--mode must be single-partition, spread, design/);
});
