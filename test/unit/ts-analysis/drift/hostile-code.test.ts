/**
 * Design drift attacked with hostile TypeScript and hostile designs: keys
 * from spreads, destructuring, ternaries, self-references, NUL and lone
 * surrogates in literals, half-typed code, 5,000-part template keys, code
 * nested thousands deep; designs with syntax errors, two tables of one
 * name, tables whose names differ only in case, keys nested 3,000 deep.
 * Invariants: analysis never throws, reports no `internal` finding, ends in
 * bounded time, and one file the parser cannot take does not stop the
 * analysis of the others.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { DesignTable, tablesOfDesign } from "@ts-analysis/drift/design-index";
import { fuzz } from "../../../helpers/fuzz";

const ROOT = path.resolve(__dirname, "..", "..", "..", "..");
mkdirSync(path.join(ROOT, "test", "fixtures", "ts"), { recursive: true });
// Inside the repository, so that @azure/data-tables resolves from its node_modules.
const dir = mkdtempSync(path.join(ROOT, "test", "fixtures", "ts", ".tmp-drift-hostile-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const DESIGN = `service azure-table
table Orders {
  A: string(10)
  B: int(0..999)
  partitionKey = "P:" + A
  rowKey = pad(B, 3)
  query ByA where A = ?
}
table orders {
  A: string(10)
  partitionKey = A
  rowKey = A
}
table Orders {
  Z: string(10)
  partitionKey = Z
  rowKey = Z
}
table Broken {
  A: string(10
  partitionKey = pad(A,
  rowKey = "
}
table Deep {
  A: string(10)
  partitionKey = ${"lower(".repeat(3000)}A${")".repeat(3000)}
  rowKey = ${Array.from({ length: 2000 }, (_, i) => `"x${i}"`).join(" + ")} + A
}
`;
const designs = new Map<string, DesignTable>();
tablesOfDesign(DESIGN, "hostile.tdl", designs);
tablesOfDesign("table Half {\n  A: str", "half.tdl", designs);
tablesOfDesign("\u0000table \ud800 {", "nul.tdl", designs);

const TABLES = ["Orders", "orders", "ORDERS", "Broken", "Deep", "Half", "Nope", ""];
const HEAD =
  `import { TableClient, TableTransaction, odata } from "@azure/data-tables";\ndeclare const conn: string;\n` +
  TABLES.map((n, i) => `const c${i} = TableClient.fromConnectionString(conn, ${JSON.stringify(n)});`).join("\n") +
  "\n";

let files = 0;
/** Writes the file, analyses it and checks the invariants; returns the drift findings' messages. */
function analyzeChecked(analyzer: TsAnalyzer, body: string): { drift: string[]; notAnalysed?: string } {
  const file = path.join(dir, `f${files++}.ts`);
  const text = HEAD + body + "\n";
  writeFileSync(file, text);
  const t0 = performance.now();
  analyzer.update(file, text, 1);
  const r = analyzer.analyze(file);
  // Generous: it catches a hang or a quadratic walk, not a slow machine.
  assert.ok(performance.now() - t0 < 30_000, `${(performance.now() - t0).toFixed(0)} ms`);
  assert.deepEqual(
    r.findings.filter((f) => f.code === "internal").map((f) => f.message),
    [],
  );
  for (const f of r.findings) assert.ok(f.start >= 0 && f.end >= f.start && f.end <= text.length, `${f.code} out of the text`);
  return {
    drift: r.findings.filter((f) => f.code.startsWith("ts/design-drift")).map((f) => f.message),
    notAnalysed: r.notices?.find((n) => n.kind === "notAnalysed")?.text,
  };
}

const newAnalyzer = () => new TsAnalyzer({ designTable: (t) => (t ? designs.get(t) : undefined) });

