/**
 * The TypeScript analysis is bounded by design (issues #19 and #24): its
 * work grows linearly with the module, whatever its loops; a time budget
 * stops it, keeps what it found and says what it skipped. Work is asserted
 * as steps counted by the budget, not as a machine's speed (`npm run bench`
 * prints the times).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { TsFixture } from "../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

// A dynamic import: this test compiles as CommonJS and the generator is an ES module shared with scripts/bench.mjs.
const modules = () => import("../../../scripts/ts-modules.mjs");

function run(analyzer: TsAnalyzer, name: string, text: string) {
  const f = fx.file(name, text);
  const result = analyzer.analyze(f);
  assert.ok(result.stats, `${name} was analysed`);
  return { ...result, codes: result.findings.filter((x) => x.code !== "ts/query-class").map((x) => x.code) };
}

test("one transaction and k functions looping over arrays of their own: linear work, the constant key still found", async () => {
  const { loopsModule } = await modules();
  for (const variant of ["map", "tx", "param", "let"]) {
    const at = (k: number) => run(fx.analyzer, `loops-${variant}-${k}.ts`, loopsModule(k, variant));
    const small = at(12);
    const large = at(1000);
    // k = 12 was about 10^9 walks of the file before: the factorial chain of loop arrays.
    assert.deepEqual(small.codes, ["ts/constant-partition-key"], variant);
    assert.deepEqual(large.codes, ["ts/constant-partition-key"], variant);
    const perFunction = (large.stats!.steps - small.stats!.steps) / (1000 - 12);
    assert.ok(perFunction < 200, `${variant}: ${perFunction.toFixed(0)} steps per function added (linear: a few dozen)`);
    // Generous (the machine is shared); the real figure is in npm run bench.
    assert.ok(large.stats!.ms < 5000, `${variant}: 1,000 functions analysed in ${large.stats!.ms.toFixed(0)} ms`);
  }
});

test("the module of cached clients over a union of table names grows linearly with its functions", async () => {
  const { cachedClientsModule } = await modules();
  const ten = run(fx.analyzer, "cached-10.ts", cachedClientsModule(10));
  const hundred = run(fx.analyzer, "cached-100.ts", cachedClientsModule(100));
  const ratio = hundred.stats!.steps / ten.stats!.steps;
  assert.ok(ratio < 15, `10× the functions cost ${ratio.toFixed(1)}× the steps`);
  // Each getEntity-then-upsert-Replace without the ETag is a lost update.
  assert.equal(hundred.codes.filter((c) => c === "ts/read-before-write").length, 25);
});

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
