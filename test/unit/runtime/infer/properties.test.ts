/**
 * Property facts from a sample: Edm types, lengths and charsets, ranges,
 * enums, hot values, `increasing` by rank correlation with Timestamp, and
 * distinct counts (exact for a whole table, estimated for a sample).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { inferProperties, PropertyFacts } from "@runtime/infer/properties";
import { DistinctCounter, EXACT_DISTINCT_CAP } from "@runtime/infer/distinct";
import { rowOf } from "@runtime/infer/values";
import type { EdmType, EntityRow } from "@protocol/entities";
import { seeded } from "../../../helpers/generated-tables";

const START = Date.UTC(2026, 0, 1);

function facts(n: number, props: (i: number) => Record<string, [EdmType, string]>, tableRows = n): Map<string, PropertyFacts> {
  const rows = Array.from({ length: n }, (_, i): EntityRow => ({
    partitionKey: "p",
    rowKey: String(i),
    timestamp: new Date(START + i * 1000).toISOString(),
    properties: Object.fromEntries(Object.entries(props(i)).map(([k, [type, value]]) => [k, { type, value }])),
  })).map(rowOf);
  return new Map(inferProperties(rows, tableRows).map((f) => [f.name, f]));
}

test("types, lengths, charsets, ranges and enums come from the values", () => {
  const rnd = seeded(7);
  const f = facts(400, (i) => ({
    Code: ["String", (Math.floor(rnd() * 1e6) + 1e6).toString(16)],
    Level: ["Int32", String(-5 + (i % 20))],
    Colour: ["String", ["Red", "Green", "Blue"][i % 3]],
    Id: ["Guid", `0000000${i % 10}-0000-0000-0000-000000000000`],
  }));
  assert.equal(f.get("Code")!.edm, "String");
  assert.equal(f.get("Code")!.charset, "0-9a-f");
  assert.deepEqual([f.get("Level")!.min, f.get("Level")!.max], [-5, 14]);
  assert.deepEqual(f.get("Colour")!.enumValues?.slice().sort(), ["Blue", "Green", "Red"]);
  assert.equal(f.get("Id")!.edm, "Guid");
  assert.equal(f.get("Id")!.distinctEstimate, 10);
});

test("a counter that grows with Timestamp is increasing, a countdown decreasing, noise neither", () => {
  const rnd = seeded(3);
  const f = facts(300, (i) => ({
    Seq: ["Int64", String(1000 + i)],
    Left: ["Int32", String(5000 - 2 * i)],
    Noise: ["Double", String(rnd())],
  }));
  assert.equal(f.get("Seq")!.monotonic?.direction, "increasing");
  assert.equal(f.get("Left")!.monotonic?.direction, "decreasing");
  assert.equal(f.get("Noise")!.monotonic, undefined);
});

test("a dominant value is hot; one value of many is not", () => {
  const f = facts(500, (i) => ({ Seller: ["String", i % 4 === 0 ? "big" : `s${i % 50}`] }));
  const hot = f.get("Seller")!.hot;
  assert.ok(hot !== undefined && hot > 0.2 && hot < 0.35, String(hot));
  assert.equal(facts(500, (i) => ({ Even: ["String", `s${i % 100}`] })).get("Even")!.hot, undefined);
});

test("distinct is exact for the whole table and estimated (never below what was seen) for a sample", () => {
  // 2,000 rows of a table of 200,000: a uniform property over 50,000 values.
  const rnd = seeded(11);
  const f = facts(2000, () => ({ User: ["String", `u${Math.floor(rnd() * 50_000)}`] }), 200_000);
  const u = f.get("User")!;
  assert.ok(u.distinctEstimate > u.distinct.distinct, `${u.distinctEstimate} vs ${u.distinct.distinct} seen`);
  // GEE's guarantee: within a factor √(N/n) = 10 of the truth; here it lands much closer.
  assert.ok(u.distinctEstimate > 50_000 / 3 && u.distinctEstimate < 50_000 * 3, String(u.distinctEstimate));
  // A few values seen many times: the sample already holds them all.
  const few = facts(2000, (i) => ({ Region: ["String", `r${i % 8}`] }), 200_000).get("Region")!;
  assert.equal(few.distinctEstimate, 8);
});

test("the counter never estimates above the table nor below the sample", () => {
  const c = new DistinctCounter();
  for (let i = 0; i < 100; i++) c.add(String(i));
  assert.equal(c.estimate(100), 100);
  // Every value seen once: √(N/n) unseen values stand behind each, capped at N.
  assert.equal(c.estimate(150), Math.round(Math.sqrt(1.5) * 100));
  assert.equal(c.estimate(1_000_000), 10_000);
  assert.equal(c.estimate(100_000_000), 100_000);
  assert.equal(c.estimate(50), 100);
});

test("past the exact cap, distinct values are counted by a HyperLogLog sketch, within a few percent", () => {
  const counter = new DistinctCounter();
  const n = EXACT_DISTINCT_CAP + 100_000;
  for (let i = 0; i < n; i++) counter.add(`v${i}`);
  for (let i = 0; i < 50_000; i++) counter.add(`v${i}`); // repeats change nothing
  assert.ok(counter.capped);
  assert.ok(Math.abs(counter.distinct - n) / n < 0.05, `${counter.distinct} of ${n}`);
});
