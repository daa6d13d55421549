import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const CLI = path.resolve("dist/cli.js");

function tdl(args: string[], cwd = process.cwd()) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-cli-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const GOOD = 'table Orders {\n  A: int(0..99)\n  partitionKey = pad(A, 2)\n  rowKey = "x"\n}\n';
const BAD = 'table Orders {\n  A: int(0..99)\n  partitionKey = pad(B, 2)\n  rowKey = "x"\n}\n';

test("check --format json prints the documented JSON shape and exits 1 on errors", () => {
  const dir = workspace({ "designs/bad.tdl": BAD, "designs/good.tdl": GOOD });
  const r = tdl(["check", "designs", "--format", "json"], dir);
  assert.equal(r.code, 1);
  const json = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(json), ["files", "summary"]);
  assert.deepEqual(
    json.files.map((f: { path: string }) => f.path),
    ["designs/bad.tdl", "designs/good.tdl"],
  );
  const [d] = json.files[0].diagnostics;
  assert.deepEqual(d, {
    code: "unknown-property",
    severity: "error",
    message: "unknown property 'B': table 'Orders' does not declare it (it declares A)",
    range: { start: { line: 2, character: 21 }, end: { line: 2, character: 22 } },
    fixes: [],
  });
  assert.deepEqual(json.files[1], { path: "designs/good.tdl", diagnostics: [], queries: [] });
  assert.deepEqual(json.summary, { errors: 1, warnings: 0, infos: 0, hints: 0 });
});

test("check prints compiler-style text and exits 0 when clean", () => {
  const dir = workspace({ "a.tdl": BAD, "b.tdl": GOOD });
  const bad = tdl(["check", "a.tdl"], dir);
  assert.equal(bad.code, 1);
  assert.equal(
    bad.stdout.split("\n")[0],
    "a.tdl:3:22 error unknown-property unknown property 'B': table 'Orders' does not declare it (it declares A)",
  );
  const good = tdl(["check", "b.tdl"], dir);
  assert.equal(good.code, 0);
  assert.equal(good.stdout, "1 file checked: 0 errors, 0 warnings, 0 info, 0 hints\n");
});

test("folders honour .gitignore and skip node_modules", () => {
  const dir = workspace({
    ".gitignore": "generated/\n*.skip.tdl\n",
    "keep.tdl": GOOD,
    "generated/x.tdl": BAD,
    "y.skip.tdl": BAD,
    "node_modules/pkg/z.tdl": BAD,
    "sub/.gitignore": "local.tdl\n",
    "sub/local.tdl": BAD,
    "sub/kept.tdl": GOOD,
  });
  const r = tdl(["check", ".", "--format", "json"], dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(
    JSON.parse(r.stdout).files.map((f: { path: string }) => f.path),
    ["keep.tdl", "sub/kept.tdl"],
  );
});

test("sarif output is SARIF 2.1.0 with results and rules", () => {
  const dir = workspace({ "a.tdl": BAD });
  const r = tdl(["check", "a.tdl", "--format", "sarif"], dir);
  const sarif = JSON.parse(r.stdout);
  assert.equal(sarif.version, "2.1.0");
  const [result] = sarif.runs[0].results;
  assert.equal(result.ruleId, "unknown-property");
  assert.equal(result.level, "error");
  assert.deepEqual(result.locations[0].physicalLocation.region, { startLine: 3, startColumn: 22, endLine: 3, endColumn: 23 });
  assert.deepEqual(
    sarif.runs[0].tool.driver.rules.map((x: { id: string }) => x.id),
    ["unknown-property"],
  );
});

test("bad usage and unreadable paths exit 2 with a clear message", () => {
  const dir = workspace({ "a.tdl": GOOD, "locked/b.tdl": GOOD });
  assert.deepEqual(pick(tdl(["check", "missing.tdl"], dir)), { code: 2, stderr: "tdl: missing.tdl: no such file or folder\n" });
  assert.deepEqual(pick(tdl(["check", "a.tdl", "--format", "xml"], dir)).code, 2);
  assert.match(tdl(["check", "a.tdl", "--format", "xml"], dir).stderr, /--format must be text, json or sarif, not 'xml'/);
  assert.match(tdl(["frobnicate"], dir).stderr, /unknown command 'frobnicate'/);
  assert.equal(tdl(["check"], dir).code, 2);
  if (process.getuid?.() !== 0) {
    chmodSync(path.join(dir, "locked/b.tdl"), 0o000);
    assert.equal(tdl(["check", "locked/b.tdl"], dir).code, 2);
  }
  const help = tdl(["--help"], dir);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /tdl check PATH\.\.\. \[--format text\|json\|sarif\]/);
});

