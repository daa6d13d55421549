import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { noticeText, TsFixture } from "../../helpers/typescript";
import { expectSaid } from "../../helpers/analysis";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
interface Order { customer: string; bib: number; total: number; id: string; status: "open" | "openPaid" | "closed" }
`;

test("keys built in helper functions and spreads are followed; types decide, not names", () => {
  fx.expect(
    "n.ts",
    `${HEAD}
function keysOf(o: Order) {
  return { partitionKey: o.customer, rowKey: \`\${«o.total»}\` };
}
const base = (x: number) => ({ rowKey: "r" + «x» });
export async function save(o: Order, bib: string) {
  await client.createEntity({ ...keysOf(o), status: o.status });
  await client.createEntity({ partitionKey: o.customer, ...base(o.total) });
  await client.createEntity({ partitionKey: o.customer, rowKey: "r" + bib });
}
`,
    "ts/unpadded-number",
  );
});

test("silence: well-built keys, and files without the SDK", () => {
  const good = fx.file(
    "p.ts",
    `${HEAD}
import { createHash } from "node:crypto";
export async function save(o: Order) {
  const pk = createHash("md5").update(o.id).digest("hex").slice(0, 4) + "_" + o.id;
  await client.createEntity({ partitionKey: pk, rowKey: String(o.bib).padStart(10, "0") + "," + o.customer });
  await client.createEntity({ partitionKey: o.customer, rowKey: o.id });
}
`,
  );
  assert.deepEqual(
    fx.analyzer.analyze(good).findings.map((f) => f.code),
    [],
  );
  const plain = fx.file(
    "q.ts",
    `export const key = (n: number) => \`\${n}:\${Date.now()}\`;\nexport const client = { createEntity(e: object) { return e; } };\nclient.createEntity({ partitionKey: key(1), rowKey: "x" });\n`,
  );
  assert.deepEqual(fx.analyzer.analyze(plain), { findings: [], queries: [], usesSdk: false });
});

test("without resolvable SDK types, TableClient usage is still recognised syntactically", () => {
  const unresolved = new TsFixture({
    compilerOptions: { strict: true, noEmit: true, baseUrl: ".", paths: { "@azure/data-tables": ["./missing"] }, types: [] },
  });
  try {
    unresolved.expect(
      "r.ts",
      `import { TableClient } from "@azure/data-tables";
const client = new TableClient("https://x.table.core.windows.net", "Orders");
export async function log(n: number) {
  await client.createEntity({ partitionKey: \`\${«Date.now()»}\`, rowKey: "x" });
}
`,
      "ts/append-only-key",
    );
  } finally {
    unresolved.dispose();
  }
});

test("clients from helpers: factories, repository base classes, DI containers and wrapped types are recognised without importing the SDK", () => {
  fx.file(
    "tables.ts",
    `import { TableClient } from "@azure/data-tables";
const conn = process.env.STORAGE ?? "";
export function getTableClient(name: string): TableClient {
  return TableClient.fromConnectionString(conn, name);
}
export abstract class Repository {
  protected readonly table: TableClient;
  constructor(name: string) { this.table = getTableClient(name); }
}
export interface Container { resolve(token: "tables"): TableClient & { ready: boolean } }
export type Writer = Pick<TableClient, "createEntity" | "upsertEntity">;
`,
  );
  fx.expect(
    "visitors.ts",
    `import { getTableClient, Repository, Container, Writer } from "./tables";
const visitors = getTableClient("visitors");
export async function track(page: string) {
  await visitors.upsertEntity({ partitionKey: «"global"», rowKey: page, hits: 1 });
}
export class Subscribers extends Repository {
  constructor() { super("subscribers"); }
  add(email: string) { return this.table.createEntity({ partitionKey: «"subscribers"», rowKey: email }); }
}
export function viaContainer(c: Container, email: string) {
  return c.resolve("tables").createEntity({ partitionKey: «"EMAIL"», rowKey: email });
}
export function viaPick(w: Writer | undefined, id: string) {
  return w?.createEntity({ partitionKey: «"VISITOR"», rowKey: id });
}
export class Wrapper<T extends Writer> {
  constructor(private readonly client: T) {}
  save(id: string) { return this.client.upsertEntity({ partitionKey: «"wrapped"», rowKey: id }); }
}
`,
    "ts/constant-partition-key",
  );
});

