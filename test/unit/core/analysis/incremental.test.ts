import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl, TdlAnalyzer } from "@core";
import { parse } from "@core/tdl/parser";
import { chunkStarts } from "@core/tdl/chunks";

const files = ["marathon", "ledger", "telemetry", "student-cards/composite-colon"].map((f) => readFileSync(`examples/${f}.tdl`, "utf8"));
const TRICKY = `// head
service azure-table
/* a block
table NotATable { */
table A { X: int
  partitionKey = X +
table B {
  table: string
  S: string charset "table"
  partitionKey = S
  rowKey = "x"
} table C { Y: int
  partitionKey = Y
}
table D {
  Q: enum(A,
table E {
  R: int
  partitionKey = pad(R, 3)
  rowKey = "r"
}
`;

function plain(text: string) {
  const a = analyzeTdl(text);
  return { findings: a.findings, tables: a.tables.map((t) => [t.base + t.table.start, t.base + t.table.end, t.table.name.text]) };
}

test("chunks start exactly where tables start a line", () => {
  assert.deepEqual(
    chunkStarts(TRICKY).map((o) => TRICKY.slice(o, o + 7)),
    ["// head", "table A", "table B", "table D", "table E"],
  );
});

test("chunked analysis finds what a whole-file parse finds", () => {
  for (const text of [...files, TRICKY]) {
    const whole = parse(text);
    const a = analyzeTdl(text);
    assert.deepEqual(a.errors, whole.errors);
    assert.deepEqual(
      a.tables.map((t) => [t.base + t.table.start, t.base + t.table.end, t.table.name.text]),
      whole.file.tables.map((t) => [t.start, t.end, t.name.text]),
    );
  }
});

test("reusing unchanged tables across edits gives the same result as a fresh analysis", () => {
  const analyzer = new TdlAnalyzer();
  let text = files[1];
  const edits: Array<(t: string) => string> = [
    (t) => t.replace("TransferId:    guid", "TransferId:    guid\n  Extra: int"),
    (t) => t.replace("partitionKey = AccountNumber", "partitionKey = AccountNumbr"),
    (t) => "// moved down\n\n" + t,
    (t) => t.replace("service azure-table", "service cosmos-table"),
    (t) => t.replace("AccountNumbr", "AccountNumber"),
    (t) => t + "\ntable Broken {\n  A: int\n  partitionKey = A +\n",
  ];
  for (const edit of edits) {
    text = edit(text);
    const incremental = analyzer.analyze(text);
    assert.deepEqual(
      {
        findings: incremental.findings,
        tables: incremental.tables.map((t) => [t.base + t.table.start, t.base + t.table.end, t.table.name.text]),
      },
      plain(text),
    );
  }
});
