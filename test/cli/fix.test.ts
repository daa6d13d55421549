/**
 * `tdl fix` applies checked fixes until none is left (issue #20): on the
 * newcomer's daily order key it reaches a clean design in one run, says
 * each fix with what it leaves, and `check --format json` gives each fix
 * its check. `--unchecked` is the old way, kept for comparison.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const CLI = path.resolve("dist/cli.js");
const DATE_KEYS = readFileSync("test/fixtures/newcomer/date-keys.tdl", "utf8");

function tdl(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

function design(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-fix-"));
  writeFileSync(path.join(dir, "orders.tdl"), text);
  return dir;
}

test("tdl fix takes the daily order key to a clean design in one run, each fix said with what it leaves", () => {
  const dir = design(DATE_KEYS);
  const r = tdl(["fix", "orders.tdl"], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    "orders.tdl: 1 fix (partition/append-only)\n" +
      '  partition/append-only at Orders/partitionKey: Prefix bucket(OrderId, 4) + ",": spreads the moment\'s writes over 4 partitions ' +
      "(OrderId identifies the entity and never changes); ByDay then fans out to 4 requests; leaves nothing to fix\n" +
      "1 fix applied\n",
  );
  assert.match(
    readFileSync(path.join(dir, "orders.tdl"), "utf8"),
    /partitionKey = bucket\(OrderId, 4\) \+ "," \+ date\(OrderDate, "yyyyMMdd"\)/,
  );
  const check = JSON.parse(tdl(["check", "orders.tdl", "--format", "json"], dir).stdout);
  assert.deepEqual(check.summary, { errors: 0, warnings: 0, infos: 1, hints: 1 }, "the query's class hint only");
  assert.deepEqual(check.files[0].queries[0], {
    table: "Orders",
    name: "ByDay",
    class: "partition-range",
    partitions: 4,
    scanned: 1500,
    returned: 1500,
  });
  // A second run has nothing left to do.
  assert.equal(tdl(["fix", "orders.tdl"], dir).stdout, "0 fixes applied\n");
});

test("tdl check --format json gives each fix its check: accepted ones first, then the refused with the reason", () => {
  const dir = design(DATE_KEYS);
  const r = tdl(["check", "orders.tdl", "--format", "json"], dir);
  const hot = JSON.parse(r.stdout).files[0].diagnostics.find((d: { code: string }) => d.code === "partition/hot");
  const first = hot.fixes[0];
  assert.equal(first.preferred, true);
  assert.deepEqual(first.check, {
    removes: "partition/hot",
    accepted: true,
    leaves: [],
    queries: { "Orders/ByDay": "partition-range → partition-range · 4 requests" },
  });
  const refused = hot.fixes.filter((f: { check: { accepted: boolean } }) => !f.check.accepted);
  assert.ok(refused.length > 0);
  assert.match(refused[0].check.refused, /^it does not remove partition\/hot from Orders\/partitionKey/);
  assert.equal(refused[0].preferred, undefined);
});

test("tdl fix --unchecked applies the only fix of each diagnostic, unchecked, as before", () => {
  const text = "table Orders {\n  Id: int(0..99999)\n  Kind: string(8)\n  partitionKey = Kind\n  rowKey = Id\n}\n";
  const dir = design(text);
  const r = tdl(["fix", "orders.tdl", "--unchecked"], dir);
  assert.equal(r.stdout, "orders.tdl: 1 fix (key/unpadded-number)\n1 fix applied\n");
  assert.match(readFileSync(path.join(dir, "orders.tdl"), "utf8"), /rowKey = pad\(Id, 5\)/);
});

test("tdl fix says what it leaves and why, also when it applies nothing", () => {
  const text =
    'table Employees {\n  Id: int(1..500000) unique\n  Dept: enum(Sales, Finance)\n  Name: string(40) charset "A-Za-z" distinct 20K\n' +
    '  partitionKey = "EMPLOYEE"\n  rowKey = pad(Id, 6)\n  rows 300K\n' +
    "  query ById 300/s where Id = ?\n  query ByDept 10/s where Dept = ?\n  query ByName 50/s where Name prefix ?\n}\n";
  const dir = design(text);
  const r = tdl(["fix", "orders.tdl"], dir);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split("\n");
  assert.equal(lines[0], "orders.tdl: no fix applied");
  assert.match(lines[1], /^ {2}left \(\d+\), not fixed automatically:$/);
  assert.ok(
    lines.some((l) =>
      /^ {4}warning partition\/single-value at Employees\/partitionKey: no fix passed its check \(\d+ tried\); the first was refused: /.test(
        l,
      ),
    ),
  );
  assert.equal(lines.at(-2), "0 fixes applied");
  assert.equal(readFileSync(path.join(dir, "orders.tdl"), "utf8"), text, "nothing written");
});