test("the table a helper-made client writes is named, so a constant key is judged for the whole table", () => {
  fx.file(
    "factory.ts",
    `import { TableClient } from "@azure/data-tables";
export const tableFor = (name: string) => TableClient.fromConnectionString(process.env.CONN ?? "", name);
`,
  );
  const f = fx.file(
    "one.ts",
    `import { tableFor } from "./factory";
export const likes = (id: string) => tableFor("Likes").createEntity({ partitionKey: "likes", rowKey: id });
`,
  );
  const [finding] = fx.analyzer.analyze(f).findings.filter((x) => x.code === "ts/constant-partition-key");
  expectSaid(finding, "wholeTable", { value: "likes", table: "Likes", count: 0, constants: ["likes"] });
  assert.equal(finding.severity, "warning");
  const spread = fx.file(
    "two.ts",
    `import { tableFor } from "./factory";
export const like = (user: string, id: string) => tableFor("Likes").createEntity({ partitionKey: user, rowKey: id });
`,
  );
  assert.deepEqual(
    fx.analyzer.analyze(spread).findings.filter((x) => x.code === "ts/constant-partition-key"),
    [],
  );
  // Now another write of the table varies its key: "likes" is a side partition of it, nothing to say.
  assert.deepEqual(
    fx.analyzer.analyze(f).findings.filter((x) => x.code === "ts/constant-partition-key"),
    [],
  );
});

test("ordinary TypeScript that never names an SDK method is not walked, and a look-alike API is not the SDK", () => {
  const plain = fx.file("ordinary.ts", `export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\n`);
  assert.deepEqual(fx.analyzer.analyze(plain), { findings: [], queries: [], usesSdk: false });
  const lookalike = fx.file(
    "orm.ts",
    `class Repo { createEntity(e: { partitionKey: string; rowKey: string }) { return e; } listEntities() { return []; } }
export const r = new Repo();
r.createEntity({ partitionKey: "global", rowKey: "1" });
r.listEntities();
`,
  );
  assert.deepEqual(fx.analyzer.analyze(lookalike), { findings: [], queries: [], usesSdk: false });
});

test("JavaScript files (.js, .mjs, .cjs) are analysed the same way, JSDoc types included", () => {
  fx.file(
    "clients.cjs",
    `const { TableClient } = require("@azure/data-tables");
exports.client = TableClient.fromConnectionString(process.env.CONN || "", "Events");
`,
  );
  fx.expect(
    "handler.js",
    `const { client } = require("./clients.cjs");
/** @param {number} n */
module.exports.handler = async function (n) {
  await client.createEntity({ partitionKey: «"events"», rowKey: \`\${n}\` });
};
`,
    "ts/constant-partition-key",
  );
  fx.expect(
    "jsdoc.mjs",
    `/** @param {import("@azure/data-tables").TableClient} table @param {number} seq */
export async function save(table, seq) {
  await table.upsertEntity({ partitionKey: "p" + table.tableName, rowKey: \`\${«seq»}\` });
}
`,
    "ts/unpadded-number",
  );
});

test("per-rule levels and tdl-ignore-next-line apply to JavaScript too", () => {
  const levels = new TsFixture(
    undefined,
    new TsAnalyzer({ analysis: { rules: { "ts/unpadded-number": "error", "ts/constant-partition-key": "off" } } }),
  );
  try {
    const f = levels.file(
      "levels.js",
      `const { TableClient } = require("@azure/data-tables");
const client = TableClient.fromConnectionString("", "Orders");
/** @param {number} n */
exports.save = async (n) => {
  await client.createEntity({ partitionKey: "all", rowKey: String(n) });
  // tdl-ignore-next-line ts/unpadded-number
  await client.createEntity({ partitionKey: "all", rowKey: String(n) });
};
`,
    );
    const found = levels.analyzer.analyze(f).findings;
    assert.deepEqual(
      found.map((x) => [x.code, x.severity]),
      [["ts/unpadded-number", "error"]],
    );
  } finally {
    levels.dispose();
  }
});

test("load rules are off in test files unless turned on; other rules stay on", () => {
  const source = `import { TableClient } from "@azure/data-tables";
const client = TableClient.fromConnectionString("", "Orders");
const other = TableClient.fromConnectionString("", "Seeds");
export async function seed(n: number) {
  await other.createEntity({ partitionKey: "fixture", rowKey: String(n) });
  await client.createEntity({ partitionKey: String(n).padStart(4, "0"), rowKey: "a/b" });
}
`;
  const codes = (a: TsAnalyzer, dir: TsFixture, name: string) => a.analyze(dir.file(name, source)).findings.map((x) => x.code);
  assert.deepEqual(codes(fx.analyzer, fx, "seed.test.ts"), ["ts/invalid-key-character"]);
  mkdirSync(path.join(fx.dir, "__tests__"), { recursive: true });
  assert.deepEqual(codes(fx.analyzer, fx, "__tests__/seed.ts"), ["ts/invalid-key-character"]);
  assert.deepEqual(codes(fx.analyzer, fx, "seed.ts").sort(), [
    "ts/constant-partition-key",
    "ts/invalid-key-character",
    "ts/unpadded-number",
  ]);
  const on = new TsFixture(undefined, new TsAnalyzer({ analysis: { loadRulesInTests: true } }));
  try {
    assert.deepEqual(codes(on.analyzer, on, "seed.spec.ts").sort(), [
      "ts/constant-partition-key",
      "ts/invalid-key-character",
      "ts/unpadded-number",
    ]);
  } finally {
    on.dispose();
  }
});