const value = fc.constantFrom(
  "a",
  '"P:" + a',
  "`P:${a}`",
  'b ? "P:" + a : a',
  "o.partitionKey",
  'String(n).padStart(3, "0")',
  '"\\u0000" + a + "\\r\\ud800"',
  "p",
  "q()",
  '[a, n].join("_")',
  "`${`${`${a}`}`}`",
  "(((a)))",
  "a as string",
  "a!",
);
const entityArg = fc.oneof(
  fc.tuple(value, value).map(([pk, rk]) => `{ partitionKey: ${pk}, rowKey: ${rk} }`),
  value.map((pk) => `{ ...o, partitionKey: ${pk} }`),
  fc.constant("{ ...o }"),
  value.map((rk) => `{ ...{ partitionKey: "P:" + a }, rowKey: ${rk} }`),
);
const statement = fc.oneof(
  fc
    .tuple(fc.nat(TABLES.length - 1), fc.constantFrom("createEntity", "upsertEntity", "updateEntity"), entityArg)
    .map(([c, m, e]) => `await c${c}.${m}(${e});`),
  fc.tuple(fc.nat(TABLES.length - 1), value, value).map(([c, pk, rk]) => `await c${c}.getEntity(${pk}, ${rk});`),
  fc
    .tuple(fc.nat(TABLES.length - 1), value)
    .map(([c, v]) => `c${c}.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${${v}}\` } });`),
  fc
    .tuple(fc.nat(TABLES.length - 1), entityArg)
    .map(([c, e]) => `{ const tx = new TableTransaction(); tx.createEntity(${e}); await c${c}.submitTransaction(tx.actions); }`),
);
const program = fc
  .tuple(fc.array(statement, { minLength: 1, maxLength: 6 }), fc.option(fc.nat(400), { nil: undefined }))
  .map(([stmts, cut]) => {
    const body =
      `export async function f(a: string, n: number, b: boolean, o: { partitionKey: string; rowKey: string }) {\n` +
      `  const { partitionKey: p } = o; const q = (): string => q();\n  ${stmts.join("\n  ")}\n}`;
    // Half-typed: the file cut anywhere.
    return cut === undefined ? body : body.slice(0, cut);
  });

test("hostile code against hostile designs: no throw, no internal finding, bounded time", () => {
  const analyzer = newAnalyzer();
  fuzz("drift-hostile-code", program, (body) => void analyzeChecked(analyzer, body), 40);
});

test("5,000-part template keys, 3,000 ternaries and a 3,000-deep design key are compared in bounded time", () => {
  const analyzer = newAnalyzer();
  const parts = Array.from({ length: 5000 }, () => "x${a}").join("");
  const r = analyzeChecked(
    analyzer,
    `export async function f(a: string) { await c0.createEntity({ partitionKey: \`${parts}\`, rowKey: "1" }); }`,
  );
  assert.equal(r.drift.length, 1, "a 5,000-part key is not the design's");
  const ternaries = Array.from({ length: 3000 }, () => 'b ? "P:" + a : ').join("") + '"P:" + a';
  analyzeChecked(
    analyzer,
    `export async function f(a: string, b: boolean) { await c0.createEntity({ partitionKey: ${ternaries}, rowKey: "1" }); }`,
  );
  analyzeChecked(analyzer, `export async function f(a: string) { await c4.createEntity({ partitionKey: a, rowKey: a }); }`);
});

/**
 * Regression: TypeScript's parser recurses per nesting level; a file nested
 * 3,000 parentheses (or 800 functions) deep threw RangeError while the
 * program was built — for that file and then for every other file of the
 * project, on every later analysis.
 */
test("a file nested too deep for the parser is skipped with a reason, and the other files are still analysed", () => {
  const analyzer = newAnalyzer();
  const deep = analyzeChecked(
    analyzer,
    `export async function f(a: string) { await c0.createEntity({ partitionKey: ${"(".repeat(3000)}"P:" + a${")".repeat(3000)}, rowKey: "1" }); }`,
  );
  assert.match(deep.notAnalysed ?? "", /nested too deep for the TypeScript parser/);
  const fns = analyzeChecked(analyzer, `export function f() { ${"const g = () => { ".repeat(800)} ${"}; ".repeat(800)} }`);
  assert.match(fns.notAnalysed ?? "", /nested too deep/);
  // The next file of the same project: analysed, and its drift found.
  const next = analyzeChecked(
    analyzer,
    `export async function f(a: string) { await c0.createEntity({ partitionKey: "Q:" + a, rowKey: "1" }); }`,
  );
  assert.equal(next.notAnalysed, undefined);
  assert.equal(next.drift.length, 1, "the drift of the next file is found");
});
