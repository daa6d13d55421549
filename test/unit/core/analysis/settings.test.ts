import { after, test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, applyUserSettings } from "@core";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { TsFixture } from "../../../helpers/typescript";

const DESIGN = (pkLine: string) => `table Orders {
  Customer: string(20)
  Id: int(0..99999)
${pkLine}
  rowKey = pad(Id, 5)
  rows 1M
}
`;

const at = (text: string, f: { start: number; end: number }) => text.slice(f.start, f.end);

test("tdl-ignore-next-line silences the listed codes on the next line only, in any line-end style", () => {
  const plain = DESIGN(`  partitionKey = "ALL"`);
  assert.deepEqual(
    analyzeTdl(plain)
      .findings.filter((f) => f.code === "partition/single-value")
      .map((f) => at(plain, f)),
    ['"ALL"'],
  );
  for (const eol of ["\n", "\r\n", "\r"]) {
    const ignored = DESIGN(`  // tdl-ignore-next-line partition/single-value\n  partitionKey = "ALL"`).replace(/\n/g, eol);
    assert.deepEqual(
      analyzeTdl(ignored).findings.filter((f) => f.code === "partition/single-value"),
      [],
      JSON.stringify(eol),
    );
  }
  // Another code listed: this one still shows. A comment two lines up does not count.
  const other = DESIGN(`  // tdl-ignore-next-line key/too-long, query/class\n  partitionKey = "ALL"`);
  assert.equal(analyzeTdl(other).findings.filter((f) => f.code === "partition/single-value").length, 1);
  const far = DESIGN(`  // tdl-ignore-next-line partition/single-value\n\n  partitionKey = "ALL"`);
  assert.equal(analyzeTdl(far).findings.filter((f) => f.code === "partition/single-value").length, 1);
  // No code: every finding on the next line. A prefix of the marker is not the marker.
  const all = DESIGN(`  // tdl-ignore-next-line\n  partitionKey = "ALL"`);
  assert.equal(analyzeTdl(all).findings.filter((f) => f.code === "partition/single-value").length, 0);
  const prefix = DESIGN(`  // tdl-ignore-next-lines partition/single-value\n  partitionKey = "ALL"`);
  assert.equal(analyzeTdl(prefix).findings.filter((f) => f.code === "partition/single-value").length, 1);
});

test("rule levels from the options change a code's severity or turn it off; other codes keep theirs", () => {
  const text = DESIGN(`  partitionKey = "ALL"`);
  const base = analyzeTdl(text).findings;
  assert.equal(base.find((f) => f.code === "partition/single-value")?.severity, "warning");
  const raised = analyzeTdl(text, { rules: { "partition/single-value": "error" } }).findings;
  assert.equal(raised.find((f) => f.code === "partition/single-value")?.severity, "error");
  const off = analyzeTdl(text, { rules: { "partition/single-value": "off" } }).findings;
  assert.deepEqual(
    off.map((f) => f.code),
    base.map((f) => f.code).filter((c) => c !== "partition/single-value"),
  );
});

test("an internal failure is never silenced, by a level or by a comment", () => {
  const text = `// tdl-ignore-next-line\ntable Orders {\n}\n`;
  const internal = { code: "internal", severity: "error" as const, message: "rule x failed", start: 24, end: 30 };
  const other = { ...internal, code: "missing-key" };
  assert.deepEqual(applyUserSettings([internal, other], text, { internal: "off" }), [internal]);
});

const fx = new TsFixture(undefined, new TsAnalyzer({ analysis: { rules: { "ts/constant-partition-key": "error" } } }));
after(() => fx.dispose());

test("TypeScript and JavaScript honour the same comment and the same levels", () => {
  const source = `import { TableClient } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Visitors");
export async function visit(id: string) {
  await client.createEntity({ partitionKey: "VISITOR", rowKey: id });
  // tdl-ignore-next-line ts/constant-partition-key
  await client.createEntity({ partitionKey: "VISITOR", rowKey: id + "x" });
}
`;
  const file = fx.file("v.ts", source);
  const found = fx.analyzer.analyze(file).findings.filter((f) => f.code === "ts/constant-partition-key");
  assert.equal(found.length, 1, "the second write is silenced");
  assert.equal(found[0].severity, "error", "the level from the options");
  assert.equal(source.slice(found[0].start, found[0].end), '"VISITOR"');
});
