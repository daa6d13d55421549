/**
 * The TypeScript analysis is bounded by design (issues #19 and #24): its
 * work grows linearly with the module, whatever its loops; a time budget
 * stops it (rules/notices.test.ts). Work is asserted
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