test("when the SDK's types do not resolve, the result says so, and the made-here client is still recognised", () => {
  // Outside the repository: no node_modules above the project, as in a fresh clone before npm install.
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-unresolved-"));
  try {
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "Node16", moduleResolution: "Node16", types: [] } }),
    );
    const f = path.join(dir, "u.ts");
    const text = `import { TableClient } from "@azure/data-tables";
const client = new TableClient("https://x.table.core.windows.net", "Orders");
export const save = (id: string) => client.createEntity({ partitionKey: \`\${Date.now()}\`, rowKey: id });
`;
    writeFileSync(f, text);
    const analyzer = new TsAnalyzer();
    analyzer.update(f, text);
    const r = analyzer.analyze(f);
    assert.match(
      noticeText(r, "sdkUnresolved"),
      /@azure\/data-tables's types do not resolve from .* \(no node_modules yet\? run npm install\)/,
    );
    assert.deepEqual(
      r.findings.map((x) => x.code),
      ["ts/append-only-key"],
    );
    assert.equal(
      fx.analyzer.analyze(
        fx.file(
          "resolved.ts",
          `import { TableClient } from "@azure/data-tables";\nexport const c = TableClient.fromConnectionString("", "T");\nc.listEntities();\n`,
        ),
      ).notices,
      undefined,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a file the editor held is read from disk afresh once closed; a helper on disk is read once and its edits through the editor count", () => {
  const dir = mkdtempSync(path.join(fx.dir, "disk-"));
  const helper = path.join(dir, "keys.ts");
  const user = path.join(dir, "save.ts");
  writeFileSync(helper, `export const pk = (s: string): string => s;\n`);
  const userText = `import { TableClient } from "@azure/data-tables";\nimport { pk } from "./keys";\nconst c = TableClient.fromConnectionString("", "Disk");\nexport const save = (id: string) => c.createEntity({ partitionKey: pk(id), rowKey: id });\n`;
  writeFileSync(user, userText);
  const analyzer = new TsAnalyzer();
  analyzer.update(user, userText);
  const codes = () =>
    analyzer
      .analyze(user)
      .findings.filter((f) => f.severity !== "hint")
      .map((f) => f.code);
  assert.deepEqual(codes(), []);
  // The editor opens the helper and makes the key constant: the analysis follows the editor's text.
  analyzer.update(helper, `export const pk = (_s: string): string => "all";\n`);
  assert.deepEqual(codes(), ["ts/constant-partition-key"]);
  // The user saves something else and closes the helper: the disk's new text counts, not a copy read before.
  writeFileSync(helper, `export const pk = (s: string): string => \`\${Date.now()}\${s}\`;\n`);
  analyzer.close(helper);
  assert.deepEqual(codes(), ["ts/append-only-key"]);
});

test("an import that did not resolve resolves once the file it names is created and opened (module resolutions are kept between edits, not forever)", () => {
  const dir = mkdtempSync(path.join(fx.dir, "later-"));
  const user = path.join(dir, "save.ts");
  const userText = `import { TableClient } from "@azure/data-tables";\nimport { pk } from "./later";\nconst c = TableClient.fromConnectionString("", "Later");\nexport const save = (id: string) => c.createEntity({ partitionKey: pk(id), rowKey: id });\n`;
  writeFileSync(user, userText);
  const analyzer = new TsAnalyzer();
  analyzer.update(user, userText);
  const codes = () =>
    analyzer
      .analyze(user)
      .findings.filter((f) => f.severity !== "hint")
      .map((f) => f.code);
  assert.deepEqual(codes(), []);
  // An edit elsewhere in the file keeps the (failed) resolution of ./later; nothing to report yet.
  analyzer.update(user, userText + "// more\n");
  assert.deepEqual(codes(), []);
  const later = path.join(dir, "later.ts");
  const laterText = `export const pk = (_s: string): string => "one";\n`;
  writeFileSync(later, laterText);
  analyzer.update(later, laterText);
  assert.deepEqual(codes(), ["ts/constant-partition-key"]);
});

