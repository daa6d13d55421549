/**
 * Regression (a race seen over JSON-RPC): the language server makes a new
 * analyzer when the settings arrive, and every analyzer's projects share
 * one document registry, which hands back the syntax tree it holds for a
 * file *name and version*. Versions counted per project restarted at 1, so
 * the new project's first text of a file got the tree of the old project's
 * first text: findings of the old text published for the new version.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { TsAnalyzer } from "@ts-analysis/analysis";

const code = (pk: string) => `import { TableClient } from "@azure/data-tables";
const visits = TableClient.fromConnectionString(process.env.CONN ?? "", "Visits");
export async function visit(page: string) {
  await visits.upsertEntity({ partitionKey: ${pk}, rowKey: page });
}
`;

test("a second analyzer reads its own text of a file, not the first analyzer's text of the same version", () => {
  const dir = mkdtempSync(path.resolve("test/fixtures/ts/.tmp-registry-"));
  try {
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
    const file = path.join(dir, "visit.ts");
    const constantKey = (a: TsAnalyzer) => a.analyze(file).findings.some((f) => f.code === "ts/constant-partition-key");
    const first = new TsAnalyzer();
    first.update(file, code('"all"'), 1);
    assert.equal(constantKey(first), true, "the first text writes one constant partition key");
    const second = new TsAnalyzer();
    second.update(file, code("page"), 1);
    assert.equal(constantKey(second), false, "the second analyzer's text varies the key");
    first.update(file, code("page"), 2);
    second.update(file, code('"all"'), 2);
    assert.equal(constantKey(first), false);
    assert.equal(constantKey(second), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
