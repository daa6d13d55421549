/**
 * `tdl codegen` attacked with names and shapes a design may legally hold:
 * tables, properties, queries and indexes named after TypeScript keywords
 * and Object.prototype members (`constructor`, `__proto__`, `default`,
 * `then`), names differing only in case, keys that are a constant or a hash
 * (nothing to read back), huge pad widths, nested functions, literals with
 * `${…}`, backticks and comment closers. Invariant: the generator never
 * throws, and every module it writes compiles under `strict` with the
 * careful flags (noUnusedLocals, exactOptionalPropertyTypes, …) — or the
 * table gets a problem with a clear message instead.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import ts from "typescript";
import { analyzeTdl } from "@core";
import { generateKeyBuilders } from "@codegen";
import { fuzz } from "../../helpers/fuzz";
import { removeDir, tempDir, STRICT } from "./examples";

const dir = tempDir();
after(() => removeDir(dir));

/** Strict diagnostics of modules written to the temporary folder, as `file:line message`. */
function strictDiagnostics(modules: Array<{ name: string; text: string }>): string[] {
  const files = modules.map((m) => {
    const file = path.join(dir, m.name);
    writeFileSync(file, m.text);
    return file;
  });
  const program = ts.createProgram(files, STRICT);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

const NAMES = ["constructor", "__proto__", "default", "class", "then", "toString", "valueOf", "hasOwnProperty", "prototype", "Object"];
const NAMES_MORE = [
  "Promise",
  "undefined",
  "NaN",
  "string",
  "let",
  "yield",
  "await",
  "enum",
  "arguments",
  "eval",
  "out",
  "key",
  "k",
  "s",
  "e",
];
const ident = fc.constantFrom(...NAMES, ...NAMES_MORE, "Things", "things", "Value");
const tableName = fc.constantFrom(
  "Things",
  "things",
  "Default",
  "Constructor",
  "Promise",
  "Object",
  "Prototype",
  "Delete",
  "Class",
  "Then",
);
const literal = fc.constantFrom("", "x", "${a}", "`", "*/", "/*", "\\u2028", "'", '\\"', "\\\\");
/** A key over properties S (string), N (int) and D (datetime), by name. */
const keyOf = (s: string, n: string, d: string) =>
  fc.constantFrom(
    `${s}`,
    `pad(${n}, 6)`,
    `hash(${s}, 4)`,
    `lower(hash(${s}, 8))`,
    `"c"`,
    `bucket(${s}, 16) + "_" + ${s}`,
    `date(${d}, "yyyyMMdd") + reverse(${d})`,
    `reverse(${n}) + ${s}`,
    `upper(${s}) + pad(${n}, 3)`,
  );

const design = fc
  .tuple(tableName, fc.uniqueArray(ident, { minLength: 3, maxLength: 3 }), ident, ident, literal)
  .chain(([table, [s, n, d], query, index, lit]) =>
    fc.tuple(keyOf(s, n, d), keyOf(s, n, d), keyOf(s, n, d)).map(
      ([pk, rk, ix]) => `service azure-table

table ${table} {
  ${s}: string(1..8) charset "a-z"
  ${n}: int(0..999)
  ${d}: datetime
  partitionKey = "${lit}" + ${pk}
  rowKey       = ${rk}
  index ${index} rowKey = "I:" + ${ix}
  query ${query} where ${s} = ? and ${n} = ?
  query ${query}Range where ${s} = ? and ${n} between ?
  insert ${query}Insert
  transaction ${query}Tx entities 2 sharing ${s}
}
`,
    ),
  );

test("hostile names and key shapes: no throw, and every module compiles under strict or its table gets a problem", () => {
  const modules: Array<{ name: string; text: string; design: string }> = [];
  let designs = 0;
  fuzz(
    "codegen-hostile-names",
    design,
    (text) => {
      const result = generateKeyBuilders(analyzeTdl(text));
      for (const p of result.problems) {
        assert.ok(p.start >= 0 && p.end >= p.start && p.end <= text.length, `problem out of the text: ${p.start}..${p.end}`);
        assert.ok(p.message.length > 10, p.message);
      }
      assert.ok(result.modules.length + result.problems.length > 0, text);
      for (const m of result.modules) modules.push({ name: `d${designs}_${m.fileName}`, text: m.text, design: text });
      designs++;
    },
    30,
  );
  // The property is checked in one program (a compiler per design would take minutes): a diagnostic names the design's file.
  assert.ok(modules.length >= 10, `only ${modules.length} modules of ${designs} designs`);
  const diags = strictDiagnostics(modules);
  const firstBad = modules.find((m) => diags.some((d) => d.startsWith(m.name)));
  assert.deepEqual(diags, [], firstBad?.design);
});

/** Regression: a key with no segment to read back (a constant, a hash) was parsed with `const s = keySplit(…)` never read: TS6133 under noUnusedLocals. */
test("constant and hash-only keys give parsers that compile under noUnusedLocals", () => {
  const text = `table Things {
  S: string(5)
  partitionKey = lower(hash(S, 4))
  rowKey       = "x"
}
`;
  const result = generateKeyBuilders(analyzeTdl(text));
  assert.deepEqual(result.problems, []);
  const m = result.modules[0]!;
  assert.match(m.text, /export function parseRowKey/);
  assert.deepEqual(strictDiagnostics([{ name: "const_keys.keys.ts", text: m.text }]), []);
});

/** Regression: `Orders` and `orders` were both written, to one file where names ignore case (the second replaced the first). */
test("tables whose file names differ only in case, or are Windows device names, are refused with a clear problem", () => {
  const table = (name: string) => `table ${name} {\n  A: string(1..5)\n  partitionKey = A\n  rowKey = "r"\n}\n`;
  const text = table("Orders") + table("orders") + table("Console") + table("CON");
  const result = generateKeyBuilders(analyzeTdl(text));
  assert.deepEqual(
    result.modules.map((m) => m.fileName),
    ["Orders.keys.ts", "Console.keys.ts"],
  );
  const byTable = new Map(result.problems.map((p) => [p.table, p]));
  assert.match(byTable.get("orders")!.message, /same file as table 'Orders' \(Orders\.keys\.ts\)/);
  assert.equal(text.slice(byTable.get("orders")!.start, byTable.get("orders")!.end), "orders");
  assert.match(byTable.get("CON")?.message ?? "", /Windows reserves/);
});
