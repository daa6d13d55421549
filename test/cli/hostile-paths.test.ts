/**
 * Regression tests of issues 24 (item 5) and 25 (item 4) for `tdl`: inputs
 * that never end (a FIFO, /dev/zero, a link to it, a FIFO .gitignore,
 * stdin from /dev/zero) are refused by name with exit 2 at once, never
 * waited on or loaded; output paths that cannot be written (under /proc, a
 * folder where a file goes, a folder that refuses files) are refused before
 * any work starts; stdout on a full disk is never a silent success.
 *
 * Each run is bounded: 4 GiB of address space (the old code grew on
 * /dev/zero until it was killed) and a timeout (it waited on a FIFO for
 * ever), so a regression fails here instead of hanging the suite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { checkOutputFile } from "@cli/destinations";

const CLI = process.env.TDL_CLI ? path.resolve(process.env.TDL_CLI) : path.resolve("dist/cli.js");
const MARATHON = readFileSync("examples/marathon.tdl", "utf8");
/** A frame of a JavaScript stack trace, as Node prints them. */
const STACK_FRAME = /^\s+at .*(:\d+:\d+\)?|<anonymous>\)?)$/m;
/** Generous on a loaded machine; the old code never answered at all. */
const PROMPT_MS = 8_000;

/** Runs tdl in `cwd` under a memory cap and a timeout; `stdin`/`stdout` may name files the shell redirects. */
function tdl(args: string[], cwd: string, o: { stdin?: string; stdout?: string } = {}) {
  const redirect = `${o.stdin ? ` < '${o.stdin}'` : ""}${o.stdout ? ` > '${o.stdout}'` : ""}`;
  const started = performance.now();
  const r = spawnSync("sh", ["-c", `ulimit -v 4194304; exec "$0" "$@"${redirect}`, process.execPath, CLI, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, TDL_DEBUG: "" },
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status, signal: r.signal, ms: performance.now() - started };
}

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-hostile-"));
  writeFileSync(path.join(dir, "marathon.tdl"), MARATHON);
  assert.equal(spawnSync("mkfifo", [path.join(dir, "pipe.tdl")]).status, 0);
  symlinkSync("/dev/zero", path.join(dir, "zero.tdl"));
  return dir;
}

/** Exit 2 promptly, stderr exactly `expected` (plus the usage hint where there is one), no stack. */
function refused(r: ReturnType<typeof tdl>, expected: RegExp, what: string) {
  assert.equal(r.signal, null, `${what}: killed by ${r.signal} after ${Math.round(r.ms)} ms (it hung or grew)`);
  assert.equal(r.code, 2, `${what}: ${r.stderr}`);
  assert.match(r.stderr, expected, what);
  assert.doesNotMatch(r.stderr, STACK_FRAME, what);
  assert.ok(r.ms < PROMPT_MS, `${what}: ${Math.round(r.ms)} ms`);
}

test("a FIFO, /dev/zero and a link to it are refused by name as a design, whatever the command", () => {
  const dir = workspace();
  for (const [file, shown] of [
    ["pipe.tdl", "pipe.tdl"],
    ["/dev/zero", "/dev/zero"],
    ["zero.tdl", "zero.tdl"],
  ]) {
    refused(tdl(["codegen", file], dir), new RegExp(`^tdl: ${shown}: not a regular file\\n$`), `codegen ${file}`);
    refused(
      tdl(["classify", "PartitionKey eq 'a'", "--design", file, "--table", "Registrations"], dir),
      new RegExp(`^tdl: ${shown}: not a regular file\\n$`),
      `classify --design ${file}`,
    );
    refused(
      tdl(["stress", "--design", file, "--table", "Registrations", "--emulator"], dir),
      new RegExp(`^tdl: ${shown}: not a regular file\\n$`),
      `stress --design ${file}`,
    );
  }
  assert.deepEqual(readdirSync(dir).sort(), ["marathon.tdl", "pipe.tdl", "zero.tdl"], "no module, no probe left behind");
});

test("check names a folder's FIFO .gitignore and still checks the folder; stdin from /dev/zero is refused past 64 MiB", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-hostile-"));
  mkdirSync(path.join(dir, "designs"));
  writeFileSync(path.join(dir, "designs", "marathon.tdl"), MARATHON);
  assert.equal(spawnSync("mkfifo", [path.join(dir, "designs", ".gitignore")]).status, 0);
  const r = tdl(["check", "designs", "--format", "json"], dir);
  refused(r, /^tdl: designs\/\.gitignore: not a regular file\n$/, "check with a FIFO .gitignore");
  assert.deepEqual(
    (JSON.parse(r.stdout) as { files: Array<{ path: string }> }).files.map((f) => f.path),
    ["designs/marathon.tdl"],
  );
  refused(tdl(["classify", "-"], dir, { stdin: "/dev/zero" }), /^tdl: stdin: longer than 64 MiB\n$/, "classify - < /dev/zero");
});

