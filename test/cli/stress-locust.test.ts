/**
 * The Locust forms of `tdl stress` through the built CLI: `--export locust
 * DIR` writes the folder (and refuses what it cannot use before writing),
 * `--ingest DIR` turns workers' records into the report with the figures
 * they hold, and `--engine locust` says how to install Locust when it is
 * missing — before any emulator or table is started.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const CLI = path.resolve("dist/cli.js");
const DESIGN = path.resolve("examples/student-cards/by-seller.tdl");

function tdl(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(process.execPath, [CLI, "stress", ...args], { encoding: "utf8", env });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

const temp = () => mkdtempSync(path.join(tmpdir(), "tdl-locust-cli-"));

test("--export locust DIR writes the folder for the emulator, signing with SharedKeyLite (Azurite refuses batches under a table SAS)", () => {
  const dir = path.join(temp(), "out");
  const r = tdl([
    "--export",
    "locust",
    dir,
    "--design",
    DESIGN,
    "--table",
    "PurchasesBySeller",
    "--emulator",
    "--mode",
    "spread",
    "--engines",
    "2",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(dir).sort(), [
    ".gitignore",
    "PurchasesBySeller_keys.py",
    "README.md",
    "loadtest.yaml",
    "locustfile.py",
    "run.json",
    "tdl-locust.conf",
    "tdl_locust.py",
    "tdl_workload.py",
  ]);
  assert.match(
    readFileSync(path.join(dir, "loadtest.yaml"), "utf8"),
    /- name: TDL_ACCOUNT_KEY\n {4}value: "https:\/\/YOUR-KEY-VAULT\.vault\.azure\.net\/secrets\/tdl-account-key"\n/,
  );
  assert.doesNotMatch(
    readdirSync(dir)
      .map((f) => readFileSync(path.join(dir, f), "utf8"))
      .join("\n"),
    /Eby8vdM02xNOcqFlqUwJPLlm|sig=/,
  );
  assert.match(r.stdout, /^spread workload of PurchasesBySeller into the table stress[0-9a-f]{10}: a closed load for 30 s on 2 engines$/m);
  const meta = JSON.parse(readFileSync(path.join(dir, "run.json"), "utf8"));
  assert.equal(meta.mode, "spread");
  assert.equal(meta.workers, 2);
  assert.equal(meta.target, "emulator");
});

test("--export refuses what it cannot use, before writing anything", () => {
  const base = temp();
  const dir = path.join(base, "out");
  const cases: Array<[string[], RegExp]> = [
    [["--export", "locust", "--design", DESIGN, "--table", "PurchasesBySeller", "--emulator"], /--export needs one DIR/],
    [["--export", "locust", dir, "--emulator"], /--export needs --design FILE and --table NAME/],
    [
      ["--export", "locust", dir, "--design", DESIGN, "--table", "PurchasesBySeller", "--emulator", "--workers", "2"],
      /--export does not take --workers/,
    ],
    [
      ["--export", "locust", dir, "--design", DESIGN, "--table", "PurchasesBySeller", "--emulator", "--mode", "spread"],
      /needs --rate N .* or --engines N/,
    ],
    [["--export", "azure", dir, "--design", DESIGN, "--table", "PurchasesBySeller", "--emulator"], /--export must be locust, not 'azure'/],
  ];
  for (const [args, message] of cases) {
    const r = tdl(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.equal(existsSync(dir), false);
});

/** Two workers' records of a two-second run: one partition throttled, one not. */
const RECORDS = {
  "vm-1.jsonl": [
    { w: "vm-1", preloaded: 10, min: "a", max: "b" },
    { w: "vm-1", start: 1000.0, deadline: 1002.0 },
    { t: 1000, w: "vm-1", pk: "a", e: 10, th: 2, new: 10 },
    {
      t: 1000,
      w: "vm-1",
      op: "insert",
      n: 10,
      e: 10,
      r: 2,
      sc: 0,
      pg: 0,
      err: { "503": 1 },
      codes: { ServerBusy: 1 },
      lat: { "1000": 5, "2000": 5 },
    },
    { t: 1000, w: "vm-1", src: "Purchase", calls: 11, failed: 1, th: 2 },
    { t: 1000, w: "vm-1", throttled: { partition: 2, account: 0 } },
    { t: 1001, w: "vm-1", pk: "a", e: 10, th: 0, new: 10 },
    { t: 1001, w: "vm-1", op: "insert", n: 10, e: 10, r: 0, sc: 0, pg: 0, err: {}, codes: {}, lat: { "3000": 10 } },
    { t: 1001, w: "vm-1", src: "Purchase", calls: 10, failed: 0, th: 0 },
    { w: "vm-1", stop: 1002.0, pace: { sent: 21, dropped: 0, perSecond: 10 } },
  ],
  "vm-2.jsonl": [
    { w: "vm-2", start: 1000.5, deadline: 1002.5 },
    { t: 1001, w: "vm-2", pk: "b", e: 5, th: 0, new: 5 },
    { t: 1001, w: "vm-2", op: "insert", n: 5, e: 5, r: 0, sc: 0, pg: 0, err: {}, codes: {}, lat: { "1000": 5 } },
    { t: 1001, w: "vm-2", src: "Purchase", calls: 5, failed: 0 },
    "not json",
    { w: "vm-2", stop: 1002.5, pace: { sent: 5, dropped: 0, perSecond: 10 } },
  ],
};

