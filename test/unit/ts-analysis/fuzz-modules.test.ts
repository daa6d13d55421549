/**
 * Fuzzed TypeScript modules (issue #24): many functions built from the
 * shapes that made the analysis blow up or go quiet on real projects —
 * loops over arrays of their own, transactions from `.map` over a chunk
 * helper or filled in a loop, a client factory over a union of table names
 * with a cache, listings with conditional options, a read then a write, a
 * `while` that fills an array, nested loops, recursion. Whatever the mix,
 * the analysis must finish inside its budget (no ts/budget notice), never
 * fail inside (no internal finding), and its work must stay linear in the
 * module's size. `npm run fuzz` runs it long with a random seed.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { TsFixture } from "../../helpers/typescript";
import { fuzz } from "../../helpers/fuzz";

const fx = new TsFixture();
after(() => fx.dispose());

const NAMES = ["Orders", "Users", "Events", "Audit", "Carts", "Tokens", "Ledger"];

/** How the module gets its clients. */
const clientSource = fc.constantFrom("direct", "factory", "cached-union", "parameter");

/** One function of the module, by kind; `i` keeps names unique. */
const piece = fc.record({
  kind: fc.constantFrom(
    "own-array-loop",
    "map-transaction",
    "loop-transaction",
    "conditional-listing",
    "read-then-write",
    "while-fill",
    "nested-loops",
    "recursion",
    "ensure-tables",
    "helper-save",
  ),
  table: fc.constantFrom(...NAMES),
  constantKey: fc.boolean(),
});

function header(source: string): string[] {
  const union = NAMES.map((n) => `"${n}"`).join(", ");
  const common = [
    'import { TableClient, TableTransaction, odata } from "@azure/data-tables";',
    `const NAMES = [${union}] as const;`,
    "type Name = (typeof NAMES)[number];",
    "function chunk<T>(items: T[], size: number): T[][] {",
    "  const out: T[][] = [];",
    "  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));",
    "  return out;",
    "}",
  ];
  switch (source) {
    case "direct":
      return [
        ...common,
        'const shared = TableClient.fromConnectionString(process.env.CS ?? "", "Orders");',
        "const client = (_: Name) => shared;",
      ];
    case "factory":
      return [...common, 'const client = (name: Name) => TableClient.fromConnectionString(process.env.CS ?? "", name);'];
    case "cached-union":
      return [
        ...common,
        "const cache = new Map<Name, TableClient>();",
        "function client(name: Name): TableClient {",
        "  let c = cache.get(name);",
        '  if (!c) { c = TableClient.fromConnectionString(process.env.CS ?? "", name); cache.set(name, c); }',
        "  return c;",
        "}",
      ];
    default:
      return [
        ...common,
        "let injected: TableClient;",
        "export function use(c: TableClient) { injected = c; }",
        "const client = (_: Name) => injected;",
      ];
  }
}

function body(p: { kind: string; table: string; constantKey: boolean }, i: number): string[] {
  const pk = p.constantKey ? '"all"' : "owner";
  const c = `client("${p.table}")`;
  switch (p.kind) {
    case "own-array-loop":
      return [`export function sum${i}() { const xs${i} = [${i}, 2, 3]; let s = 0; for (const x of xs${i}) s += x; return s; }`];
    case "map-transaction":
      return [
        `export async function saveAll${i}(owner: string, ids: string[]) {`,
        `  for (const group of chunk(ids, 100)) await ${c}.submitTransaction(group.map((id) => ["upsert", { partitionKey: ${pk}, rowKey: id }] as const) as any);`,
        "}",
      ];
    case "loop-transaction":
      return [
        `export async function storeAll${i}(owner: string, ids: string[]) {`,
        "  const tx = new TableTransaction();",
        `  for (const id of ids) tx.upsertEntity({ partitionKey: ${pk}, rowKey: id });`,
        `  await ${c}.submitTransaction(tx.actions);`,
        "}",
      ];
    case "conditional-listing":
      return [
        `export async function list${i}(owner?: string) {`,
        `  const rows = ${c}.listEntities({ queryOptions: owner ? { filter: odata\`PartitionKey eq \${owner}\` } : undefined });`,
        "  const out = [];",
        "  for await (const r of rows) out.push(r);",
        "  return out;",
        "}",
      ];
    case "read-then-write":
      return [
        `export async function bump${i}(owner: string, id: string) {`,
        "  let e: any;",
        `  try { e = await ${c}.getEntity<{ n: number }>(owner, id); } catch { e = { partitionKey: ${pk}, rowKey: id, n: 0 }; }`,
        `  await ${c}.upsertEntity({ ...e, n: e.n + 1 }, "Replace");`,
        "}",
      ];
    case "while-fill":
      return [
        `export async function fill${i}(owner: string) {`,
        `  const actions${i}: any[] = [];`,
        `  while (actions${i}.length < 50) actions${i}.push(["create", { partitionKey: ${pk}, rowKey: String(actions${i}.length) }]);`,
        `  await ${c}.submitTransaction(actions${i});`,
        "}",
      ];
    case "nested-loops":
      return [
        `export function grid${i}(rows: number[][]) {`,
        `  const seen${i} = [1, 2];`,
        "  let s = 0;",
        `  for (const r of rows) for (const v of r) for (const w of seen${i}) s += v * w;`,
        "  return s;",
        "}",
      ];
    case "recursion":
      return [`export function depth${i}(n: number): number { return n <= 0 ? 0 : 1 + depth${i}(n - 1); }`];
    case "ensure-tables":
      return [`export async function ensure${i}() { for (const n of NAMES) await client(n).createTable(); }`];
    default:
      return [
        `async function save${i}(t: TableClient, entity: { partitionKey: string; rowKey: string }) { await t.upsertEntity(entity); }`,
        `export async function record${i}(owner: string, id: string) { await save${i}(${c}, { partitionKey: ${pk}, rowKey: id }); }`,
      ];
  }
}

const moduleArb = fc.record({ source: clientSource, pieces: fc.array(piece, { minLength: 1, maxLength: 40 }) });

test("fuzz: generated modules of many functions are analysed inside their budget, without an internal failure, in linear work", (t) => {
  let n = 0;
  const worst = { ms: 0, stepsPerLine: 0 };
  fuzz(
    "ts-modules",
    moduleArb,
    (m) => {
      const text = [...header(m.source), ...m.pieces.flatMap((p, i) => body(p, i))].join("\n") + "\n";
      const result = fx.analyzer.analyze(fx.file(`fuzz-${n++}.ts`, text));
      const codes = result.findings.map((f) => f.code);
      assert.ok(!codes.includes("ts/budget"), `the budget was spent on:\n${text}`);
      assert.ok(!codes.some((c) => c.startsWith("internal")), `${codes.join(", ")}\n${text}`);
      // Linear: a few hundred steps per line at most (the factorial shapes cost millions at 40 functions).
      const lines = text.split("\n").length;
      // A module without an SDK call (only loops and recursion drawn) is not analysed further: no stats.
      const steps = result.stats?.steps ?? 0;
      worst.ms = Math.max(worst.ms, result.stats?.ms ?? 0);
      worst.stepsPerLine = Math.max(worst.stepsPerLine, steps / lines);
      assert.ok(steps < 400 * lines, `${steps} steps for ${lines} lines:\n${text}`);
    },
    25,
  );
  // The README's reliability table quotes these from a long run (npm run fuzz).
  t.diagnostic(`${n} modules; worst analysis ${worst.ms.toFixed(0)} ms, ${worst.stepsPerLine.toFixed(0)} steps a line`);
});
