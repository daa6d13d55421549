/**
 * `tdl infer` attacked with the tables a live account can hold: keys with
 * NUL, lone surrogates and `\r`, 1 KiB keys, every key equal or every key
 * distinct, one or two entities, 100,000 one-entity partitions, keys that
 * look like dates, GUIDs or hex but are not, values of every Edm type at
 * their edges (NaN, ±Infinity, Int64 past 2^53, broken binary, 60 KB
 * strings, 252 properties), one property under several types, Timestamp
 * missing or unreadable. Invariants: inference never throws and ends in
 * bounded time, the written design has no `syntax`, `internal` or
 * `invalid-argument` finding and declares both keys, and every "matches N
 * of M" the design claims is what the core's own `renderKey` rebuilds.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { fuzz } from "../../../helpers/fuzz";
import { analyzeTdl } from "@core";
import { inferDesign, InferResult } from "@runtime/infer/infer";
import type { EdmType, EntityRow, TypedValue } from "@protocol/entities";

/** Findings a data-driven design may carry (the data itself breaks a rule); anything else of severity error is the writer's fault. */
const DATA_ERRORS = new Set(["key/invalid-character", "key/too-long", "key/pad-too-narrow", "entity/too-large", "table/invalid-name"]);

/** Checks the invariants of one inference and returns its result. */
function inferChecked(entities: EntityRow[], table = "Hostile"): InferResult {
  const r = inferDesign(entities, { table });
  const a = analyzeTdl(r.text);
  const wrong = a.findings.filter((f) => f.severity === "error" && !DATA_ERRORS.has(f.code));
  assert.deepEqual(
    wrong.map((f) => `${f.code}: ${f.message}`),
    [],
    r.text.slice(0, 4000),
  );
  assert.equal(r.check.parsed, true);
  // What the comments claim is what the core's evaluator rebuilds.
  const claim = (member: string) => {
    const m = new RegExp(`\\n  ${member} += .*// matches ([\\d,]+) of`).exec(r.text);
    return m ? Number(m[1].replace(/,/g, "")) : undefined;
  };
  assert.equal(claim("partitionKey"), r.check.partitionKey, `partitionKey claim\n${r.text.slice(0, 4000)}`);
  assert.equal(claim("rowKey"), r.check.rowKey, `rowKey claim\n${r.text.slice(0, 4000)}`);
  return r;
}

