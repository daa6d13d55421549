/**
 * The generated module of every example table compiles under `strict` (and
 * the stricter flags a careful project turns on) and passes the project's
 * own TypeScript rules with zero findings.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import ts from "typescript";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { generateExamples, GeneratedTable, removeDir, tempDir, STRICT } from "./examples";

let dir = "";
let generated: ReturnType<typeof generateExamples>;
let tables: GeneratedTable[] = [];

before(() => {
  dir = tempDir();
  generated = generateExamples(dir);
  tables = generated.tables;
});
after(() => removeDir(dir));

test("every table of every example design gets a module, or the design's error says why not", () => {
  const names = new Set(tables.map((t) => `${t.design}:${t.table}`));
  assert.ok(tables.length >= 10, `only ${tables.length} modules`);
  for (const t of tables) assert.ok(t.text.length > 0);
  for (const p of generated.problems) {
    assert.ok(!names.has(`${p.design}:${p.table}`), `${p.table} has a module and a problem`);
    // A problem is the analyzer's own error, not a limit of the generator.
    assert.notEqual(p.code, "codegen", `${p.design} ${p.table}: ${p.message}`);
  }
});

test("the generated modules compile under strict with no diagnostic", () => {
  const program = ts.createProgram(
    tables.map((t) => t.file),
    STRICT,
  );
  const diags = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName.split("/").pop()}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
  assert.deepEqual(diags, []);
});

test("the project's TypeScript rules find nothing in the generated code", () => {
  const analyzer = new TsAnalyzer();
  for (const t of tables) {
    analyzer.update(t.file, t.text, 1);
    const result = analyzer.analyze(t.file);
    // The rules only look at code that uses the SDK: the module must be such code.
    assert.ok(result.usesSdk, `${t.table}: not seen as SDK code`);
    assert.deepEqual(
      result.findings.map((f) => `${t.table} ${f.code}: ${f.message}`),
      [],
    );
  }
});

test("a broken module would be caught: the compile check is not vacuous", () => {
  const t = tables[0];
  const host = ts.createCompilerHost(STRICT);
  const read = host.readFile.bind(host);
  host.readFile = (f) => (f === t.file ? t.text.replace(/: string \{/, ": number {") : read(f));
  const program = ts.createProgram([t.file], STRICT, host);
  assert.ok(ts.getPreEmitDiagnostics(program).length > 0);
});
