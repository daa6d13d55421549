/**
 * Clients typed `any` in files that do not import the SDK: traced to where
 * they are made through a getter that caches clients in a plain object,
 * else recognised by the SDK's call shape (and said so), else named by the
 * `ts/untyped-client` notice — never skipped in silence. Each rule is tested
 * in several shapes: CommonJS and ES modules, a cache and a call shape.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { TsFixture } from "../../helpers/typescript";

const JS = { compilerOptions: { allowJs: true, checkJs: false, noEmit: true, module: "commonjs", target: "ES2022", types: ["node"] } };
const fx = new TsFixture(JS);
after(() => fx.dispose());

const codes = (f: string) =>
  fx.analyzer
    .analyze(f)
    .findings.filter((x) => x.code !== "ts/query-class")
    .map((x) => x.code);

test("a client from an async getter caching clients in a plain object is traced to fromConnectionString", () => {
  fx.file(
    "store.js",
    `const { TableClient } = require("@azure/data-tables");
const clients = {};
async function tableFor(name) {
  if (!clients[name]) {
    const made = TableClient.fromConnectionString(process.env.CONN || "", name);
    clients[name] = made;
  }
  return clients[name];
}
module.exports = { tableFor };
`,
  );
  const user = fx.file(
    "audit.js",
    `const { tableFor } = require("./store");
async function record(event) {
  const t = await tableFor("Audit");
  await t.createEntity({ partitionKey: "events", rowKey: event.id, kind: event.kind });
}
async function everything() {
  const t = await tableFor("Audit");
  const out = [];
  for await (const e of t.listEntities()) out.push(e);
  return out;
}
module.exports = { record, everything };
`,
  );
  const found = codes(user);
  assert.ok(found.includes("ts/constant-partition-key"), found.join());
  assert.ok(found.includes("ts/table-scan"), found.join());
  assert.ok(!found.includes("ts/untyped-client"), "traced: nothing to say about its type");
});

test("a client nothing traces is recognised by the SDK's call shape, and the file is told how", () => {
  fx.file("any-source.js", `module.exports = { open: (name) => globalThis.tables[name] };\n`);
  // The SDK is a dependency of the project (its types resolve through another file).
  fx.file("sdk-user.js", `const { TableClient } = require("@azure/data-tables");\nmodule.exports = { TableClient };\n`);
  const user = fx.file(
    "visits.js",
    `const { open } = require("./any-source");
async function visit(page) {
  const t = open("Visits");
  await t.upsertEntity({ partitionKey: "all", rowKey: page });
}
module.exports = { visit };
`,
  );
  const result = fx.analyzer.analyze(user);
  const found = result.findings.map((x) => x.code);
  assert.ok(found.includes("ts/constant-partition-key"), found.join());
  const hint = result.findings.find((x) => x.code === "ts/untyped-client");
  assert.match(
    hint?.message ?? "",
    /taken for a TableClient because its call has the SDK's shape: upsertEntity\(\{ partitionKey, rowKey, … \}\)/,
  );
});

test("a client typed any whose call has no SDK shape gets the notice, even in a file that does not import the SDK", () => {
  fx.file("sdk-user2.js", `const { TableClient } = require("@azure/data-tables");\nmodule.exports = { TableClient };\n`);
  const user = fx.file(
    "opaque.js",
    `async function push(t, entity) {
  await t.upsertEntity(entity);
}
module.exports = { push };
`,
  );
  const result = fx.analyzer.analyze(user);
  const hint = result.findings.find((x) => x.code === "ts/untyped-client");
  assert.match(hint?.message ?? "", /the analysis cannot see this upsertEntity call: the parameter 't' has no type/);
  assert.ok(
    result.notices?.some((n) => n.kind === "untypedClients"),
    "the project is told once",
  );
});

test("a hand-written fake client, handed to a helper of its file through a parameter, is not taken for the SDK", () => {
  fx.file("sdk-user3.js", `const { TableClient } = require("@azure/data-tables");\nmodule.exports = { TableClient };\n`);
  const fake = `class FakeTables {
  constructor() { this.rows = []; }
  async createEntity(e) { this.rows.push(e); }
  async *listEntities() { yield* this.rows; }
}
`;
  // Straight in: the parameter is what the one call passes.
  const direct = fx.file(
    "direct.test.js",
    `${fake}async function drain(tables) {
  const out = [];
  for await (const e of tables.listEntities()) out.push(e);
  return out;
}
async function run() {
  const tables = new FakeTables();
  await tables.createEntity({ partitionKey: "p", rowKey: "1" });
  return drain(tables);
}
run();
`,
  );
  assert.deepEqual(codes(direct), []);
  // Two helpers deep, from a maker function, with an arrow in a variable.
  const deep = fx.file(
    "deep.test.js",
    `${fake}const make = () => new FakeTables();
const count = async (store) => (await collect(store)).length;
async function collect(store) {
  const out = [];
  for await (const e of store.listEntities()) out.push(e);
  return out;
}
count(make()).then(console.log);
`,
  );
  assert.deepEqual(codes(deep), []);
  // A helper that leaves its file (exported) may be handed a real client elsewhere: still read by its call shape.
  const shared = fx.file(
    "shared-drain.js",
    `${fake}async function drainAll(tables) {
  const out = [];
  for await (const e of tables.listEntities()) out.push(e);
  return out;
}
drainAll(new FakeTables());
module.exports = { drainAll };
`,
  );
  assert.ok(codes(shared).includes("ts/untyped-client"), codes(shared).join());
});
