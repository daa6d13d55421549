/**
 * Regression tests of issue 10 for `tdl`: hostile files never print a stack
 * trace, one bad file never hides the others, exit codes say what happened,
 * and every subcommand answers --help.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, chmodSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { runCheck } from "@cli/commands/check";
import { TdlAnalyzer } from "@core";
import { RULES } from "@core/rules";
import { Rule } from "@core/rules/rule";

const CLI = process.env.TDL_CLI ? path.resolve(process.env.TDL_CLI) : path.resolve("dist/cli.js");
const MARATHON = readFileSync("examples/marathon.tdl", "utf8");
/** A frame of a JavaScript stack trace, as Node prints them. */
const STACK_FRAME = /^\s+at .*(:\d+:\d+\)?|<anonymous>\)?)$/m;

function tdl(args: string[], cwd = process.cwd(), input?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    input,
    env: { ...process.env, TDL_DEBUG: "" },
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status, signal: r.signal };
}

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-rel-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const design = (filter: string) =>
  `table Orders {\n  A: int(0..9)\n  partitionKey = pad(A, 1)\n  rowKey = "x"\n  query Q filter "${filter}"\n}\n`;
type Json = { files: Array<{ path: string; diagnostics: Array<{ code: string; severity: string }> }>; summary: { errors: number } };

test("a file that trips the analysis ('-.' in a filter) does not hide the others, in any format, and prints no stack trace", () => {
  const dir = workspace({ "a-bad.tdl": design("A eq -."), "b-good.tdl": MARATHON });
  const alone = JSON.parse(tdl(["check", "b-good.tdl", "--format", "json"], dir).stdout) as Json;
  const json = tdl(["check", ".", "--format", "json"], dir);
  assert.doesNotMatch(json.stderr + json.stdout, STACK_FRAME);
  const report = JSON.parse(json.stdout) as Json;
  assert.deepEqual(
    report.files.map((f) => f.path),
    ["a-bad.tdl", "b-good.tdl"],
  );
  assert.deepEqual(report.files[1], alone.files[0]);
  const bad = report.files[0].diagnostics;
  assert.ok(
    bad.some((d) => d.severity === "error"),
    "the bad file shows an error",
  );
  assert.equal(json.code, bad.some((d) => d.code === "internal") ? 3 : 1);

  const text = tdl(["check", "."], dir);
  assert.doesNotMatch(text.stderr + text.stdout, STACK_FRAME);
  assert.match(text.stdout, /^b-good\.tdl:29:9 hint query\/class row-range/m);
  assert.match(text.stdout, /^a-bad\.tdl:\d+:\d+ error /m);
  const sarif = JSON.parse(tdl(["check", ".", "--format", "sarif"], dir).stdout);
  const uris = sarif.runs[0].results.map(
    (r: { locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) =>
      r.locations[0].physicalLocation.artifactLocation.uri,
  );
  assert.ok(uris.includes("b-good.tdl") && uris.includes("a-bad.tdl"), uris.join(", "));
});

/** Throws on tables whose text mentions BOOM, as a buggy rule fails on one shape of input. */
const throwing: Rule = {
  code: "test/throws",
  severity: "error",
  family: "Syntax and meaning",
  docs: { summary: "throws on BOOM", why: "a test" },
  messages: {},
  checkTable(ctx) {
    if (ctx.text.includes("BOOM")) throw new Error("boom in a rule");
  },
};

test("a rule that throws: exit 3, an internal diagnostic on that file in text, JSON and SARIF, the other files reported", () => {
  const dir = workspace({ "bad.tdl": MARATHON.replace("Name:     string(40)", "Name:     string(40) // BOOM"), "good.tdl": MARATHON });
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const run = (format: "text" | "json" | "sarif") =>
      runCheck(["."], { format, analysis: {}, newAnalyzer: () => new TdlAnalyzer([...RULES, throwing]) }, "test");
    const json = run("json");
    assert.equal(json.exitCode, 3);
    const report = JSON.parse(json.output) as Json;
    const internal = report.files[0].diagnostics.filter((d) => d.code === "internal");
    assert.equal(internal.length, 1);
    assert.match((internal[0] as unknown as { message: string }).message, /boom in a rule/);
    assert.deepEqual(
      report.files[1].diagnostics.map((d) => d.code),
      ["query/class", "query/class"],
    );
    const text = run("text");
    assert.match(text.output, /^bad\.tdl:\d+:\d+ error internal .*boom in a rule/m);
    assert.match(text.output, /^good\.tdl:29:9 hint query\/class/m);
    assert.doesNotMatch(text.output + text.stderr, STACK_FRAME);
    const sarif = JSON.parse(run("sarif").output);
    const [invocation] = sarif.runs[0].invocations;
    assert.equal(invocation.executionSuccessful, false);
    assert.equal(invocation.toolExecutionNotifications[0].locations[0].physicalLocation.artifactLocation.uri, "bad.tdl");
    assert.match(invocation.toolExecutionNotifications[0].message.text, /boom in a rule/);
  } finally {
    process.chdir(cwd);
  }
});

test("a file that cannot be read is named on stderr and the others are still checked (exit 2); a PATH that is not there is named alone", () => {
  const dir = workspace({ "a.tdl": MARATHON, "locked.tdl": MARATHON });
  const root = process.getuid?.() === 0;
  if (!root) chmodSync(path.join(dir, "locked.tdl"), 0o000);
  // A misspelt PATH is a mistake on the command line: nothing is checked beside it (cli/validate.ts).
  const missing = tdl(["check", ".", "missing.tdl", "--format", "json"], dir);
  assert.deepEqual([missing.code, missing.stdout, missing.stderr], [2, "", "tdl: missing.tdl: no such file or folder\n"]);
  const r = tdl(["check", ".", "--format", "json"], dir);
  if (!root) assert.equal(r.code, 2);
  assert.equal(r.stderr, root ? "" : "tdl: locked.tdl: cannot read (EACCES)\n");
  assert.deepEqual(
    (JSON.parse(r.stdout) as Json).files.map((f) => f.path),
    root ? ["a.tdl", "locked.tdl"] : ["a.tdl"],
  );
});

