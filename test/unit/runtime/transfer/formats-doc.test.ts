/**
 * docs/import-formats.md says what a file's values are stored as: its
 * examples are planned as an import plans them, and each type it promises —
 * and each it warns of, for values the file does not type — is checked.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { planImport } from "@runtime/transfer/plan";
import { REFUSE_ALL } from "@protocol/transfer";

const DOC = readFileSync(path.resolve(__dirname, "../../../../docs/import-formats.md"), "utf8");
const example = (format: "csv" | "json") => new RegExp("```" + format + "\\n([\\s\\S]*?)```").exec(DOC)![1];
const columns = (text: string, format: "csv" | "json") => {
  const plan = planImport(text, format, REFUSE_ALL);
  assert.deepEqual(plan.summary.problems, [], "the example imports without a problem");
  return Object.fromEntries(plan.summary.columns.map((c) => [c.name, c.types]));
};

test("the CSV example's @type columns decide each value's type; a property left empty is left out", () => {
  assert.deepEqual(columns(example("csv"), "csv"), {
    Total: { Double: 3 },
    BookedAt: { DateTime: 3 },
    Customer: { String: 3 },
    Express: { Boolean: 2 },
  });
});

test("the JSON example's annotations decide each value's type; unannotated values take their JSON form's", () => {
  assert.deepEqual(columns(example("json"), "json"), {
    Total: { Double: 2 },
    BookedAt: { DateTime: 1 },
    Customer: { String: 1 },
    Express: { Boolean: 1 },
    Visits: { Int64: 1 },
    CustomerId: { Guid: 1 },
  });
});

test("what the document warns of: a CSV column without @type is a String, an unannotated JSON 12 an Int32 and a date a String", () => {
  assert.deepEqual(columns("PartitionKey,RowKey,Total,BookedAt\r\np,1,12,2026-11-24T13:00:00Z\r\n", "csv"), {
    Total: { String: 1 },
    BookedAt: { String: 1 },
  });
  const json = `[{"PartitionKey":"p","RowKey":"1","Total":12,"BookedAt":"2026-11-24T13:00:00Z"},{"PartitionKey":"p","RowKey":"2","Total":7.5}]`;
  assert.deepEqual(columns(json, "json"), { Total: { Int32: 1, Double: 1 }, BookedAt: { String: 1 } });
});
