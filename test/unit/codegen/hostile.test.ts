/**
 * Hostile designs (the fuzzers' mutated examples: half-typed tokens, NUL,
 * lone surrogates, `\r`, deep nesting, long lines) never make the generator
 * throw: a table gets a module or a problem at a place inside the design,
 * and every module it writes is valid TypeScript whatever text the design
 * puts into names, comments and literals.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import ts from "typescript";
import { analyzeTdl } from "@core";
import { generateKeyBuilders } from "@codegen";
import { fuzz } from "../../helpers/fuzz";
import { hostileDesign } from "../../helpers/hostile-designs";

function syntaxErrors(text: string): string[] {
  const out = ts.transpileModule(text, {
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

function check(text: string): void {
  const result = generateKeyBuilders(analyzeTdl(text));
  for (const p of result.problems)
    assert.ok(p.start >= 0 && p.end >= p.start && p.end <= text.length, `problem out of the text: ${p.start}..${p.end}`);
  for (const m of result.modules) {
    assert.deepEqual(syntaxErrors(m.text), [], m.table);
    // One line per comment: a design's text never opens or closes a comment of its own.
    assert.doesNotMatch(m.text, /\u2028|\u2029|\u0000/);
  }
}

test("hostile designs give modules that parse, or problems inside the design", () => {
  fuzz("codegen-hostile", hostileDesign, (text) => check(text), 100);
});

test("names, comments and literals of a design cannot break out of the generated code", () => {
  const design = `table Odd {
  A: enum("x\\"y", "* alert(1) *", "\\u2028")
  B: string(1..5) charset "a-z*"
  C: string(1..5) charset "*/\\u0000"
  partitionKey = "p*" + A
  rowKey = B + "!\`\${x}\`"
  query Q where A = "* alert(1) *" and B prefix "\`"
}
`;
  check(design);
  const result = generateKeyBuilders(analyzeTdl(design));
  assert.deepEqual(result.problems, []);
  assert.match(result.modules[0]!.text, /"\* alert\(1\) \*"/);
});

test("a key nested 5,000 deep and a 1 MB line are refused or generated quickly", () => {
  const deep = `table Deep {\n  A: int(0..9)\n  partitionKey = ${"lower(".repeat(5000)}A${")".repeat(5000)}\n  rowKey = "r"\n}\n`;
  const wide = `table Wide {\n  A: string(1..5)\n  partitionKey = A + "${"x".repeat(1 << 20)}"\n  rowKey = "r"\n}\n`;
  for (const text of [deep, wide]) {
    const t0 = performance.now();
    check(text);
    assert.ok(performance.now() - t0 < 5000, `${(performance.now() - t0).toFixed(0)} ms`);
  }
  assert.ok(fc.sample(hostileDesign, 1).length === 1);
});
