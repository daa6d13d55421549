/**
 * The dry run of an import: what a file would write, each problem with its
 * record and line, and nothing written unless the user's choices convert
 * every problem. The cases are the ones that silently changed data before:
 * nulls, nested objects and arrays, DateTimes without a zone or in prose,
 * repeated keys, a property written twice, Int64 past 2^53, NaN and the
 * infinities, a CSV with a byte-order mark.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { planImport, serialize } from "@runtime/transfer/plan";
import { REFUSE_ALL, ImportChoices } from "@protocol/transfer";
import type { EdmType, EntityRow, TypedValue } from "@protocol/entities";
import { fuzz } from "../../../helpers/fuzz";

const ALL_CONVERTED: ImportChoices = { nulls: "omit", nested: "json", zoneless: "utc", duplicateKeys: "last", duplicateProperties: "last" };
const json = (records: unknown[]) => JSON.stringify(records, null, 2);
const props = (text: string, choices = REFUSE_ALL, format: "json" | "csv" = "json") =>
  planImport(text, format, choices)
    .batches.flat()
    .map((r) => r.properties);

test("a JSON null is refused, or left out of the entity when the user chose so; never stored as 'null'", () => {
  const text = json([{ PartitionKey: "p", RowKey: "1", Note: null, Keep: "x" }]);
  const refused = planImport(text, "json", REFUSE_ALL);
  assert.equal(refused.summary.refused, true);
  assert.deepEqual(
    refused.summary.problems.map((p) => [p.kind, p.record, p.line, p.property]),
    [["nulls", 1, 5, "Note"]],
  );
  assert.deepEqual(props(text, { ...REFUSE_ALL, nulls: "omit" }), [{ Keep: { type: "String", value: "x" } }]);
});

test("nested objects and arrays are refused, or kept as their JSON text; never '[object Object]' or 'a,b'", () => {
  const text = json([{ PartitionKey: "p", RowKey: "1", Address: { city: "Oslo" }, Tags: ["a", "b"] }]);
  assert.deepEqual(
    planImport(text, "json", REFUSE_ALL).summary.problems.map((p) => [p.kind, p.property]),
    [
      ["nested", "Address"],
      ["nested", "Tags"],
    ],
  );
  const kept = props(text, { ...REFUSE_ALL, nested: "json" })[0];
  assert.deepEqual(JSON.parse(kept.Address.value), { city: "Oslo" });
  assert.deepEqual(JSON.parse(kept.Tags.value), ["a", "b"]);
  assert.equal(kept.Tags.type, "String");
});

test("a DateTime without a zone is refused or read as UTC, never in the machine's zone; prose dates are refused", () => {
  const text = json([
    { PartitionKey: "p", RowKey: "1", At: "2024-03-01T10:00:00", "At@odata.type": "Edm.DateTime" },
    { PartitionKey: "p", RowKey: "2", At: "March 7", "At@odata.type": "Edm.DateTime" },
  ]);
  const plan = planImport(text, "json", { ...REFUSE_ALL, zoneless: "utc" });
  assert.deepEqual(
    plan.summary.problems.map((p) => [p.kind, p.record]),
    [
      ["zoneless", 1],
      ["invalid", 2],
    ],
  );
  assert.match(plan.summary.problems[1].message, /'March 7' is not an ISO 8601 date and time/);
  assert.equal(plan.summary.refused, true, "an invalid value refuses the import whatever the choices");
  assert.deepEqual(props(json([JSON.parse(text)[0]]), { ...REFUSE_ALL, zoneless: "utc" }), [
    { At: { type: "DateTime", value: "2024-03-01T10:00:00Z" } },
  ]);
});

test("record 120 repeating the keys of record 110 refuses the whole file before anything is written, naming both", () => {
  const records = Array.from({ length: 130 }, (_, i) => ({ PartitionKey: "p", RowKey: String(i === 119 ? 109 : i), N: i }));
  const plan = planImport(json(records), "json", REFUSE_ALL);
  assert.equal(plan.summary.refused, true);
  assert.deepEqual(plan.summary.problemCounts, { duplicateKeys: 1 });
  assert.match(plan.summary.problems[0].message, /^record 120 has the keys of record 110 \(line \d+\)/);
  const last = planImport(json(records), "json", { ...REFUSE_ALL, duplicateKeys: "last" });
  assert.equal(last.summary.refused, false);
  assert.equal(last.summary.entities, 129);
  assert.equal(last.batches.flat().find((r) => r.rowKey === "109")?.properties.N.value, "119");
});

test("a property written twice in one object is seen and refused, or the later value kept when chosen", () => {
  const text = '[\n{"PartitionKey": "p", "RowKey": "1",\n "Qty": 1,\n "Qty": 2}\n]';
  const plan = planImport(text, "json", REFUSE_ALL);
  assert.deepEqual(
    plan.summary.problems.map((p) => [p.kind, p.line, p.message]),
    [["duplicateProperties", 4, "'Qty' appears twice in record 1 (lines 3 and 4)"]],
  );
  assert.deepEqual(props(text, { ...REFUSE_ALL, duplicateProperties: "last" }), [{ Qty: { type: "Int32", value: "2" } }]);
});

test("numbers keep their digits: Int64 past 2^53 written as a JSON number, an unannotated big integer, NaN and the infinities", () => {
  const text =
    '[{"PartitionKey":"p","RowKey":"1","Big":9007199254740993,"Big@odata.type":"Edm.Int64","Huge":123456789012345678,' +
    '"D":"NaN","D@odata.type":"Edm.Double","E":"INF","E@odata.type":"Edm.Double","F":"-Infinity","F@odata.type":"Edm.Double","G":1.5e300}]';
  assert.deepEqual(props(text), [
    {
      Big: { type: "Int64", value: "9007199254740993" },
      Huge: { type: "Int64", value: "123456789012345678" },
      D: { type: "Double", value: "NaN" },
      E: { type: "Double", value: "Infinity" },
      F: { type: "Double", value: "-Infinity" },
      G: { type: "Double", value: "1.5e300" },
    },
  ]);
});

test("a CSV with a UTF-8 byte-order mark, as spreadsheets write it, imports; NaN in CSV too", () => {
  const csv = "\uFEFFPartitionKey,RowKey,D,D@type\r\np,1,NaN,Double\r\n";
  assert.deepEqual(planImport(csv, "csv", REFUSE_ALL).batches.flat(), [
    { partitionKey: "p", rowKey: "1", properties: { D: { type: "Double", value: "NaN" } } },
  ]);
});

test("the summary counts types per column (150 integers beside a decimal are one column of Doubles), partitions and batches of at most 100", () => {
  const records = [
    ...Array.from({ length: 150 }, (_, i) => ({ PartitionKey: "a", RowKey: String(i), V: i })),
    { PartitionKey: "b", RowKey: "x", V: 2.5 },
  ];
  const { summary } = planImport(json(records), "json", REFUSE_ALL);
  assert.deepEqual(
    { entities: summary.entities, partitions: summary.partitions, batches: summary.batches, columns: summary.columns },
    { entities: 151, partitions: 2, batches: 3, columns: [{ name: "V", types: { Double: 151 }, inferred: "Double" }] },
  );
});

test("a file that is not JSON names the line; a CSV without key columns says so", () => {
  assert.throws(() => planImport('[\n{"PartitionKey": "p",\n "RowKey": }\n]', "json", REFUSE_ALL), /not JSON: value expected at line 3/);
  assert.throws(() => planImport("A,B\r\n1,2\r\n", "csv", REFUSE_ALL), /needs PartitionKey and RowKey columns/);
});

const EDGE: Record<EdmType, fc.Arbitrary<string>> = {
  String: fc.string({ unit: "binary", maxLength: 20 }),
  Int32: fc.integer().map(String),
  Int64: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
  Double: fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? "0" : String(d))),
    fc.constantFrom("NaN", "Infinity", "-Infinity"),
  ),
  Boolean: fc.constantFrom("true", "false"),
  DateTime: fc
    .tuple(fc.date({ min: new Date("1601-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }), fc.nat(9999))
    .map(([d, sub]) => `${d.toISOString().slice(0, 23)}${String(sub).padStart(4, "0")}Z`),
  Guid: fc.uuid(),
  Binary: fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b).toString("base64")),
};
const typedValue: fc.Arbitrary<TypedValue> = fc
  .constantFrom(...(Object.keys(EDGE) as EdmType[]))
  .chain((type) => EDGE[type].map((value) => ({ type, value })));
const rows: fc.Arbitrary<EntityRow[]> = fc.uniqueArray(
  fc
    .record({
      partitionKey: fc.string({ maxLength: 8 }),
      rowKey: fc.string({ maxLength: 8 }),
      properties: fc.dictionary(
        fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/).filter((k) => !["PartitionKey", "RowKey", "Timestamp"].includes(k)),
        typedValue,
        { maxKeys: 6 },
      ),
    })
    .map((r) => ({ partitionKey: r.partitionKey, rowKey: r.rowKey, properties: { ...r.properties } })),
  { selector: (r) => `${r.partitionKey}\u0000${r.rowKey}`, maxLength: 12 },
);

test("export then import gives back the same entities, types included, for any values (JSON and CSV)", () => {
  fuzz(
    "transfer-round-trip",
    rows,
    (input) => {
      for (const format of ["json", "csv"] as const) {
        const plan = planImport(serialize(input, format), format, REFUSE_ALL);
        assert.deepEqual(plan.summary.problems, [], format);
        const byKey = (r: EntityRow) => `${r.partitionKey}\u0000${r.rowKey}`;
        assert.deepEqual(
          plan.batches.flat().sort((a, b) => (byKey(a) < byKey(b) ? -1 : 1)),
          [...input].sort((a, b) => (byKey(a) < byKey(b) ? -1 : 1)),
          format,
        );
      }
    },
    200,
  );
});

test("the choices convert everything they name and nothing else", () => {
  const text = json([{ PartitionKey: "p", RowKey: "1", A: null, B: [1], C: "2024-01-01T00:00", "C@odata.type": "Edm.DateTime" }]);
  assert.equal(planImport(text, "json", ALL_CONVERTED).summary.refused, false);
  for (const kind of ["nulls", "nested", "zoneless"] as const)
    assert.equal(planImport(text, "json", { ...ALL_CONVERTED, [kind]: "refuse" }).summary.refused, true, kind);
});
