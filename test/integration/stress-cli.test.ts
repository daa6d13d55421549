import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { EmbeddedEmulator } from "../../client/src/runtime/emulator/azurite";
import { session, startAzurite } from "../helpers/azurite";
import { markerEntity } from "../../client/src/runtime/stress/marker";

let emu: EmbeddedEmulator;
before(async () => { emu = await startAzurite(); });
after(async () => emu?.stop());

const CLI = path.resolve("dist/cli.js");
const stressTables = async () => (await session(emu).listTables()).filter((t) => t.startsWith("stress")).sort();

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

test("tdl stress --cleanup removes a marked leftover, keeps the young, the unmarked and a live run's, and says why", async () => {
  const env = { ...process.env, TDL_TEST_TABLES: emu.connectionString };
  const kept = spawnSync(process.execPath, [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--connection-string-env", "TDL_TEST_TABLES",
    "--duration", "1s", "--concurrency", "2", "--keep-table"], { env, encoding: "utf8" });
  assert.equal(kept.status, 0, kept.stderr);
  const leftover = JSON.parse(kept.stdout).table as string;
  const s = session(emu);
  const unmarked = `stress${Date.now().toString(16)}`;
  await s.createTable(unmarked);
  // A marker naming a process that is alive on this host (this test): its run may still be going.
  const live = `stress${(Date.now() + 1).toString(16)}live`;
  await s.createTable(live);
  await s.clients.table(live).upsertEntity(markerEntity("other.tdl"));
  assert.deepEqual(await stressTables(), [leftover, live, unmarked].sort());

  const young = spawnSync(process.execPath, [CLI, "stress", "--cleanup", "--connection-string-env", "TDL_TEST_TABLES"], { env, encoding: "utf8" });
  assert.equal(young.status, 0, young.stderr);
  assert.match(young.stdout, new RegExp(`kept     ${leftover} \\(created \\d+ s ago on .* for marathon\\.tdl, pid \\d+\\): created \\d+ s ago, younger than asked \\(--older-than 10m\\)`));
  assert.match(young.stdout, /removed 0, kept 3/);

  const r = spawnSync(process.execPath, [CLI, "stress", "--cleanup", "--older-than", "0s", "--connection-string-env", "TDL_TEST_TABLES"], { env, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^3 stress… tables at 127\.0\.0\.1:\d+\n/);
  assert.match(r.stdout, new RegExp(`removed  ${leftover} \\(created`));
  assert.match(r.stdout, new RegExp(`kept     ${unmarked}: no marker: not made by a stress test of this tool, left alone`));
  assert.match(r.stdout, new RegExp(`kept     ${live} \\(.*\\): its stress test may still be running \\(process ${process.pid} on this host is alive\\)`));
  assert.match(r.stdout, /removed 1, kept 2\n$/);
  assert.deepEqual(await stressTables(), [live, unmarked].sort());
  await s.deleteTable(unmarked);
  await s.deleteTable(live);
});

test("tdl stress --help, --cleanup usage and a bad connection string exit as interfaces.md says, quoting no secret", () => {
  const help = spawnSync(process.execPath, [CLI, "stress", "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /tdl stress --cleanup \[--older-than 10m\]/);
  for (const [args, message] of [
    [["--cleanup"], /choose one target/],
    [["--cleanup", "--emulator", "--design", "x.tdl"], /--cleanup does not take --design/],
    [["--cleanup", "--emulator", "--older-than", "soon"], /--older-than must look like 30s/],
    [["--design", "examples/marathon.tdl", "--table", "Registrations", "--emulator", "--older-than", "1m"], /--older-than goes with --cleanup/],
    [["--design", "examples/marathon.tdl", "--table", "Registrations", "--emulator", "--preload", "-3"], /--preload needs a whole number/],
    [["--design", "examples/marathon.tdl", "--table", "Registrations", "--emulator", "--scale", "fast"], /--scale needs a positive number, not 'fast'/],
  ] as const) {
    const r = spawnSync(process.execPath, [CLI, "stress", ...args], { encoding: "utf8" });
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  const secret = "c2VjcmV0LWtleS0xMjM0NTY3ODkw$$";
  const bad = spawnSync(process.execPath, [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--connection-string-env", "BAD"],
    { env: { ...process.env, BAD: `AccountName=a;AccountKey=${secret}` }, encoding: "utf8" });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /the connection string in BAD: /);
  assert.ok(!bad.stderr.includes(secret.slice(0, 8)), bad.stderr);
});
