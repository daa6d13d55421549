/**
 * Keys whose time lives only in the key: a day written as `yyyy-MM-dd`
 * and a RowKey counted down from JavaScript's largest date so the newest
 * row comes first. No property of the entity stores either, yet the
 * inferred design must name the time bucket and the countdown — and then
 * the load rules see the append-only day.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";
import { inferDesign } from "@runtime/infer/infer";
import type { EntityRow } from "@protocol/entities";

const JS_MAX_DATE_MS = 8_640_000_000_000_000;

/** Events written every 40 s over about two weeks, each keyed by its day and its inverted time, as the code above writes them. */
function events(n: number): EntityRow[] {
  const start = Date.UTC(2026, 0, 5, 6);
  return Array.from({ length: n }, (_, i) => {
    const ms = start + i * 40_000;
    return {
      partitionKey: new Date(ms).toISOString().slice(0, 10),
      rowKey: String(JS_MAX_DATE_MS - ms),
      timestamp: new Date(ms + 15).toISOString(),
      properties: { Kind: { type: "String", value: ["click", "view", "buy"][i % 3] } },
    };
  });
}

test("a yyyy-MM-dd PartitionKey and a RowKey of 8640000000000000 − ms, stored nowhere else, are read as a day bucket and a countdown", () => {
  const r = inferDesign(events(30_000), { table: "Events" });
  assert.equal(r.check.parsed, true, r.text);
  assert.match(r.text, /partitionKey = date\(PartitionKeyPart1, "yyyy-MM-dd"\)/, r.text);
  assert.match(r.text, /rowKey\s+= reverse\(RowKeyPart1\)/, r.text);
  assert.match(r.text, /\n\s+PartitionKeyPart1:\s+datetime\b[^\n]*\bincreasing\b/, r.text);
  assert.match(r.text, /\n\s+RowKeyPart1:\s+int64\(0\.\.8640000000000000\)[^\n]*\bincreasing\b/, r.text);
  assert.equal(r.check.partitionKey, r.check.total, "every sampled PartitionKey is rebuilt by the inferred expression");
  assert.equal(r.check.anyRowKey, r.check.total, "every sampled RowKey is rebuilt by the inferred expression");
  const codes = analyzeTdl(r.text).findings.map((f) => f.code);
  assert.ok(codes.includes("partition/append-only"), `the day bucket is append-only: ${codes.join(", ")}`);
});

test("digits that only look like a date or a countdown stay numbers: eight-digit ids and sixteen-digit counters far from the Timestamp", () => {
  const rows: EntityRow[] = Array.from({ length: 500 }, (_, i) => ({
    partitionKey: String(10_000_000 + i * 7919),
    rowKey: String(1_000_000_000_000_000 + i * 3),
    timestamp: new Date(Date.UTC(2026, 0, 5) + i * 1000).toISOString(),
    properties: { Note: { type: "String", value: `n${i}` } },
  }));
  const r = inferDesign(rows, { table: "Ids" });
  assert.doesNotMatch(r.text, /date\(|reverse\(/, r.text);
});

test("a property present in one entity of a whole table has one value, exactly: no extrapolated distinct beside it", () => {
  const rows = events(2_500);
  rows[7].properties.Note = { type: "String", value: "only here" };
  const r = inferDesign(rows, { table: "Events", wholeTable: true });
  const line = r.text.split("\n").find((l) => /^\s+Note:/.test(l))!;
  // Before: "distinct 50" (√2500 × 1, extrapolated over the whole table) beside "1 value seen, exact".
  assert.match(line, /\bdistinct 1\b[^\n]*1 value seen, exact/, line);
});
