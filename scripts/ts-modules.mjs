// Generated TypeScript modules for the analysis's time bounds (issues #19 and #24), written here
// from the shapes the issues describe: the regression tests, `npm run bench` and the fuzzer
// share them, so that the test's bound and the benchmark's growth rate measure the same code.

/**
 * One transaction built from an array plus `k` small functions that each loop over an array of
 * their own (the shape that made the analysis factorial in k). `variant`: "map" (the actions made
 * with `ids.map`), "tx" (a TableTransaction filled in a `for…of`), "param" (the functions loop over a
 * parameter) or "let" (over a `let` assigned once).
 */
export function loopsModule(k, variant = "map") {
  const out = [
    'import { TableClient, TableTransaction } from "@azure/data-tables";',
    'const store = TableClient.fromConnectionString("UseDevelopmentStorage=true", "Gadgets");',
    "",
  ];
  if (variant === "tx") {
    out.push(
      "export async function storeAll(keys: string[]) {",
      "  const tx = new TableTransaction();",
      '  for (const key of keys) tx.upsertEntity({ partitionKey: "lot", rowKey: key });',
      "  await store.submitTransaction(tx.actions);",
      "}",
    );
  } else {
    out.push(
      "export async function storeAll(keys: string[]) {",
      '  const actions = keys.map((key) => ["upsert", { partitionKey: "lot", rowKey: key }] as const);',
      "  await store.submitTransaction(actions as any);",
      "}",
    );
  }
  for (let i = 0; i < k; i++) {
    if (variant === "param") out.push(`export function sum${i}(values: number[]) { let s = 0; for (const v of values) s += v; return s; }`);
    else if (variant === "let")
      out.push(`export function sum${i}() { let values; values = [${i}, 2, 3]; let s = 0; for (const v of values) s += v; return s; }`);
    else
      out.push(
        `export function sum${i}() { const values${i} = [${i}, ${i + 2}, ${i + 4}]; let s = 0; for (const v of values${i}) s += v; return s; }`,
      );
  }
  return out.join("\n") + "\n";
}

/**
 * The module of issue #19 (1), in our words: a client per table name from a union of literal names
 * taken from an `as const` array, with a `Map` cache; `n` functions reading and writing through it
 * (transactions built with `.map` over a `chunk()` helper, odata listings, a getEntity then an upsert
 * that spreads it inside try/catch, an `ensureTables()` that loops over the names).
 */
export function cachedClientsModule(n) {
  const out = [
    'import { TableClient, odata } from "@azure/data-tables";',
    'const KINDS = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta"] as const;',
    "type Kind = (typeof KINDS)[number];",
    "const cache = new Map<Kind, TableClient>();",
    "function clientFor(kind: Kind): TableClient {",
    "  let c = cache.get(kind);",
    "  if (!c) {",
    '    c = TableClient.fromConnectionString(process.env.STORAGE ?? "", kind);',
    "    cache.set(kind, c);",
    "  }",
    "  return c;",
    "}",
    "function chunk<T>(items: T[], size: number): T[][] {",
    "  const out: T[][] = [];",
    "  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));",
    "  return out;",
    "}",
    "export async function ensureTables() {",
    "  for (const kind of KINDS) await clientFor(kind).createTable();",
    "}",
  ];
  for (let i = 0; i < n; i++) {
    const kind = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta"][i % 7];
    switch (i % 4) {
      case 0:
        out.push(
          `export async function saveMany${i}(owner: string, items: Array<{ id: string; size: number }>) {`,
          `  const groups = chunk(items, 100);`,
          `  for (const group of groups) {`,
          `    const actions = group.map((it) => ["upsert", { partitionKey: owner, rowKey: it.id, size: it.size }] as const);`,
          `    await clientFor("${kind}").submitTransaction(actions as any);`,
          `  }`,
          `}`,
        );
        break;
      case 1:
        out.push(
          `export async function list${i}(owner: string) {`,
          `  const rows = clientFor("${kind}").listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${owner}\` } });`,
          `  const found = [];`,
          `  for await (const row of rows) found.push(row);`,
          `  return found;`,
          `}`,
        );
        break;
      case 2:
        out.push(
          `export async function bump${i}(owner: string, id: string) {`,
          `  try {`,
          `    const current = await clientFor("${kind}").getEntity<{ hits: number }>(owner, id);`,
          `    await clientFor("${kind}").upsertEntity({ ...current, hits: current.hits + 1 }, "Replace");`,
          `  } catch {`,
          `    await clientFor("${kind}").upsertEntity({ partitionKey: owner, rowKey: id, hits: 1 }, "Replace");`,
          `  }`,
          `}`,
        );
        break;
      default:
        out.push(
          `export function total${i}(values: number[]) {`,
          `  const extra${i} = [1, 2, 3];`,
          `  let s = 0;`,
          `  for (const v of [...values, ...extra${i}]) s += v;`,
          `  return s;`,
          `}`,
        );
    }
  }
  return out.join("\n") + "\n";
}

/** A long module (about `lines` lines, ~40 bytes each) with an SDK call every 100 lines: the large-file shape of issue #24. */
export function largeModule(lines = 5000) {
  const out = [
    'import { TableClient, odata } from "@azure/data-tables";',
    'const orders = TableClient.fromConnectionString(process.env.STORAGE ?? "", "Orders");',
    "export interface Line { sku: string; qty: number; price: number; note?: string }",
  ];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `export function price${i}(lines: Line[], discount = ${i % 10} / 100): number {`,
      "  let total = 0;",
      "  for (const l of lines) {",
      "    const base = l.qty * l.price;",
      "    total += l.note ? base * (1 - discount) : base;",
      "  }",
      "  return Math.round(total * 100) / 100;",
      "}",
    );
    if (i % 12 === 0)
      out.push(
        `export async function store${i}(customer: string, seq: number, lines: Line[]) {`,
        `  await orders.upsertEntity({ partitionKey: customer, rowKey: String(seq).padStart(10, "0"), total: price${i}(lines) });`,
        `  return orders.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${customer}\` } });`,
        "}",
      );
  }
  return out.join("\n") + "\n";
}

/**
 * Key builders of wide template literals calling each other (issue #33, 8): `k0` joins `width` copies of its
 * parameter, each `k<i>` joins `width` calls of `k<i-1>`, and the write keys by the last: `width ** levels` parts
 * if nothing bounded them.
 */
export function wideKeyModule(width, levels = 3) {
  const join = (part) => Array.from({ length: width }, () => part).join("-");
  const lines = [
    'import { TableClient } from "@azure/data-tables";',
    'const t = TableClient.fromConnectionString(process.env.CONN ?? "", "Wide");',
  ];
  lines.push(`const k0 = (x: string) => \`${join("${x}")}\`;`);
  for (let l = 1; l < levels; l++) lines.push(`const k${l} = (x: string) => \`${join(`\${k${l - 1}(x)}`)}\`;`);
  lines.push(
    `export async function save(id: string) {`,
    `  await t.createEntity({ partitionKey: "wide", rowKey: k${levels - 1}(id) });`,
    `}`,
  );
  return lines.join("\n") + "\n";
}