const unit = fc.constantFrom(
  "a",
  "Z",
  "0",
  "9",
  "-",
  ":",
  "_",
  ".",
  " ",
  "\u0000",
  "\r",
  "\n",
  "\ud800",
  "\udc00",
  "😀",
  "é",
  '"',
  "'",
  "\\",
);
const hostileText = fc.oneof(
  fc.string({ unit, maxLength: 12 }),
  fc.constantFrom("2026-13-45T99:99:99Z", "0000-00-00", "deadbeefg", "1234567890abcdef", "00000000-0000-0000-0000-00000000000g", ""),
  fc.integer({ min: 0, max: 1024 }).map((n) => "k".repeat(n)),
);
const edge: Record<EdmType, string[]> = {
  String: ["", "x".repeat(60_000), "\u0000", "\ud800", "NaN"],
  Int32: ["0", "2147483647", "-2147483648", "007", "1.5", "x", ""],
  Int64: ["9007199254740993", "9223372036854775807", "-9223372036854775808", "99999999999999999999", "12", "abc"],
  Double: ["NaN", "Infinity", "-Infinity", "-0", "1e308", "5e-324", "0.1"],
  Boolean: ["true", "false", "True", "maybe"],
  DateTime: ["2026-01-01T00:00:00Z", "0001-01-01T00:00:00.0000000Z", "9999-12-31T23:59:59.9999999Z", "garbage", ""],
  Guid: ["00000000-0000-0000-0000-000000000000", "not-a-guid", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"],
  Binary: ["", "AAAA", "not base64!!", "////"],
};
const typedValue: fc.Arbitrary<TypedValue> = fc
  .constantFrom(...(Object.keys(edge) as EdmType[]))
  .chain((type) => fc.oneof(fc.constantFrom(...edge[type]), hostileText).map((value) => ({ type, value })));
const propName = fc.constantFrom(
  "A",
  "B",
  "N",
  "table",
  "partitionKey",
  "pad",
  "RowKeyPart1",
  "$x",
  "",
  "Ärger",
  "constructor",
  "__proto__",
);
const entity: fc.Arbitrary<EntityRow> = fc.record({
  partitionKey: hostileText,
  rowKey: hostileText,
  timestamp: fc.option(fc.constantFrom("2026-01-01T00:00:00Z", "garbage", ""), { nil: undefined }),
  properties: fc.dictionary(propName, typedValue, { maxKeys: 5 }),
});

/** Tables whose keys are built from their own properties (so templates are found), with hostile values mixed in. */
const derivedTable: fc.Arbitrary<EntityRow[]> = fc
  .tuple(fc.array(typedValue, { minLength: 1, maxLength: 40 }), fc.constantFrom("", "p_", "\u0000", "😀:"), fc.boolean())
  .map(([values, prefix, pad]) =>
    values.map((v, i) => ({
      partitionKey: prefix + v.value.slice(0, 200),
      rowKey: pad ? String(i).padStart(6, "0") : `${i}`,
      properties: { V: v, I: { type: "Int32" as EdmType, value: String(i) } },
    })),
  );

test("any hostile table infers a design that parses, declares both keys and claims only what renderKey rebuilds", () => {
  fuzz(
    "infer-hostile-tables",
    fc.oneof(fc.array(entity, { minLength: 1, maxLength: 25 }), derivedTable),
    (entities) => {
      inferChecked(entities);
    },
    120,
  );
});

/** Regression: the charset escaped `-` for the class and for the string literal, so `"0-9\\\\-"` read as a range `\`..`:` (invalid-argument) that admits `\`. */
test("a string of digits, dashes and colons gets a charset the core accepts", () => {
  const rows: EntityRow[] = Array.from({ length: 30 }, (_, i) => ({
    partitionKey: `2026-13-${40 + i}T99:99`,
    rowKey: "r",
    properties: { D: { type: "String", value: `2026-13-${40 + i}T99:99` } },
  }));
  const r = inferChecked(rows);
  assert.match(r.text, /\n {2}D: +string\(16\.\.16\) distinct 30 charset "0-9A-Z\\\\-:"/);
});

/** Regression: a property the language cannot name (`$x`) was left out of the design but still used in its key, which did not parse. */
test("a key explained only by an unnameable property stays a key-only part", () => {
  const rows: EntityRow[] = Array.from({ length: 30 }, (_, i) => ({
    partitionKey: `p${i}`,
    rowKey: "r",
    properties: { $x: { type: "Int32", value: String(i) } },
  }));
  const r = inferChecked(rows);
  assert.doesNotMatch(r.text, /\$x\s*(\/\/|$)|\+ \$x/m);
  assert.equal(r.check.partitionKey, 30);
});

/** Regression: an Int64 past 2^53 matched its key by its text, but the core evaluates a double: "matches 60" while renderKey rebuilt 0. */
test("Int64 keys past 2^53 and non-canonical integers are not claimed as references", () => {
  const big = (i: number) => (9223372036854775807n - BigInt(i)).toString();
  const rows: EntityRow[] = Array.from({ length: 40 }, (_, i) => ({
    partitionKey: big(i),
    rowKey: "00" + i,
    properties: { L: { type: "Int64", value: big(i) }, N: { type: "Int32", value: "00" + i } },
  }));
  const r = inferChecked(rows);
  assert.equal(r.check.partitionKey, 40);
  assert.doesNotMatch(r.text, /partitionKey = L\b/);
});

/** Regression: fewer than three entities found no RowKey shape and the design had no rowKey (`missing-key`). */
test("a table of one or two entities still gets a rowKey", () => {
  for (const rows of [
    [{ partitionKey: "a", rowKey: "b", properties: {} }],
    [{ partitionKey: "", rowKey: "", properties: {} }],
    [
      { partitionKey: "a", rowKey: "b", properties: {} },
      { partitionKey: "a", rowKey: "c", properties: {} },
    ],
  ] as EntityRow[][]) {
    const r = inferChecked(rows);
    assert.match(r.text, /\n {2}rowKey {7}= /);
    assert.equal(r.check.rowKey, rows.length);
  }
});

/** Regression: key-only names avoided the properties of the first 100 rows only; a later row's `RowKeyPart1` was overwritten. */
test("a key-only name never takes the name of a property that appears late in the sample", () => {
  const rows: EntityRow[] = Array.from({ length: 300 }, (_, i) => ({
    partitionKey: "p",
    rowKey: `${((i * 7919) % 10007).toString(36)}x${i}`,
    properties: (i >= 100 ? { RowKeyPart1: { type: "String", value: "zz" } } : {}) as Record<string, TypedValue>,
  }));
  const r = inferChecked(rows);
  assert.match(r.text, /\n {2}RowKeyPart1: +string\(2\.\.2\) distinct 1/);
  assert.match(r.text, /rowKey {7}= RowKey2Part1 /);
});

/**
 * Regression (found by the fuzzer, 301 s on the old code): long keys that a
 * one-character property matches at every position grew partial templates
 * of a thousand parts, each re-serialised on every comparison.
 */
test("1 KiB keys that short properties match everywhere are inferred in bounded time", () => {
  const cases: Array<[string, EntityRow[]]> = [
    [
      "kkk…",
      Array.from({ length: 25 }, (_, i) => ({
        partitionKey: "k".repeat(1000 + i),
        rowKey: "k".repeat(1000 - i),
        properties: { A: { type: "String", value: "k".repeat(500 + i) }, B: { type: "String", value: "k" } },
      })),
    ],
    [
      "000…",
      Array.from({ length: 20 }, () => ({
        partitionKey: "0".repeat(1024),
        rowKey: "0:".repeat(512),
        properties: Object.fromEntries(Array.from({ length: 12 }, (_, j) => [`Z${j}`, { type: "Int32" as EdmType, value: "0" }])),
      })),
    ],
  ];
  for (const [name, rows] of cases) {
    const t0 = performance.now();
    inferChecked(rows);
    assert.ok(performance.now() - t0 < 30_000, `${name}: ${(performance.now() - t0).toFixed(0)} ms`);
  }
});

test("edge cases at scale: 100,000 one-entity partitions, 1 KiB keys, 252 properties, every Edm edge", () => {
  const cases: Array<[string, EntityRow[]]> = [
    [
      "100,000 partitions",
      Array.from({ length: 100_000 }, (_, i) => ({
        partitionKey: `p${i}`,
        rowKey: "r",
        properties: { N: { type: "Int32", value: String(i) } },
      })),
    ],
    [
      "1 KiB keys",
      Array.from({ length: 200 }, (_, i) => ({
        partitionKey: "k".repeat(1020) + String(i).padStart(4, "0"),
        rowKey: "r".repeat(1024),
        properties: {},
      })),
    ],
    ["all equal", Array.from({ length: 500 }, () => ({ partitionKey: "same", rowKey: "same", properties: {} }))],
    [
      "252 properties",
      Array.from({ length: 20 }, (_, i) => ({
        partitionKey: "p",
        rowKey: String(i),
        properties: Object.fromEntries(
          Array.from({ length: 252 }, (_, j) => [`P${j}`, { type: "Int32" as EdmType, value: String(i * j) }]),
        ),
      })),
    ],
    [
      "Edm edges",
      Array.from({ length: 56 }, (_, i) => ({
        partitionKey: `p${i % 5}`,
        rowKey: String(i),
        properties: Object.fromEntries(
          Object.entries(edge).map(([type, values]) => [type, { type: type as EdmType, value: values[i % values.length] }]),
        ),
      })),
    ],
  ];
  for (const [name, rows] of cases) {
    const t0 = performance.now();
    const r = inferChecked(rows);
    // A generous bound: it catches a quadratic walk (minutes), not a slow machine.
    assert.ok(performance.now() - t0 < 30_000, `${name}: ${(performance.now() - t0).toFixed(0)} ms`);
    assert.ok(r.check.total === rows.length, name);
  }
});
