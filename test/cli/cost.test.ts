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