test("output paths that cannot be written are refused before any work: codegen --out, emulator --record, stress --report, infer --out", () => {
  const dir = workspace();
  writeFileSync(path.join(dir, "a-file"), "not a folder\n");
  const cases: Array<[string[], RegExp]> = [
    [
      ["codegen", "marathon.tdl", "--out", "/proc/tdl-out"],
      /^tdl: \/proc\/tdl-out: cannot write into the folder \(ENOENT: nothing can be created there\)\n$/,
    ],
    [["codegen", "marathon.tdl", "--out", "/proc/tdl/deeper"], /^tdl: \/proc\/tdl\/deeper: cannot write into the folder \(ENOENT/],
    [["codegen", "marathon.tdl", "--out", "a-file/keys"], /^tdl: a-file\/keys: cannot create the folder \(.*a-file is a file\)\n$/],
    [["emulator", "--port", "0", "--record", "/proc/tdl-traffic.jsonl"], /^tdl: \/proc\/tdl-traffic\.jsonl: cannot write \(ENOENT/],
    [
      ["emulator", "--port", "0", "--record", "a-file/traffic.jsonl"],
      /^tdl: a-file\/traffic\.jsonl: cannot write \(ENOTDIR: a file is on the way\)\n$/,
    ],
    [["emulator", "--port", "0", "--record", "."], /^tdl: \.: cannot write \(a folder, not a file\)\n$/],
    [["emulator", "--port", "0", "--record", "pipe.tdl"], /^tdl: pipe\.tdl: cannot write \(ENXIO: a pipe nothing reads\)\n$/],
    [
      [
        "stress",
        "--design",
        "marathon.tdl",
        "--table",
        "Registrations",
        "--emulator",
        "--duration",
        "1s",
        "--report",
        "/proc/tdl-report.json",
      ],
      /^tdl: \/proc\/tdl-report\.json: cannot write \(ENOENT/,
    ],
    [
      ["infer", "--table", "T", "--account-url", "http://127.0.0.1:9/devstoreaccount1?sv=2020-08-04&sig=x", "--out", "/proc/tdl.tdl"],
      /^tdl: \/proc\/tdl\.tdl: cannot write \(ENOENT/,
    ],
  ];
  if (process.getuid?.() === 0) {
    // Root may write anywhere the permission bits say no; /sys refuses even root.
    cases.push([["codegen", "marathon.tdl", "--out", "/sys/kernel"], /^tdl: \/sys\/kernel: cannot write into the folder \(EACCES/]);
  } else {
    mkdirSync(path.join(dir, "locked"), { mode: 0o555 });
    cases.push([
      ["codegen", "marathon.tdl", "--out", "locked"],
      /^tdl: locked: cannot write into the folder \(EACCES: permission denied\)\n$/,
    ]);
  }
  for (const [args, message] of cases) {
    const r = tdl(args, dir);
    refused(r, message, args.join(" "));
    assert.doesNotMatch(r.stderr, /creating the stress table|Table emulator on|reading T/, `${args[0]}: nothing started`);
  }
  assert.ok(!existsSync(path.join(dir, "Registrations.keys.ts")));
  assert.deepEqual(readdirSync(dir).sort(), [
    "a-file",
    "marathon.tdl",
    "pipe.tdl",
    "zero.tdl",
    ...(process.getuid?.() === 0 ? [] : ["locked"]),
  ]);
});

test("stdout on a full disk is said on stderr with exit 2, never a silent 0; a help that cannot be written too", () => {
  const dir = workspace();
  const check = tdl(["check", "marathon.tdl"], dir, { stdout: "/dev/full" });
  assert.equal(check.code, 2, check.stderr);
  assert.equal(check.stderr, "tdl: the output could not be written to stdout (ENOSPC): it is incomplete\n");
  const json = tdl(["check", "marathon.tdl", "--format", "sarif"], dir, { stdout: "/dev/full" });
  assert.equal(json.code, 2, json.stderr);
  const help = tdl(["--help"], dir, { stdout: "/dev/full" });
  assert.equal(help.code, 2, help.stderr);
  assert.match(help.stderr, /could not be written to stdout \(ENOSPC\)/);
  // The same run on a disk with room: exit 0, so the 2 above is the disk's.
  assert.equal(tdl(["check", "marathon.tdl"], dir, { stdout: "/dev/null" }).code, 0);
});

test("a reader that goes away (| head) ends any output quietly: no stack, no EPIPE, the run's own exit code", () => {
  const dir = workspace();
  const designs = path.join(dir, "many");
  mkdirSync(designs);
  // Past the pipe's 64 KiB buffer, so that writes fail once head has gone.
  for (let i = 0; i < 300; i++) writeFileSync(path.join(designs, `d${i}.tdl`), MARATHON);
  for (const args of [["check", "many", "--format", "json"], ["check", "many", "--format", "sarif"], ["--help"]]) {
    const r = spawnSync("bash", ["-c", `"${process.execPath}" "${CLI}" ${args.join(" ")} | head -c 10; echo " exit \${PIPESTATUS[0]}"`], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(Buffer.byteLength(r.stdout.replace(/ exit \d+\n$/, "")), 10, args.join(" "));
    assert.match(r.stdout, / exit 0\n$/, args.join(" "));
    assert.doesNotMatch(r.stderr, STACK_FRAME, args.join(" "));
    assert.doesNotMatch(r.stderr, /EPIPE/, args.join(" "));
  }
});

test("a pipe with a reader is a place to write (--report /dev/stdout | jq); one nothing reads is refused", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-fifo-"));
  const fifo = path.join(dir, "out");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
  assert.throws(() => checkOutputFile(fifo), /out: cannot write \(ENXIO: a pipe nothing reads\)/);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    assert.doesNotThrow(() => checkOutputFile(fifo));
  } finally {
    closeSync(reader);
    rmSync(dir, { recursive: true, force: true });
  }
});
