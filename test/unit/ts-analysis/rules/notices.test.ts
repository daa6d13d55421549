/**
 * `ts/budget`: the analysis of a file stops at its time budget, keeps the
 * findings made before and says once what it skipped; a project's budget,
 * once spent, names the files it did not reach.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { TsFixture } from "../../../helpers/typescript";

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
  assert.match(result.budget ?? "", /spent\.ts: the analysis of this file stopped at its time budget/);
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
  // The same file with time to spare: the findings, and no notice.
  const full = fx.analyzer.analyze(fx.file("spent-full.ts", text));
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
  assert.match(second.notAnalysed ?? "", /project-b\.ts was not analysed: the time budget of its project \(0\.001 ms\) is spent/);
});
