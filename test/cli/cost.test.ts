/**
 * `tdl cost` as a user runs it: the price sheet's date, region and source
 * on every output, the snapshot when the Retail Prices API cannot be
 * reached (said on stderr), JSON in the documented shape.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const CLI = path.resolve("dist/cli.js");
const cache = mkdtempSync(path.join(os.tmpdir(), "tdl-cost-"));
const env = { ...process.env, XDG_CACHE_HOME: cache, TDL_PRICES_URL: "http://127.0.0.1:9/api/retail/prices" };
const tdl = (...args: string[]) => spawnSync(process.execPath, [CLI, "cost", ...args], { env, encoding: "utf8" });
process.on("exit", () => rmSync(cache, { recursive: true, force: true }));

test("json: the prices' date, region and source, and per table the estimates of each profile", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-cost-design-"));
  const design = path.join(dir, "events.tdl");
  writeFileSync(design, "table Events {\n  Id: guid\n  partitionKey = Id\n  rowKey = Id\n  entitySize 1KB\n  insert Add 2000/s\n}\n");
  const r = tdl(design, "--format", "json");
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.prices, { date: "2026-11-24", region: "eastus", source: "snapshot", redundancy: "LRS" });
  const [events] = j.tables;
  assert.equal(events.table, "Events");
  const by = Object.fromEntries(events.estimates.map((e: { service: string }) => [e.service, e]));
  assert.deepEqual([by["azure-table"].monthlyUsd, by["azure-table"].transactionsPerMonth], [189.22, 5_256_000_000]);
  assert.deepEqual([by["cosmos-table"].monthlyUsd, by["cosmos-table"].requestUnitsPerSecond], [584, 10_000]);
  rmSync(dir, { recursive: true, force: true });
});

test("without a network, --refresh-prices says so and prices with the snapshot; another region says whose prices it shows", () => {
  const r = tdl("examples/marathon.tdl", "--refresh-prices", "--region", "westeurope");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /the Retail Prices API could not be reached \(.*\); no prices for westeurope are cached: these are eastus's/);
  assert.match(r.stdout, /^prices of eastus on 2026-11-24 \(the snapshot shipped with tdl\)/);
  assert.match(r.stdout, /\nRegistrations\n {2}azure-table {3}\$[\d,]+\.\d\d\n/);
});

test("a design with errors: its tables are not priced, exit 1", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-cost-bad-"));
  const design = path.join(dir, "bad.tdl");
  writeFileSync(design, "table T {\n  A: strng\n  partitionKey = A\n}\n");
  const r = tdl(design);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /has \d+ errors?: tables with errors are not priced/);
  rmSync(dir, { recursive: true, force: true });
});

test("a table with errors is said to be left out before any price, and is not priced; the tables without errors are", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-cost-mixed-"));
  const design = path.join(dir, "mixed.tdl");
  writeFileSync(
    design,
    "table Broken {\n  A: string\n  partitionKey = Nope\n  rowKey = A\n  insert Add 10/s\n}\n\ntable Fine {\n  A: string\n  partitionKey = A\n  rowKey = A\n  insert Add 10/s\n}\n",
  );
  // Both streams into one, in the order they were written.
  const r = spawnSync("sh", ["-c", `"${process.execPath}" "${CLI}" cost "${design}" 2>&1`], { env, encoding: "utf8" });
  assert.equal(r.status, 1);
  assert.match(
    r.stdout,
    new RegExp(
      `^tdl: ${design.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} has 1 error: tables with errors are not priced \\(Broken\\); tdl check .* shows them\nprices of eastus`,
    ),
  );
  assert.match(r.stdout, /\nFine\n {2}azure-table/);
  assert.doesNotMatch(r.stdout, /\nBroken\n/);
  rmSync(dir, { recursive: true, force: true });
});

test("a rate no account serves is refused with the limit, before any price: exit 2, never $∞ or JSON null", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-cost-rate-"));
  const design = path.join(dir, "huge.tdl");
  writeFileSync(design, `table Events {\n  Id: guid\n  partitionKey = Id\n  rowKey = Id\n  insert Add ${"1" + "0".repeat(299)}/s\n}\n`);
  for (const format of ["text", "json"]) {
    const r = tdl(design, "--format", format);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(
      r.stderr,
      `tdl: ${design}: insert Add of table Events: 1.00 × 10^299/s is beyond what any account serves (at most 10,000,000 calls a second)\n`,
    );
    assert.equal(r.stdout, "");
  }
  rmSync(dir, { recursive: true, force: true });
});

test("--against prices a design and its batched version side by side: the batches cut the transactions a hundredfold", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-cost-against-"));
  const single = path.join(dir, "single.tdl");
  const batched = path.join(dir, "batched.tdl");
  const table = (insert: string) =>
    `table Events {\n  Id: guid\n  Day: string distinct 100\n  partitionKey = Day\n  rowKey = Id\n  entitySize 1KB\n  ${insert}\n}\n`;
  writeFileSync(single, table("insert Add 2000/s"));
  writeFileSync(batched, table("insert Add 2000/s batch 100"));
  const r = tdl(single, "--against", batched);
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout.split("\n").filter((l) => l.startsWith("Events"));
  // docs/cost.md's worked example: $189.22 as single inserts, $1.89 in batches of 100 (Table Storage's data alike in both).
  const azure = rows.find((l) => /\sazure-table\s/.test(l))!;
  const [a, b, change] = azure.match(/\$[\d,]+\.\d\d/g)!;
  const dollars = (s: string) => Number(s.replace(/[$,]/g, ""));
  assert.equal(Math.round((dollars(a) - dollars(b)) * 100) / 100, Math.round((189.22 - 1.89) * 100) / 100, azure);
  assert.equal(dollars(change), Math.round((dollars(a) - dollars(b)) * 100) / 100, azure);
  assert.match(azure, /−\$/, "the batched design costs less");
  assert.match(r.stdout, /^prices of eastus on 2026-11-24 .*\n\ntable +service +single\.tdl +batched\.tdl +change\n/);
  const json = JSON.parse(tdl(single, "--against", batched, "--format", "json").stdout);
  assert.equal(json.against.design, batched);
  assert.equal(json.against.tables[0].table, "Events");
  rmSync(dir, { recursive: true, force: true });
});