test("--ingest DIR reads the workers' records into the report, without a target", () => {
  const dir = temp();
  writeFileSync(
    path.join(dir, "run.json"),
    JSON.stringify({
      tool: "table-design-assistant",
      version: "test",
      design: { file: "by-seller.tdl", table: "PurchasesBySeller" },
      mode: "design",
      table: "stress0123456789",
      target: "account",
      durationMs: 2000,
      users: 8,
      workers: 2,
      rate: 20,
      preload: 10,
      partitionTarget: 2000,
      accountTarget: 20000,
      p99Ms: 1000,
      work: [{ op: "insert", weight: 20, batch: 1, source: "Purchase" }],
      skipped: [],
    }),
  );
  mkdirSync(path.join(dir, "tdl-records"));
  for (const [name, lines] of Object.entries(RECORDS))
    writeFileSync(path.join(dir, "tdl-records", name), lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  const r = tdl(["--ingest", dir, "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.durationMs, 2500);
  assert.deepEqual(report.engine, { name: "locust", workers: 2, records: 2, skippedLines: 1 });
  assert.deepEqual(report.partitions, [
    { partitionKey: "a", entities: 20, entitiesPerSecond: 8, throttled: 2 },
    { partitionKey: "b", entities: 5, entitiesPerSecond: 2, throttled: 0 },
  ]);
  const insert = report.operations.insert;
  assert.deepEqual(
    { count: insert.count, entities: insert.entities, perSecond: insert.entitiesPerSecond, errors: insert.errors, retries: insert.retries },
    { count: 25, entities: 25, perSecond: 10, errors: { "503": 1 }, retries: 2 },
  );
  assert.deepEqual([insert.latencyMs.p50, insert.latencyMs.max], [2, 3]);
  // The figures of docs/stress-figures.md: 26 calls sent in 2.5 s, 25 served, 2 answered 503 (vm-2's records, as an
  // older worker's, say nothing of 503s per pattern: they add none).
  assert.deepEqual(report.patterns, [
    {
      name: "Purchase",
      op: "insert",
      callsPerSecond: 20,
      calls: 26,
      failed: 1,
      plannedPerSecond: 20,
      sentPerSecond: 10.4,
      servedPerSecond: 10,
      throttled: 2,
      throttledPerSecond: 0.8,
    },
  ]);
  assert.equal(report.verdict.reason, "throttled");
  assert.equal(report.verdict.throttled.partition, 2);
  assert.deepEqual(report.pace, { callsPerSecond: 20, sent: 26, dropped: 0 });
  assert.match(report.verdict.note, /Left out 1 record line that could not be read\./);

  const text = tdl(["--ingest", dir]);
  assert.match(
    text.stdout,
    /^design on account · design table PurchasesBySeller · 2\.5 s at concurrency 16 · stress table stress0123456789 · Locust, 2 workers\n/,
  );
  // A worker whose records never say its run ended stopped sending: nothing to judge the design by.
  writeFileSync(
    path.join(dir, "tdl-records", "vm-2.jsonl"),
    RECORDS["vm-2.jsonl"]
      .filter((l) => typeof l !== "string" && !("stop" in l))
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n",
  );
  const cut = tdl(["--ingest", dir]);
  assert.equal(cut.code, 1, cut.stderr);
  assert.match(
    cut.stdout,
    /^verdict: INVALID: Locust worker vm-2 stopped sending after second 2 of 2 \(its records end without the end of its run\); nothing to judge the design by: run it again$/m,
  );
  assert.equal(
    cut.stderr,
    "tdl: the run is invalid: Locust worker vm-2 stopped sending after second 2 of 2 (its records end without the end of its run).\n",
  );
  const missing = tdl(["--ingest", temp()]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /has no run\.json: it is not a folder written by tdl stress --export locust/);
});

test("--engine locust without Locust on PATH says how to install it, and starts nothing", () => {
  const empty = temp();
  const r = tdl(["--design", DESIGN, "--table", "PurchasesBySeller", "--emulator", "--engine", "locust"], { ...process.env, PATH: empty });
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    /Locust is not installed \(no 'locust' on PATH\): apt-get install python3-locust \(Debian, Ubuntu\), or pip install locust/,
  );
  assert.doesNotMatch(r.stderr, /creating the stress table/);
});
