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
const examples = (format: "csv" | "json") => [...DOC.matchAll(new RegExp("```" + format + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
const example = (format: "csv" | "json") => examples(format)[0];
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

test("a column without types takes the type of every row's values: numbers widen to one, ISO dates are DateTimes, true/false Booleans", () => {
  // The document's second CSV example, without @type columns.
  assert.deepEqual(columns(examples("csv")[1], "csv"), {
    Total: { Double: 2 },
    BookedAt: { DateTime: 2 },
    Express: { Boolean: 2 },
  });
  const json = `[{"PartitionKey":"p","RowKey":"1","Total":12,"BookedAt":"2026-11-24T13:00:00Z"},{"PartitionKey":"p","RowKey":"2","Total":7.5}]`;
  assert.deepEqual(columns(json, "json"), { Total: { Double: 2 }, BookedAt: { DateTime: 1 } });
});

test("a value of another form than its column's is written as its own and listed by line; a type chosen for the column stores all as one", () => {
  const csv = "PartitionKey,RowKey,BookedAt\r\np,1,2026-11-24T13:00:00Z\r\np,2,soon\r\np,3,2026-11-24T14:00:00Z\r\n";
  const plan = planImport(csv, "csv", REFUSE_ALL).summary;
  assert.deepEqual(plan.columns, [
    { name: "BookedAt", types: { DateTime: 2, String: 1 }, inferred: "DateTime", conflicts: 1, conflictLines: [3] },
  ]);
  const chosen = planImport(csv, "csv", { ...REFUSE_ALL, columns: { BookedAt: "String" } }).summary;
  assert.deepEqual(chosen.columns, [{ name: "BookedAt", types: { String: 3 }, inferred: "DateTime", chosen: "String" }]);
  // A type a value cannot be read as refuses it, by line.
  const refused = planImport(csv, "csv", { ...REFUSE_ALL, columns: { BookedAt: "Int64" } }).summary;
  assert.equal(refused.refused, true);
  assert.deepEqual(
    refused.problems.map((p) => [p.line, p.property]),
    [
      [2, "BookedAt"],
      [3, "BookedAt"],
      [4, "BookedAt"],
    ],
  );
});
