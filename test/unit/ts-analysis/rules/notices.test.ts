/**
 * `ts/budget`: the analysis of a file stops at its time budget, keeps the
 * findings made before and says once what it skipped; a project's budget,
 * once spent, names the files it did not reach.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { noticeText, TsFixture } from "../../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

// A dynamic import: this test compiles as CommonJS and the generator is an ES module shared with scripts/bench.mjs.
const modules = () => import("../../../../scripts/ts-modules.mjs");

test("a spent budget keeps the findings made before it and says once what it skipped", async () => {
  const { loopsModule } = await modules();
  const text =
    `import { TableClient } from "@azure/data-tables";\n` +
    `const early = TableClient.fromConnectionString("UseDevelopmentStorage=true", "Early");\n` +
    `export const first = () => early.createEntity({ partitionKey: String(Date.now()), rowKey: "r" });\n` +
    loopsModule(3000, "map").replace(/^import .*\n/, "");
  const tight = new TsAnalyzer({ budget: { fileMs: 0.01 } });
  const f = fx.file("spent.ts", text);
  tight.update(f, text);
  const result = tight.analyze(f);
  const notices = result.findings.filter((x) => x.code === "ts/budget");
  assert.equal(notices.length, 1, JSON.stringify(result.findings.map((x) => x.code)));
  assert.equal(notices[0].severity, "info");
  assert.match(notices[0].message, /stopped at its time budget \(0 ms\) and skipped: .+/);
  assert.match(noticeText(result, "budget"), /spent\.ts: the analysis of this file stopped at its time budget/);
  // The write found before the deadline is judged (its key starts with the clock).
  assert.deepEqual(
    result.findings.filter((x) => x.code === "ts/append-only-key").map((x) => text.slice(x.start, x.end)),
    ["Date.now()"],
  );
  // Nothing internal: running out of time is not a failure.
  assert.deepEqual(
    result.findings.filter((x) => x.code === "internal"),
    [],
  );
  // The same file with time to spare (a budget no busy machine spends on it): the findings, and no notice.
  const roomy = new TsAnalyzer({ budget: { fileMs: 120_000 } });
  const f2 = fx.file("spent-full.ts", text);
  roomy.update(f2, text);
  const full = roomy.analyze(f2);
  assert.deepEqual(
    full.findings.filter((x) => x.code === "ts/budget"),
    [],
  );
  assert.ok(full.findings.some((x) => x.code === "ts/append-only-key"));
});

test("a project's budget: once spent, its other files are named as not analysed, not silently dropped", () => {
  const analyzer = new TsAnalyzer({ budget: { projectMs: 0.001 } });
  const text = `import { TableClient } from "@azure/data-tables";\nconst t = TableClient.fromConnectionString("", "T");\nexport const w = () => t.createEntity({ partitionKey: "p", rowKey: "r" });\n`;
  const a = fx.file("project-a.ts", text);
  const b = fx.file("project-b.ts", text);
  analyzer.update(a, text);
  analyzer.update(b, text);
  analyzer.analyze(a);
  const second = analyzer.analyze(b);
  assert.match(noticeText(second, "notAnalysed"), /project-b\.ts was not analysed: the time budget of its project \(0\.001 ms\) is spent/);
});

test("clients typed any are traced to where they are made: a factory's other branch, a JavaScript cache, a default import", () => {
  const factory = fx.file(
    "factory.ts",
    `import { TableClient } from "@azure/data-tables";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const legacy: any;
function tableFor(name: string) {
  if (process.env.LEGACY) return legacy.openTable(name);
  return TableClient.fromConnectionString(process.env.CONN ?? "", name);
}
export async function put(id: string) {
  await tableFor("Parcels").createEntity({ partitionKey: "one", rowKey: id });
}
`,
  );
  const cache = fx.file(
    "cache.js",
    `const { TableClient } = require("@azure/data-tables");
let cached = null;
function table() {
  if (!cached) cached = TableClient.fromConnectionString(process.env.CONN || "", "Sessions");
  return cached;
}
async function save(id) {
  await table().upsertEntity({ partitionKey: "sessions", rowKey: id });
}
module.exports = { save };
`,
  );
  const defaultImport = fx.file(
    "default-import.ts",
    `// eslint-disable-next-line @typescript-eslint/no-explicit-any
import Tables from "@azure/data-tables";
const logs = new (Tables as any).TableClient("https://acct.table.core.windows.net", "Logs");
export const log = (id: string) => logs.createEntity({ partitionKey: "log", rowKey: id });
`,
  );
  for (const f of [factory, cache, defaultImport]) {
    const result = fx.analyzer.analyze(f);
    const found = result.findings.filter((x) => x.code === "ts/constant-partition-key" || x.code === "ts/untyped-client");
    assert.deepEqual(
      found.map((x) => [x.code, x.severity]),
      [["ts/constant-partition-key", "warning"]],
      f,
    );
    assert.equal(noticeText(result, "untypedClients"), "");
  }
  assert.match(fx.analyzer.analyze(factory).findings.find((x) => x.code === "ts/constant-partition-key")!.message, /table "Parcels"/);
});

test("a client nobody can trace gets a hint at the call saying why, and the project one notice", () => {
  const f = fx.file(
    "blind.ts",
    `import { odata } from "@azure/data-tables";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function put(client: any, entity: any, id: string, options: any) {
  await client.createEntity(entity);
  return client.listEntities(options ?? { filter: odata\`PartitionKey eq \${id}\` });
}
`,
  );
  const result = fx.analyzer.analyze(f);
  const hints = result.findings.filter((x) => x.code === "ts/untyped-client");
  assert.deepEqual(
    hints.map((x) => [x.severity, x.message.split(":")[0]]),
    [
      ["hint", "the analysis cannot see this createEntity call"],
      ["hint", "the analysis cannot see this listEntities call"],
    ],
  );
  assert.match(hints[0].message, /the parameter 'client' is typed any, so its table, keys and filter are not checked/);
  assert.match(
    noticeText(result, "untypedClients"),
    /some @azure\/data-tables calls go through clients typed any, which the analysis cannot see/,
  );
});
