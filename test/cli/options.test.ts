import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const CLI = path.resolve("dist/cli.js");
const tdl = (args: string[], cwd: string) => spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });

/** No `service` line: the profile comes from --service. Azure forbids '#' in keys; Tablestore does not. */
const DESIGN = `table Orders {
  Customer: string(20) charset "a-z"
  Id: int(0..99999)
  partitionKey = Customer
  rowKey = "#" + pad(Id, 5)
}
`;

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-options-"));
  writeFileSync(path.join(dir, "orders.tdl"), DESIGN);
  return dir;
}

test("--service means the same to check and fix: under tablestore neither touches the '#' Azure forbids", () => {
  const dir = workspace();
  const azure = tdl(["check", "orders.tdl", "--format", "json"], dir);
  assert.ok(JSON.parse(azure.stdout).files[0].diagnostics.some((d: { code: string }) => d.code === "key/invalid-character"));
  const store = tdl(["check", "orders.tdl", "--format", "json", "--service", "tablestore"], dir);
  assert.ok(!JSON.parse(store.stdout).files[0].diagnostics.some((d: { code: string }) => d.code === "key/invalid-character"));

  const fixedStore = tdl(["fix", "orders.tdl", "--service", "tablestore"], dir);
  assert.equal(fixedStore.status, 0, fixedStore.stderr);
  assert.equal(readFileSync(path.join(dir, "orders.tdl"), "utf8"), DESIGN, "nothing to fix under tablestore");
  const fixedAzure = tdl(["fix", "orders.tdl"], dir);
  assert.equal(fixedAzure.status, 0, fixedAzure.stderr);
  assert.ok(!readFileSync(path.join(dir, "orders.tdl"), "utf8").includes('"#"'), "the Azure profile replaces the '#'");
});

test("classify --service and --partition-target reach the design's analysis; bad values are usage errors", () => {
  const dir = workspace();
  const ok = tdl(
    ["classify", "PartitionKey eq 'a'", "--design", "orders.tdl", "--table", "Orders", "--service", "cosmos-table", "--format", "json"],
    dir,
  );
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).class, "row-range");
  for (const args of [
    ["--service", "dynamo"],
    ["--partition-target", "0"],
  ]) {
    for (const command of [
      ["check", "orders.tdl"],
      ["fix", "orders.tdl"],
      ["classify", "PartitionKey eq 'a'"],
    ]) {
      const r = tdl([...command, ...args], dir);
      assert.equal(r.status, 2, `${command[0]} ${args.join(" ")}: ${r.stderr}`);
      assert.match(
        r.stderr,
        args[0] === "--service"
          ? /--service must be one of azure-table, cosmos-table, tablestore, not 'dynamo'/
          : /--partition-target must be a number/,
      );
    }
  }
});

test("--partition-target lowers the target the load rules compare against", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-options-"));
  writeFileSync(
    path.join(dir, "load.tdl"),
    `table Events {
  Tenant: string(20) distinct 10
  Id: guid
  partitionKey = Tenant
  rowKey = Id
  rows 1M
  insert Add 1000/s
}
`,
  );
  const hot = (args: string[]) =>
    JSON.parse(tdl(["check", "load.tdl", "--format", "json", ...args], dir).stdout).files[0].diagnostics.some(
      (d: { code: string }) => d.code === "partition/hot",
    );
  assert.equal(hot([]), false, "1,000/s over 10 tenants stays under 2,000/s");
  assert.equal(hot(["--partition-target", "50"]), true);
});

test("--rule sets a code's level (repeatable or comma-separated); a bad level is a usage error", () => {
  const dir = workspace();
  const codesOf = (args: string[]) =>
    JSON.parse(tdl(["check", "orders.tdl", "--format", "json", ...args], dir).stdout).files[0].diagnostics.map(
      (d: { code: string; severity: string }) => `${d.code}:${d.severity}`,
    );
  assert.ok(codesOf([]).includes("key/invalid-character:error"));
  assert.ok(!codesOf(["--rule", "key/invalid-character=off"]).some((c: string) => c.startsWith("key/invalid-character")));
  const both = codesOf(["--rule", "key/invalid-character=warning", "--rule", "query/class=off"]);
  assert.ok(both.includes("key/invalid-character:warning"));
  assert.ok(!both.some((c: string) => c.startsWith("query/class")));
  assert.deepEqual(
    codesOf(["--rule", "key/invalid-character=info,query/class=off"]).filter((c: string) => c.startsWith("key/")),
    ["key/invalid-character:info"],
  );
  const bad = tdl(["check", "orders.tdl", "--rule", "key/invalid-character=loud"], dir);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--rule: key\/invalid-character needs one of off, hint, info, warning, error/);
});
