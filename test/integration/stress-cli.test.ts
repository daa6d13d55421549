import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { session, startAzurite } from "../helpers/azurite";
import { markerEntity } from "@runtime/stress/marker";

let emu: EmbeddedEmulator;
before(async () => {
  emu = await startAzurite();
});
after(async () => emu?.stop());

const CLI = path.resolve("dist/cli.js");
const stressTables = async () => (await session(emu).listTables()).filter((t) => t.startsWith("stress")).sort();

test("tdl stress writes the documented JSON report and leaves no table; --fail-on-hot exits 1 on a hot verdict, naming what decided it", async () => {
  const report = path.join(mkdtempSync(path.join(tmpdir(), "tdl-stress-")), "r.json");
  const r = spawnSync(
    process.execPath,
    [
      CLI,
      "stress",
      "--design",
      "examples/marathon.tdl",
      "--table",
      "Registrations",
      "--connection-string-env",
      "TDL_TEST_TABLES",
      "--duration",
      "2s",
      "--concurrency",
      "8",
      "--mode",
      "single-partition",
      "--mix",
      "read=20,write=80",
      "--report",
      report,
      "--fail-on-hot",
    ],
    { env: { ...process.env, TDL_TEST_TABLES: emu.connectionString }, encoding: "utf8" },
  );
  const verdict = JSON.parse(readFileSync(report, "utf8")).verdict;
  assert.match(verdict.headline, verdict.exceedsTarget ? /^HOT: / : /^OK: /);
  assert.equal(r.status, verdict.exceedsTarget ? 1 : 0, r.stderr);
  if (verdict.exceedsTarget) assert.ok(r.stderr.includes(`tdl: the verdict is hot (--fail-on-hot): ${verdict.headline}\n`), r.stderr);
  assert.ok(r.stdout.includes(`\nverdict: ${verdict.headline}\n`), r.stdout);
  assert.match(
    r.stdout,
    /^single-partition on emulator · design table Registrations · \d+\.\d s at concurrency 8 · stress table stress[0-9a-f]{10}\n/,
  );
  assert.match(r.stdout, new RegExp(`report: ${report.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\n$`));
  const json = JSON.parse(readFileSync(report, "utf8"));
  // interfaces.md's fields, and what this run adds: how it was scaled to the machine, and how many partitions it touched.
  assert.deepEqual(Object.keys(json).sort(), [
    "calibration",
    "concurrency",
    "design",
    "durationMs",
    "mode",
    "operations",
    "partitionCount",
    "partitions",
    "table",
    "target",
    "timeline",
    "verdict",
  ]);
  for (const op of ["insert", "pointRead", "query"]) assert.ok(op in json.operations, op);
  assert.deepEqual(Object.keys(json.operations.insert.latencyMs), ["p50", "p95", "p99", "max"]);
  for (const k of ["headline", "partitionTargetEntitiesPerSecond", "hottestPartitionEntitiesPerSecond", "exceedsTarget", "note"])
    assert.ok(k in json.verdict, k);
  assert.ok(json.calibration.capacityEntitiesPerSecond > 0 && json.calibration.throttled === false, JSON.stringify(json.calibration));
  assert.equal(json.design.table, "Registrations");
  assert.deepEqual(await stressTables(), []);
});

test("SIGINT cancels tdl stress, which still deletes its table and exits 1", async () => {
  const child = spawn(
    process.execPath,
    [
      CLI,
      "stress",
      "--design",
      "examples/marathon.tdl",
      "--table",
      "Registrations",
      "--connection-string-env",
      "TDL_TEST_TABLES",
      "--duration",
      "60s",
      "--format",
      "json",
    ],
    { env: { ...process.env, TDL_TEST_TABLES: emu.connectionString } },
  );
  let stderr = "";
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  await new Promise<void>((resolve) =>
    child.stderr.on("data", (d) => {
      stderr += d;
      if (/entities\/s/.test(stderr)) resolve();
    }),
  );
  assert.equal((await stressTables()).length, 1);
  child.kill("SIGINT");
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  assert.equal(code, 1);
  assert.equal(JSON.parse(stdout).stopped, "cancelled");
  assert.deepEqual(await stressTables(), []);
});

