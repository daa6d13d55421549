/**
 * Inferred designs that were not the simplest (issue #32), each the case
 * of a general rule: a property's part that renders the same text in every
 * row is no explanation (whole minutes are "00" seconds in every row); a
 * template of literals alone does not stand for keys it does not cover; a
 * countdown may be written wider than its constant; one property's date
 * parts side by side are one date part.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { md5hex } from "@core";
import { inferDesign } from "@runtime/infer/infer";
import type { EntityRow } from "@protocol/entities";

const START = Date.UTC(2026, 10, 1);
const keyLines = (text: string) =>
  text
    .split("\n")
    .filter((l) => /^\s+(partitionKey|rowKey|index)/.test(l))
    .map((l) => l.replace(/\s*\/\/.*$/, "").trim());

test("8-digit padded counters beside order times on whole minutes are pad(counter, 8), not the times' zero seconds", () => {
  const rows: EntityRow[] = Array.from({ length: 1500 }, (_, n) => ({
    partitionKey: `shop${n % 7}`,
    rowKey: String(n + 1).padStart(8, "0"),
    timestamp: new Date(START + n * 3).toISOString(),
    properties: {
      PlacedAt: { type: "DateTime", value: new Date(START + n * 60_000).toISOString() },
      Total: { type: "Double", value: String(n * 1.5) },
    },
  }));
  const r = inferDesign(rows, { table: "Orders" });
  assert.deepEqual(keyLines(r.text), ['partitionKey = "shop" + PartitionKeyPart1', "rowKey       = pad(RowKeyPart1, 8)"]);
  assert.equal(r.check.rowKey, 1500);
});

test("a RowKey of JavaScript's inverted milliseconds padded to 19 digits is pad(reverse(ms), 19), and c0…c4 partitions are 'c' and a number (not the literal 'c1')", () => {
  const rows: EntityRow[] = Array.from({ length: 1500 }, (_, n) => {
    const t = START + n * 61_234;
    return {
      partitionKey: `c${n % 5}`,
      rowKey: String(8_640_000_000_000_000 - t).padStart(19, "0"),
      timestamp: new Date(t).toISOString(),
      properties: { CreatedAt: { type: "DateTime", value: new Date(t).toISOString() } },
    };
  });
  const r = inferDesign(rows, { table: "Feed" });
  assert.deepEqual(keyLines(r.text), ['partitionKey = "c" + PartitionKeyPart1', "rowKey       = pad(reverse(RowKeyPart1), 19)"]);
  assert.equal(r.check.partitionKey, 1500);
  assert.equal(r.check.rowKey, 1500);
});

test("a hash behind a constant prefix is found: the prefix every row shares is a literal", () => {
  const rows: EntityRow[] = Array.from({ length: 600 }, (_, n) => ({
    partitionKey: "tenant",
    rowKey: "",
    timestamp: new Date(START + n * 1000).toISOString(),
    properties: { OrderId: { type: "String", value: `order-${n * 7919}` } },
  }));
  // The rows' keys: "v1" + hash(OrderId, 4) + "," + OrderId, as the core renders them.
  for (const row of rows) row.rowKey = `v1${md5hex(row.properties.OrderId.value).slice(0, 4)},${row.properties.OrderId.value}`;
  const r = inferDesign(rows, { table: "Orders" });
  assert.deepEqual(keyLines(r.text).slice(1), ['rowKey       = "v1" + hash(OrderId, 4) + "," + OrderId']);
});