test("a FIFO and a 65 MiB file are refused by name instead of blocking or exhausting memory; the others are checked", () => {
  const dir = workspace({ "a.tdl": MARATHON });
  assert.equal(spawnSync("mkfifo", [path.join(dir, "pipe.tdl")]).status, 0);
  // Sparse: 65 MiB of size without 65 MiB of disk.
  writeFileSync(path.join(dir, "huge.tdl"), "");
  truncateSync(path.join(dir, "huge.tdl"), 65 * 2 ** 20);
  const r = tdl(["check", "pipe.tdl", "huge.tdl", "a.tdl", "--format", "json"], dir);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "tdl: pipe.tdl: not a regular file\ntdl: huge.tdl: too large to analyse (65 MiB; the limit is 64 MiB)\n");
  assert.deepEqual(
    (JSON.parse(r.stdout) as Json).files.map((f) => f.path),
    ["a.tdl"],
  );
});

test("--help and -h work on every subcommand (stdout, exit 0); unknown options exit 2 naming the option", () => {
  for (const sub of ["check", "classify", "fix", "stress", "emulator", "infer"]) {
    for (const flag of ["--help", "-h"]) {
      const r = tdl([sub, flag]);
      assert.equal(r.code, 0, `${sub} ${flag}: ${r.stderr}`);
      assert.match(r.stdout, new RegExp(`^Usage:\\n  tdl ${sub} `), `${sub} ${flag}`);
      assert.equal(r.stderr, "");
    }
    const bad = tdl([sub, "--frobnicate"]);
    assert.equal(bad.code, 2, sub);
    assert.equal(bad.stderr, `tdl: unknown option --frobnicate\nRun 'tdl ${sub} --help' for usage.\n`);
  }
  assert.match(tdl(["check", "-x", "a.tdl"]).stderr, /^tdl: unknown option -x /);
  assert.equal(tdl(["help", "fix"]).stdout, tdl(["fix", "--help"]).stdout);
  assert.equal(tdl(["-h"]).code, 0);
  assert.deepEqual([tdl(["constructor"]).code, tdl(["toString", "--help"]).code], [2, 2]);
});

test("classify: hostile filters exit 0, 2 (with the position) or 3, never with a stack trace", () => {
  const filters = [
    `${"(".repeat(3000)}A eq 1${")".repeat(3000)}`,
    `${"not ".repeat(7500)}B`,
    "A eq -.",
    "'",
    "",
    " ",
    "A eq 1 and ".repeat(5_000) + "B",
    "A eq 1".repeat(10_000),
  ];
  // NUL cannot travel in an argument; a filter longer than an argument may be: both come on stdin.
  const viaStdin = ["A eq 1\u0000", `PartitionKey eq '${"a".repeat(200_000)}'`];
  for (const [filter, stdin] of [...filters.map((f) => [f, false] as const), ...viaStdin.map((f) => [f, true] as const)]) {
    const r = stdin ? tdl(["classify", "-"], undefined, filter) : tdl(["classify", "--", filter]);
    assert.ok(r.code === 0 || r.code === 2 || r.code === 3, `${filter.slice(0, 30)}: exit ${r.code} ${r.signal ?? ""}`);
    assert.doesNotMatch(r.stdout + r.stderr, STACK_FRAME, filter.slice(0, 30));
    if (r.code === 2) assert.match(r.stderr, /^tdl: the filter does not parse at character \d+: /);
    // The echo of the filter is bounded, whatever its length.
    assert.ok(r.stderr.length < 1000, `${r.stderr.length} characters on stderr`);
  }
  const long = tdl(["classify", "-"], undefined, `PartitionKey eq '${"a".repeat(200_000)}'\n`);
  assert.deepEqual([long.code, long.stdout.split("\n")[0]], [0, "row-range · 1 partition"]);
});

test("classify '-.' exits 2 with the position of the bad number", () => {
  const r = tdl(["classify", "A eq -."]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^tdl: the filter does not parse at character (6|7): /);
});

test("fix: a file that cannot be fixed is left unchanged and reported; the others are fixed", () => {
  const broken = design("A eq -.");
  const dir = workspace({ "a.tdl": readFileSync("examples/student-cards/composite-colon.tdl", "utf8"), "b.tdl": broken });
  const r = tdl(["fix", "."], dir);
  assert.doesNotMatch(r.stdout + r.stderr, STACK_FRAME);
  assert.match(r.stdout, /^a\.tdl: 1 fix \(key\/separator-order\)$/m);
  assert.equal(readFileSync(path.join(dir, "b.tdl"), "utf8"), broken);
  assert.equal(r.code, /^b\.tdl: not fixed, internal failure/m.test(r.stdout) ? 3 : 0);
});

test("a closed pipe ends tdl check quietly", () => {
  const files: Record<string, string> = {};
  // Past the pipe's 64 KiB buffer, so that writes fail once head has gone.
  for (let i = 0; i < 1000; i++) files[`d${i}.tdl`] = MARATHON;
  const dir = workspace(files);
  const r = spawnSync("sh", ["-c", `"${process.execPath}" "${CLI}" check . | head -c 10`], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  assert.equal(r.stdout.length, 10);
  assert.doesNotMatch(r.stderr, STACK_FRAME);
  assert.doesNotMatch(r.stderr, /EPIPE/);
});
