/**
 * An export's plan: partition keys found by probing the key space, one key
 * a request, split into ranges that cover every key once and never cut a
 * partition — whatever the keys look like.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { PageReader } from "@runtime/infer/sample";
import { anchorKeys, KeySpace, LONE_SURROGATE, rangeFilter, splitRanges } from "@runtime/bulk/ranges";
import { fuzzAsync } from "../../../helpers/fuzz";

/**
 * A table's sorted partition keys behind the one query the plan makes (the
 * first key of a stretch: `PartitionKey ge 'a' and PartitionKey lt 'b'`,
 * either bound optional), counting requests.
 */
function tableOf(keys: string[]): PageReader & { requests: number } {
  const sorted = [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const literal = "'((?:[^']|'')*)'";
  const shape = new RegExp(`^(?:PartitionKey ge ${literal})?(?: and )?(?:PartitionKey lt ${literal})?$`);
  const reader = {
    requests: 0,
    async page(q: { filter?: string; pageSize: number }) {
      reader.requests++;
      const m = shape.exec(q.filter ?? "");
      assert.ok(m && q.pageSize === 1, `a query the plan does not make: ${q.filter} (${q.pageSize})`);
      const [from, to] = [m[1], m[2]].map((s) => s?.replace(/''/g, "'"));
      const first = sorted.find((k) => (from === undefined || k >= from) && (to === undefined || k < to));
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
  const ranges = splitRanges(anchors.keys, 16);
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
      const ranges = splitRanges(anchors.keys, n);
      assert.ok(ranges.length >= 1 && ranges.length <= n);
      for (const k of keys) assert.equal(holders(ranges, k).length, 1, `key ${JSON.stringify(k)} in ${JSON.stringify(ranges)}`);
      for (const r of ranges) {
        const f = rangeFilter(r) ?? "";
        if (r.from) assert.match(f, /PartitionKey ge '/);
        if (r.to !== undefined) assert.match(f, /PartitionKey lt '/);
      }
      assert.ok(table.requests <= 2 * n + 1 + 24, `${table.requests} requests for ${2 * n} probes`);
      // Nothing lies at or after the ceiling: splitting the last range aims below it.
      if (anchors.ceiling !== undefined)
        for (const k of keys) assert.ok(k < anchors.ceiling, `${JSON.stringify(k)} ≥ ceiling ${anchors.ceiling}`);
    },
    300,
  );
});

test("an export's plan of 1,000 padded keys: 7 anchors from at most 17 requests, the ceiling just past the keys", async () => {
  const keys = Array.from({ length: 1000 }, (_, i) => `p${String(i).padStart(4, "0")}`);
  const table = tableOf(keys);
  const anchors = await anchorKeys(table, 7);
  assert.ok(table.requests <= 1 + 8 + 8, `${table.requests} requests`);
  assert.ok(anchors.keys.length >= 7, anchors.keys.join(" "));
  // The open stretch is probed closer and closer to the first key: one round finds where the keys end.
  assert.ok(anchors.ceiling !== undefined && anchors.ceiling > "p0999" && anchors.ceiling <= "p1", `ceiling ${anchors.ceiling}`);
});

test("an empty table: one probe, one range that reads everything", async () => {
  const table = tableOf([]);
  assert.deepEqual(await anchorKeys(table), { keys: [] });
  assert.equal(table.requests, 1);
  assert.deepEqual(splitRanges([], 8), [{ from: "" }]);
});

test("keys of astral characters: every split point and probe the key space makes is a whole string a URL can carry", async () => {
  const keys = ["a", "b😀", "😀", "😀a", "𠀀", "𠀀z", "\u{10ffff}", "z"];
  const space = new KeySpace(keys);
  const made: string[] = [];
  for (const from of keys)
    for (const to of keys) {
      if (from >= to) continue;
      const m = space.middle(from, to);
      if (m !== undefined) {
        assert.ok(m > from && m < to, `${JSON.stringify(m)} between ${JSON.stringify(from)} and ${JSON.stringify(to)}`);
        made.push(m);
      }
      made.push(...space.approaching(from, to, 4));
    }
  assert.ok(made.length > 10);
  for (const k of made) {
    assert.ok(!LONE_SURROGATE.test(k), `${JSON.stringify(k)} holds a lone surrogate`);
    assert.doesNotThrow(() => encodeURIComponent(k));
  }
  const anchors = await anchorKeys(tableOf(keys.flatMap((k) => [k, `${k}1`, `${k}😀`])), 8);
  for (const k of anchors.keys) assert.doesNotThrow(() => encodeURIComponent(`PartitionKey ge '${k}'`));
});
