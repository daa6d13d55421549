/**
 * An export's plan: partition keys found by probing the key space, one key
 * a request, split into ranges that cover every key once and never cut a
 * partition — whatever the keys look like.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { PageReader } from "@runtime/infer/sample";
import { anchorKeys, rangeFilter, splitRanges } from "@runtime/bulk/ranges";
import { fuzzAsync } from "../../../helpers/fuzz";

/** A table's sorted partition keys behind the one query the plan makes (`PartitionKey ge 'k'`, one key), counting requests. */
function tableOf(keys: string[]): PageReader & { requests: number } {
  const sorted = [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const reader = {
    requests: 0,
    async page(q: { filter?: string; pageSize: number }) {
      reader.requests++;
      const m = /^PartitionKey ge '((?:[^']|'')*)'$/.exec(q.filter ?? "PartitionKey ge ''");
      assert.ok(m, `a filter the plan does not make: ${q.filter}`);
      const from = m[1].replace(/''/g, "'");
      const first = sorted.find((k) => k >= from);
      return { entities: first === undefined ? [] : [{ partitionKey: first, rowKey: "", properties: {} }] };
    },
  };
  return reader;
}

/** Which range holds a key: exactly one must. */
const holders = (ranges: ReturnType<typeof splitRanges>, k: string) =>
  ranges.filter((r) => k >= r.from && (r.to === undefined || k < r.to));

test("400 padded partition keys: 16 ranges, none over a quarter of the table (the export splits what is left as it reads), from at most 32 probes that find a key", async () => {
  const keys = Array.from({ length: 400 }, (_, i) => `p${String(i).padStart(4, "0")}`);
  const table = tableOf(keys);
  const anchors = await anchorKeys(table, 31);
  const ranges = splitRanges(anchors, 16);
  assert.equal(ranges.length, 16);
  const sizes = ranges.map((r) => keys.filter((k) => holders([r], k).length).length);
  assert.ok(
    Math.max(...sizes) <= 100 && sizes.every((n) => n > 0),
    `the largest range holds ${Math.max(...sizes)} of 400 partitions: ${sizes.join(" ")}`,
  );
  assert.ok(table.requests <= 32 + 64, `${table.requests} requests`);
});

test("any keys: the ranges cover every key exactly once, a partition in one range, and the filters say the same", async () => {
  const key = fc.string({ unit: fc.constantFrom("a", "z", "0", "9", "-", "'", " ", "~", "é", "\u00ff"), maxLength: 12 });
  await fuzzAsync(
    "bulk-ranges",
    fc.record({ keys: fc.array(key, { maxLength: 300 }), n: fc.integer({ min: 1, max: 40 }) }),
    async ({ keys, n }) => {
      const table = tableOf(keys);
      const anchors = await anchorKeys(table, 2 * n);
      const ranges = splitRanges(anchors, n);
      assert.ok(ranges.length >= 1 && ranges.length <= n);
      for (const k of keys) assert.equal(holders(ranges, k).length, 1, `key ${JSON.stringify(k)} in ${JSON.stringify(ranges)}`);
      for (const r of ranges) {
        const f = rangeFilter(r) ?? "";
        if (r.from) assert.match(f, /PartitionKey ge '/);
        if (r.to !== undefined) assert.match(f, /PartitionKey lt '/);
      }
      assert.ok(table.requests <= 2 * n + 1 + 64, `${table.requests} requests for ${2 * n} probes`);
    },
    300,
  );
});

test("an empty table: one probe, one range that reads everything", async () => {
  const table = tableOf([]);
  assert.deepEqual(await anchorKeys(table), []);
  assert.equal(table.requests, 1);
  assert.deepEqual(splitRanges([], 8), [{ from: "" }]);
});
