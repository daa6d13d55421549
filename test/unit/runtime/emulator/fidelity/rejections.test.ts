import { test } from "node:test";
import assert from "node:assert/strict";
import { batchRejection, entityBytes, rejection } from "@runtime/emulator/fidelity/rejections";
import { parseDateTime, propertyNameRejection, propertyValueRejection } from "@runtime/emulator/fidelity/properties";
import { parseTablePath } from "@runtime/emulator/fidelity/requests";
import { BatchOperation } from "@runtime/emulator/fidelity/batch";

const A = "devstoreaccount1";
const insert = (entity: Record<string, unknown>) =>
  parseTablePath("POST", `/${A}/T`, A, JSON.stringify({ PartitionKey: "p", RowKey: "r", ...entity }));
const codeOf = (entity: Record<string, unknown>) => rejection(insert(entity))?.code;

test("property names: a C# identifier of at most 255 characters, as Azure requires (Azurite takes any)", () => {
  const cases: [string, string | undefined][] = [
    ["Name", undefined],
    ["_x", undefined],
    ["a1", undefined],
    ["Ünïcödé", undefined],
    ["名前", undefined],
    ["a".repeat(255), undefined],
    ["1abc", "PropertyNameInvalid"],
    ["a-b", "PropertyNameInvalid"],
    ["a b", "PropertyNameInvalid"],
    ["a.b", "PropertyNameInvalid"],
    ["", "PropertyNameInvalid"],
    ["$x", "PropertyNameInvalid"],
    ["a\u0000", "PropertyNameInvalid"],
    ["😀", "PropertyNameInvalid"],
    ["a".repeat(256), "PropertyNameTooLong"],
    ["-".repeat(300), "PropertyNameTooLong"],
  ];
  for (const [name, code] of cases) {
    assert.equal(propertyNameRejection(name)?.code, code, JSON.stringify(name.slice(0, 20)));
    assert.equal(codeOf({ [name]: 1 }), code, `in an entity: ${JSON.stringify(name.slice(0, 20))}`);
  }
  assert.equal(codeOf({ "V@odata.type": "Edm.Int64", V: "1", "odata.etag": "W/x" }), undefined, "annotations are not properties");
});

test("Edm.DateTime: 1601-01-01 to 9999-12-31 UTC; earlier is OutOfRangeInput (quoted as the service does), later or unreadable InvalidInput", () => {
  const dt = (value: unknown) => propertyValueRejection("D", value, "Edm.DateTime");
  assert.equal(dt("1601-01-01T00:00:00Z"), undefined);
  assert.equal(dt("9999-12-31T23:59:59.9999999Z"), undefined);
  assert.equal(dt("2024-02-29T12:00:00.1234567+02:00"), undefined);
  assert.deepEqual(dt("1600-12-31T23:59:59Z"), {
    status: 400,
    code: "OutOfRangeInput",
    message: "The 'D' parameter of value '12/31/1600 23:59:59' is out of range.",
  });
  assert.equal(dt("0001-01-01T00:00:00Z")?.code, "OutOfRangeInput", "DateTime.MinValue, what a default .NET DateTime sends");
  assert.equal(dt("1601-01-01T00:30:00+01:00")?.code, "OutOfRangeInput", "the offset counts");
  for (const bad of [
    "+010000-01-01T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2024-13-01T00:00:00Z",
    "not a date",
    "",
    5,
    null,
  ]) {
    assert.equal(dt(bad)?.code, "InvalidInput", JSON.stringify(bad));
  }
  assert.equal(parseDateTime("0099-06-01T00:00:00Z"), Date.parse("0099-06-01T00:00:00Z"), "years below 100 are not read as 19xx");
  assert.equal(codeOf({ D: "1500-01-01T00:00:00Z", "D@odata.type": "Edm.DateTime" }), "OutOfRangeInput");
});

test("Edm.Int32 and Edm.Int64 (a string in JSON) in range; anything else is InvalidInput", () => {
  const i32 = (v: unknown) => propertyValueRejection("I", v, "Edm.Int32")?.code;
  const i64 = (v: unknown) => propertyValueRejection("L", v, "Edm.Int64")?.code;
  for (const ok of [0, -(2 ** 31), 2 ** 31 - 1]) assert.equal(i32(ok), undefined, String(ok));
  for (const bad of [2 ** 31, -(2 ** 31) - 1, 3e9, 1.5, "5", NaN, null]) assert.equal(i32(bad), "InvalidInput", String(bad));
  for (const ok of ["0", "-9223372036854775808", "9223372036854775807", 42]) assert.equal(i64(ok), undefined, String(ok));
  for (const bad of [
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999",
    "18446744073709551615",
    "abc",
    "1.5",
    "",
    " 1",
    1.5,
    2 ** 60,
  ])
    assert.equal(i64(bad), "InvalidInput", String(bad));
  assert.equal(codeOf({ L: "99999999999999999999", "L@odata.type": "Edm.Int64" }), "InvalidInput");
  assert.equal(codeOf({ I: 3_000_000_000 }), undefined, "an unannotated number is the service's to read as it comes");
});