test("--max-warnings fails a run with more warnings than allowed", () => {
  // GOOD has no warnings; by-seller has one.
  const dir = workspace({ "a.tdl": GOOD, "hot.tdl": readFileSync("examples/student-cards/by-seller.tdl", "utf8") });
  assert.equal(tdl(["check", "a.tdl", "--max-warnings", "0"], dir).code, 0);
  assert.equal(tdl(["check", "hot.tdl"], dir).code, 0);
  assert.equal(tdl(["check", "hot.tdl", "--max-warnings", "0"], dir).code, 1);
  assert.equal(tdl(["check", "hot.tdl", "--max-warnings", "1"], dir).code, 0);
  assert.equal(tdl(["check", "a.tdl", "--max-warnings", "x"], dir).code, 2);
});

function pick(r: { code: number | null; stderr: string }) {
  return { code: r.code, stderr: r.stderr };
}

test("check --format json lists every query with its class and estimates", () => {
  const r = tdl(["check", "examples/marathon.tdl", "--format", "json"]);
  assert.equal(r.code, 0);
  assert.deepEqual(JSON.parse(r.stdout).files[0].queries, [
    { table: "Registrations", name: "ByBib", class: "row-range", partitions: 1, scanned: 1, returned: 1 },
    { table: "Registrations", name: "ByAge", class: "row-range", partitions: 1, scanned: 333, returned: 333 },
  ]);
});

test("classify prints the class, with estimates from a design; a bad filter exits 2 with its position", () => {
  const plain = tdl(["classify", "PartitionKey eq 'a' and (RowKey eq '1' or RowKey eq '2')"]);
  assert.equal(plain.code, 0);
  assert.equal(plain.stdout.split("\n")[0], "row-range · 1 partition");
  const json = tdl(["classify", "Event eq 'x'", "--design", "examples/marathon.tdl", "--table", "Registrations", "--format", "json"]);
  assert.deepEqual(JSON.parse(json.stdout).class, "table-scan");
  assert.deepEqual([JSON.parse(json.stdout).partitions, JSON.parse(json.stdout).scanned], [600, 4_000_000]);
  const bad = tdl(["classify", "PartitionKey eq 'a' and RowKey gt"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /does not parse at character 34: expected a property name or a literal/);
  assert.match(
    tdl(["classify", "RowKey eq 'a'", "--design", "examples/marathon.tdl", "--table", "Nope"]).stderr,
    /no table 'Nope' \(tables: Registrations\)/,
  );
});

test("fix applies checked fixes and reports each with what it leaves; the files then check clean of those codes", () => {
  const dir = workspace({
    "a.tdl": readFileSync("examples/student-cards/composite-colon.tdl", "utf8"),
    "b.tdl": readFileSync("examples/student-cards/by-order-number.tdl", "utf8"),
    "c.tdl": GOOD,
  });
  const r = tdl(["fix", "."], dir);
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    "a.tdl: 1 fix (key/separator-order)\n" +
      '  key/separator-order at PurchasesCompositeColon/partitionKey: Use "," as the separator: it sorts below every character before it; leaves nothing to fix\n' +
      "b.tdl: 1 fix (partition/append-only)\n" +
      '  partition/append-only at PurchasesByOrderNumber/partitionKey: Prefix hash(OrderNumber, 4) + ",": scatters consecutive values over 65,536 prefixes (range reads over OrderNumber then scan); leaves nothing to fix\n' +
      "2 fixes applied\n",
  );
  assert.match(
    readFileSync(path.join(dir, "a.tdl"), "utf8"),
    /partitionKey = pad\(DeviceID, 5\) \+ ":" \+ SellerID \+ "," \+ pad\(CardID, 6\)/,
  );
  const check = JSON.parse(tdl(["check", ".", "--format", "json"], dir).stdout);
  assert.deepEqual(check.summary, { errors: 0, warnings: 0, infos: 0, hints: 0 });
});