test("tdl stress refuses a real account without --yes-real-account, and bad usage exits 2", () => {
  const real = spawnSync(
    process.execPath,
    [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--connection-string-env", "REAL"],
    {
      env: { ...process.env, REAL: "DefaultEndpointsProtocol=https;AccountName=myaccount;AccountKey=abc=;EndpointSuffix=core.windows.net" },
      encoding: "utf8",
    },
  );
  assert.equal(real.status, 2);
  assert.match(real.stderr, /is not an emulator.*--yes-real-account/);
  const bad = spawnSync(
    process.execPath,
    [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--emulator", "--mode", "sideways"],
    { encoding: "utf8" },
  );
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--mode must be single-partition, spread, design/);
});

test("tdl stress --cleanup removes a marked leftover, keeps the young, the unmarked and a live run's, and says why", async () => {
  const env = { ...process.env, TDL_TEST_TABLES: emu.connectionString };
  const kept = spawnSync(
    process.execPath,
    [
      CLI,
      "stress",
      "--design",
      "examples/marathon.tdl",
      "--table",
      "Registrations",
      "--connection-string-env",
      "TDL_TEST_TABLES",
      "--duration",
      "1s",
      "--concurrency",
      "2",
      "--keep-table",
      "--format",
      "json",
    ],
    { env, encoding: "utf8" },
  );
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

  const young = spawnSync(process.execPath, [CLI, "stress", "--cleanup", "--connection-string-env", "TDL_TEST_TABLES"], {
    env,
    encoding: "utf8",
  });
  assert.equal(young.status, 0, young.stderr);
  assert.match(
    young.stdout,
    new RegExp(
      `kept     ${leftover} \\(created \\d+ s ago on .* for marathon\\.tdl, pid \\d+\\): created \\d+ s ago, younger than asked \\(--older-than 10m\\)`,
    ),
  );
  assert.match(young.stdout, /removed 0, kept 3/);

  const r = spawnSync(process.execPath, [CLI, "stress", "--cleanup", "--older-than", "0s", "--connection-string-env", "TDL_TEST_TABLES"], {
    env,
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^3 stress… tables at 127\.0\.0\.1:\d+\n/);
  assert.match(r.stdout, new RegExp(`removed  ${leftover} \\(created`));
  assert.match(r.stdout, new RegExp(`kept     ${unmarked}: no marker: not made by a stress test of this tool, left alone`));
  assert.match(
    r.stdout,
    new RegExp(`kept     ${live} \\(.*\\): its stress test may still be running \\(process ${process.pid} on this host is alive\\)`),
  );
  assert.match(r.stdout, /removed 1, kept 2\n$/);
  assert.deepEqual(await stressTables(), [live, unmarked].sort());
  await s.deleteTable(unmarked);
  await s.deleteTable(live);
});

test("tdl stress --help, --cleanup usage and a bad connection string exit with the documented codes, quoting no secret", () => {
  const help = spawnSync(process.execPath, [CLI, "stress", "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /tdl stress --cleanup \[--older-than 10m\]/);
  for (const [args, message] of [
    [["--cleanup"], /choose one target/],
    [["--cleanup", "--emulator", "--design", "x.tdl"], /--cleanup does not take --design/],
    [["--cleanup", "--emulator", "--older-than", "soon"], /--older-than must look like 30s/],
    [
      ["--design", "examples/marathon.tdl", "--table", "Registrations", "--emulator", "--older-than", "1m"],
      /--older-than goes with --cleanup/,
    ],
    [["--design", "examples/marathon.tdl", "--table", "Registrations", "--emulator", "--preload", "-3"], /--preload needs a whole number/],
    [
      ["--design", "examples/marathon.tdl", "--table", "Registrations", "--emulator", "--scale", "fast"],
      /--scale needs a positive number, not 'fast'/,
    ],
  ] as const) {
    const r = spawnSync(process.execPath, [CLI, "stress", ...args], { encoding: "utf8" });
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  const secret = "c2VjcmV0LWtleS0xMjM0NTY3ODkw$$";
  const bad = spawnSync(
    process.execPath,
    [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--connection-string-env", "BAD"],
    { env: { ...process.env, BAD: `AccountName=a;AccountKey=${secret}` }, encoding: "utf8" },
  );
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /the connection string in BAD: /);
  assert.ok(!bad.stderr.includes(secret.slice(0, 8)), bad.stderr);
});

test("tdl stress prints a summary a person reads — the verdict, the hottest partition against its target, each operation — and JSON only when asked", async () => {
  const env = { ...process.env, TDL_TEST_TABLES: emu.connectionString };
  const args = [
    CLI,
    "stress",
    "--design",
    "examples/ledger.tdl",
    "--table",
    "Ledger",
    "--connection-string-env",
    "TDL_TEST_TABLES",
    "--mode",
    "design",
    "--duration",
    "2s",
    "--concurrency",
    "8",
  ];
  const text = spawnSync(process.execPath, args, { env, encoding: "utf8" });
  assert.equal(text.status, 0, text.stderr);
  const lines = text.stdout.split("\n");
  assert.match(lines[0], /^design on emulator · design table Ledger · \d+\.\d s at concurrency 8 · stress table stress[0-9a-f]{10}$/);
  assert.match(
    lines[1],
    /^verdict: OK: no partition would run hot\. The hottest partition served [\d.,]+ entit(y|ies)\/s, under the target of [\d.,]+\.$/,
  );
  assert.match(lines[2], /^ {2}hottest partition [\d.,]+ entit(y|ies)\/s against a target of [\d.,]+ entit(y|ies)\/s; nothing throttled$/);
  assert.match(
    lines[3],
    /^scaled: this machine served [\d,]+ entities\/s in the calibration probe; targets and the design's rates × [\d.e-]+ \(partition [\d.,]+ entit(y|ies)\/s, account [\d.,]+ entit(y|ies)\/s\)$/,
  );
  assert.match(text.stdout, /\n {2}operation +calls +entities\/s +p50 ms +p99 ms {2}errors\n/);
  assert.match(
    text.stdout,
    /\n {2}transaction +[1-9][\d,]* +[\d.,]+ +[\d.]+ +[\d.]+ {2}none\n/,
    "Transfer ran as entity group transactions, without errors",
  );
  // The cost line: the design's declared load as tdl cost prices it, then the run's own bill.
  assert.match(
    lines[4],
    /^cost: The design's declared load \(table Ledger\) costs ≈ \$[\d.,]+ a month on Table Storage, as tdl cost prices it /,
  );
  // One table of the patterns' figures, side by side, with its legend.
  assert.match(text.stdout, /\n {2}pattern +ran as +planned +offered +sent +served +throttled {2}calls\n/);
  assert.match(text.stdout, /\n {2}Transfer +transaction +300 +[\d.,]+ +[\d.,]+ +[\d.,]+ +[\d.,]+ {2}[1-9][\d,]*\n/);
  assert.match(text.stdout, /\n {2}ByTransfer +row-range as key-range query +50 +[\d.,]+ +[\d.,]+ +[\d.,]+ +[\d.,]+ {2}[\d,]+\n/);
  assert.match(text.stdout, /\n {4}served \(calls\/s\): the calls the service answered with success, per second of the run\.\n/);
  assert.ok(!text.stdout.includes("{"), "no JSON in the summary");
  assert.ok(text.stdout.split("\n").length < 30, `a summary, not a report: ${text.stdout.split("\n").length} lines`);

  const json = spawnSync(process.execPath, [...args, "--format", "json"], { env, encoding: "utf8" });
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.equal(report.design.table, "Ledger");
  assert.ok(report.operations.transaction.count > 0);
  assert.deepEqual(await stressTables(), []);
});

test("tdl stress: bad --table, --duration and --format values are usage errors (exit 2) found before anything starts; a run that fails exits 1", () => {
  for (const [extra, message] of [
    [["--table", "Nope", "--emulator"], /examples\/ledger\.tdl: no table 'Nope' \(tables: LedgerByAccount, Ledger\)/],
    [["--table", "Ledger", "--emulator", "--duration", "0s"], /--duration must be longer than 0, not '0s'/],
    [["--table", "Ledger", "--emulator", "--duration", "soon"], /--duration must look like 30s/],
    [["--table", "Ledger", "--emulator", "--duration", "-5s"], /--duration must look like 30s/],
    [["--table", "Ledger", "--emulator", "--format", "xml"], /--format must be text or json, not 'xml'/],
  ] as const) {
    const started = performance.now();
    const r = spawnSync(process.execPath, [CLI, "stress", "--design", "examples/ledger.tdl", ...extra], { encoding: "utf8" });
    assert.equal(r.status, 2, `${extra.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /creating the stress table/, "refused before any emulator or table");
    assert.ok(performance.now() - started < 15_000);
  }
  // Nothing listens on a port just freed: the run fails (exit 1) and says where, in words.
  const dead = spawnSync(
    process.execPath,
    [CLI, "stress", "--design", "examples/ledger.tdl", "--table", "Ledger", "--connection-string-env", "DEAD", "--duration", "1s"],
    {
      env: {
        ...process.env,
        DEAD: "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:9/devstoreaccount1;",
      },
      encoding: "utf8",
    },
  );
  assert.equal(dead.status, 1, dead.stderr);
  assert.match(dead.stderr, /the stress test failed while creating the table at 127\.0\.0\.1:9/);
});
