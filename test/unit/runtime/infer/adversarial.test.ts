/**
 * Whatever a table holds, the inferred design parses: keys and values with
 * quotes, backslashes, NUL, `\r`, long texts, property names the language
 * cannot name, one value under several Edm types, no properties at all.
 * What cannot be explained stays a string part and is said so.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { fuzz } from "../../../helpers/fuzz";
import { analyzeTdl } from "@core";
import { inferDesign } from "@runtime/infer/infer";
import type { EdmType, EntityRow } from "@protocol/entities";

const text = fc.string({
  unit: fc.constantFrom("a", "B", "0", "7", "_", ":", "-", '"', "\\", "\u0000", "\r", "\n", "\t", "é", "😀", " ", "'", "/"),
  maxLength: 24,
});
const typed = fc.oneof(
  text.map((value) => ({ type: "String" as EdmType, value })),
  fc.integer().map((n) => ({ type: "Int32" as EdmType, value: String(n) })),
  fc.constantFrom("NaN", "Infinity", "-0", "1e308", "0.1").map((value) => ({ type: "Double" as EdmType, value })),
  fc
    .constantFrom("2026-01-01T00:00:00Z", "not a date", "0001-01-01T00:00:00.0000000Z")
    .map((value) => ({ type: "DateTime" as EdmType, value })),
  fc.constantFrom("AQID", "").map((value) => ({ type: "Binary" as EdmType, value })),
);
const names = fc.constantFrom("Name", "my-prop", "Ärger", "x y", "table", "rowKey", "_ok", "9lives", "Name2");
const entity = fc.record({ partitionKey: text, rowKey: text, properties: fc.dictionary(names, typed, { maxKeys: 4 }) });

test("a design inferred from any entities parses without errors and names its table", () => {
  fuzz(
    "infer-any-entities",
    fc.array(entity, { minLength: 1, maxLength: 30 }),
    (entities) => {
      const r = inferDesign(entities as EntityRow[], { table: "Odd" });
      const a = analyzeTdl(r.text);
      assert.deepEqual(
        a.errors.map((e) => e.message),
        [],
        r.text,
      );
      assert.equal(r.check.parsed, true);
      assert.equal(a.tables[0]?.table.name.text, "Odd");
    },
    150,
  );
});

test("keys with quotes, NUL and \\r come back as escaped literals that rebuild them", () => {
  const rows: EntityRow[] = Array.from({ length: 50 }, (_, i) => ({
    partitionKey: `a"b\\c\u0000\r${i % 2}`,
    rowKey: String(i).padStart(4, "0"),
    properties: { N: { type: "Int32", value: String(i) }, Half: { type: "Int32", value: String(i % 2) } },
  }));
  const r = inferDesign(rows, { table: "Quoted" });
  assert.match(r.text, /partitionKey = "a\\"b\\\\c\\u0000\\u000d" \+ Half /);
  assert.equal(r.check.partitionKey, 50, r.text);
  assert.equal(r.check.rowKey, 50, r.text);
  assert.match(r.text, /rowKey {7}= pad\(N, 4\)/);
});

test("a segment nothing explains stays a string part and the design says so", () => {
  const rows: EntityRow[] = Array.from({ length: 40 }, (_, i) => ({
    partitionKey: "tenant",
    rowKey: `${(i * 7919).toString(36)}-${i}`,
    properties: { Seq: { type: "Int32", value: String(i) } },
  }));
  const r = inferDesign(rows, { table: "Opaque" });
  assert.match(r.text, /partitionKey = "tenant"/);
  assert.match(r.text, /key-only/);
  assert.equal(r.check.rowKey, 40, r.text);
});

test("long keys and values: 1 KB keys and 32 K-character strings", () => {
  const rows: EntityRow[] = Array.from({ length: 20 }, (_, i) => ({
    partitionKey: "p".repeat(1000) + i,
    rowKey: "r",
    properties: { Big: { type: "String", value: "x".repeat(32_000) }, I: { type: "Int32", value: String(i) } },
  }));
  const r = inferDesign(rows, { table: "Long" });
  assert.equal(analyzeTdl(r.text).errors.length, 0);
  assert.equal(r.check.partitionKey, 20, r.text.slice(0, 3000));
});

/** Regression (found by the fuzzer): a Double of 1e308 under an Int32 name wrote `int64(0..1e+308)`, which does not parse. */
test("an integer property with a huge value of another type is declared without a range", () => {
  const n = (type: EdmType, value: string): EntityRow => ({ partitionKey: "", rowKey: "", properties: { N: { type, value } } });
  const r = inferDesign([n("DateTime", "2026-01-01T00:00:00Z"), n("Int32", "0"), n("Double", "1e308"), n("Int32", "0")], {
    table: "Mixed",
  });
  assert.deepEqual(analyzeTdl(r.text).errors, []);
  assert.match(r.text, /\n {2}N: +int64 distinct 3 /);
});