test("a key of 5,000 concatenated parts is analysed, not a stack overflow (the walk over calls keeps its own stack)", () => {
  const parts = Array.from({ length: 5000 }, (_, i) => `o.id${i % 2 ? ' + "_"' : ""}`).join(" + ");
  const f = fx.file(
    "deep.ts",
    `${HEAD}
const deepClient = TableClient.fromConnectionString(process.env.CONN ?? "", "DeepKeys");
export async function save(o: Order) {
  await deepClient.createEntity({ partitionKey: "all", rowKey: ${parts} });
}
`,
  );
  const result = fx.analyzer.analyze(f);
  assert.deepEqual(
    result.findings.filter((x) => x.code === "internal"),
    [],
  );
  assert.ok(
    result.findings.some((x) => x.code === "ts/constant-partition-key"),
    "the write was seen",
  );
});

test("without a tsconfig, a folder that calls a shared folder's save() helper is a caller of it, and what it writes back is seen", () => {
  // Outside the repository, as a JavaScript functions app: api/shared/ holds the helpers, api/edit/ a function; no config.
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-folders-"));
  try {
    symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
    mkdirSync(path.join(dir, "shared"));
    mkdirSync(path.join(dir, "edit"));
    const helpers = path.join(dir, "shared", "store.js");
    const helpersText = `const { TableClient } = require("@azure/data-tables");
function open(name) { return TableClient.fromConnectionString(process.env.CONN, name); }
async function fetchOne(name, pk, rk) {
  try { return await open(name).getEntity(pk, rk); } catch (e) { if (e.statusCode === 404) return null; throw e; }
}
async function put(name, entity) { await open(name).upsertEntity(entity, "Replace"); }
module.exports = { fetchOne, put };
`;
    const fn = path.join(dir, "edit", "index.js");
    const fnText = `const { fetchOne, put } = require("../shared/store");
module.exports = async function (input) {
  const shelf = await fetchOne("Shelves", input.room, input.code);
  if (!shelf) return 404;
  shelf.Label = input.label;
  await put("Shelves", shelf);
  return 200;
};
`;
    writeFileSync(helpers, helpersText);
    writeFileSync(fn, fnText);
    const analyzer = new TsAnalyzer();
    analyzer.update(helpers, helpersText);
    assert.equal(analyzer.callsWriteHelper(fn, fnText), true);
    analyzer.update(fn, fnText);
    assert.deepEqual(
      analyzer
        .analyze(fn)
        .findings.filter((x) => x.code === "ts/read-before-write")
        .map((x) => fnText.slice(x.start, x.end)),
      [`put("Shelves", shelf)`],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("without a tsconfig, the function folders under a package.json are one project: a table's constant key is one warning", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-package-"));
  try {
    symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", dependencies: { "@azure/data-tables": "*" } }));
    const files = ["Join", "Rename"].map((name) => {
      mkdirSync(path.join(dir, name));
      const f = path.join(dir, name, "index.js");
      const text = `const { TableClient } = require("@azure/data-tables");
const members = TableClient.fromConnectionString(process.env.CONN, "Members");
module.exports = async (email, display) => members.upsertEntity({ partitionKey: "member", rowKey: email, display }, "Merge");
`;
      writeFileSync(f, text);
      return f;
    });
    const analyzer = new TsAnalyzer();
    for (const f of files) analyzer.update(f, undefined);
    const severities = files.flatMap((f) =>
      analyzer
        .analyze(f)
        .findings.filter((x) => x.code === "ts/constant-partition-key")
        .map((x) => x.severity),
    );
    assert.deepEqual(severities.sort(), ["hint", "warning"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an untyped parameter is the client every call of its function passes (JavaScript methods handing a client down)", () => {
  const text = `const { TableClient } = require("@azure/data-tables");
class Visits {
  /** @returns {TableClient} */
  open() { return TableClient.fromConnectionString(process.env.CONN || "", "Visits"); }
  async _find(table, site, day) {
    let found = null;
    try { found = await table.getEntity(site, day); } catch (e) { if (e.statusCode !== 404) throw e; }
    return found;
  }
  async _bump(table, site, day) {
    const before = await this._find(table, site, day);
    await table.updateEntity({ partitionKey: site, rowKey: day, hits: before ? before.hits + 1 : 1 }, "Merge");
  }
  async record(site, day) {
    const table = this.open();
    await this._bump(table, site, day);
  }
}
module.exports = Visits;
`;
  const f = fx.file("visits.js", text);
  const findings = fx.analyzer.analyze(f).findings;
  const at = (code: string) => findings.filter((x) => x.code === code).map((x) => text.slice(x.start, x.end));
  assert.deepEqual(at("ts/query-class"), ["getEntity"]);
  // Read through a helper: reported at the write it races with.
  assert.deepEqual(at("ts/read-before-write"), [
    'table.updateEntity({ partitionKey: site, rowKey: day, hits: before ? before.hits + 1 : 1 }, "Merge")',
  ]);
  assert.deepEqual(at("ts/untyped-client"), []);
});