test("keys: forbidden characters are OutOfRangeInput naming the key; over-long keys PropertyValueTooLarge; non-string keys PrimaryKeyPropertyIsInvalidType", () => {
  assert.deepEqual(rejection(parseTablePath("POST", `/${A}/T`, A, JSON.stringify({ PartitionKey: "a/b", RowKey: "r" }))), {
    status: 400,
    code: "OutOfRangeInput",
    message: "The 'PartitionKey' parameter of value 'a/b' is out of range.",
  });
  for (const k of ["a\\b", "a#b", "a?b", "a\tb", "\u007f", "\u009f"])
    assert.equal(rejection(insert({ RowKey: k }))?.code, "OutOfRangeInput", JSON.stringify(k));
  assert.equal(rejection(insert({ RowKey: "r".repeat(512) })), undefined, "512 UTF-16 characters are 1 KiB");
  assert.equal(rejection(insert({ RowKey: "r".repeat(513) }))?.code, "PropertyValueTooLarge");
  assert.equal(rejection(insert({ PartitionKey: 5 }))?.code, "PrimaryKeyPropertyIsInvalidType");
  assert.equal(rejection(insert({ RowKey: null }))?.code, "PrimaryKeyPropertyIsInvalidType");
  assert.equal(
    rejection(parseTablePath("GET", `/${A}/T(PartitionKey='a%23b',RowKey='r')`, A))?.code,
    "OutOfRangeInput",
    "keys in the path too",
  );
});

test("bodies, sizes and counts", () => {
  assert.equal(rejection(parseTablePath("POST", `/${A}/T`, A, '{"PartitionKey":'))?.code, "InvalidInput");
  assert.equal(codeOf(Object.fromEntries(Array.from({ length: 252 }, (_, i) => [`P${i}`, i]))), undefined);
  assert.equal(codeOf(Object.fromEntries(Array.from({ length: 253 }, (_, i) => [`P${i}`, i]))), "TooManyProperties");
  assert.equal(codeOf({ S: "x".repeat(32 * 1024) }), undefined, "32K characters are 64 KiB");
  assert.equal(codeOf({ S: "x".repeat(32 * 1024 + 1) }), "PropertyValueTooLarge");
  assert.equal(codeOf(Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`P${i}`, "x".repeat(31_000)]))), "EntityTooLarge");
  assert.equal(entityBytes({ PartitionKey: "ab", RowKey: "c", B: true, "B@odata.type": "Edm.Boolean" }), 4 + 4 + 2 + 8 + 2 + 1);
  assert.equal(rejection(parseTablePath("GET", `/${A}/T()?$top=1001`, A))?.code, "InvalidInput");
  assert.equal(rejection(parseTablePath("GET", `/${A}/T()?$top=1000`, A)), undefined);
});

const op = (index: number, method: string, target: string, entity?: object): BatchOperation => ({
  ...parseTablePath(method, target, A, entity && JSON.stringify(entity)),
  index,
});
const ins = (index: number, pk: string, rk: string, extra: object = {}, table = "T") =>
  op(index, "POST", `/${A}/${table}`, { PartitionKey: pk, RowKey: rk, ...extra });

test("a batch is refused at the first failing operation, with its index, as Azure answers", () => {
  const cases: [string, BatchOperation[], [number, string] | undefined][] = [
    ["valid", [ins(0, "p", "1"), ins(1, "p", "2"), op(2, "DELETE", `/${A}/T(PartitionKey='p',RowKey='3')`)], undefined],
    ["cross-partition at 2", [ins(0, "p", "1"), ins(1, "p", "2"), ins(2, "q", "3")], [2, "CommandsInBatchActOnDifferentPartitions"]],
    ["another table at 1", [ins(0, "p", "1"), ins(1, "p", "2", {}, "U")], [1, "CommandsInBatchActOnDifferentPartitions"]],
    ["table names are case-insensitive", [ins(0, "p", "1"), ins(1, "p", "2", {}, "t")], undefined],
    ["forbidden key at 1", [ins(0, "p", "1"), ins(1, "p", "a#b")], [1, "OutOfRangeInput"]],
    ["bad property name at 1", [ins(0, "p", "1"), ins(1, "p", "2", { "1bad": 1 })], [1, "PropertyNameInvalid"]],
    ["too large at 0", [ins(0, "p", "1", { S: "x".repeat(40_000) })], [0, "PropertyValueTooLarge"]],
    [
      "DateTime at 1",
      [ins(0, "p", "1"), ins(1, "p", "2", { D: "1600-01-01T00:00:00Z", "D@odata.type": "Edm.DateTime" })],
      [1, "OutOfRangeInput"],
    ],
    ["same entity twice at 1", [ins(0, "p", "1"), op(1, "DELETE", `/${A}/T(PartitionKey='p',RowKey='1')`)], [1, "InvalidDuplicateRow"]],
    ["malformed at 1", [ins(0, "p", "1"), { kind: "other", method: "", index: 1, malformed: true }], [1, "InvalidInput"]],
    ["101 operations", Array.from({ length: 101 }, (_, i) => ins(i, "p", String(i))), [0, "InvalidInput"]],
  ];
  for (const [name, ops, expected] of cases) {
    const f = batchRejection(ops);
    assert.deepEqual(f && [f.index, f.code], expected, name);
    if (f) assert.equal(f.status, 400, name);
  }
  const withId = batchRejection([ins(0, "p", "1"), { ...ins(1, "q", "2"), contentId: "42" }]);
  assert.equal(withId?.contentId, "42", "the operation's Content-ID is carried to the answer");
});
