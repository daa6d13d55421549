/**
 * The rewriting harness's fast subset (the whole runs in `npm run bench`):
 * each labelled finding of test/corpus must survive a variable introduced
 * for the SDK call's argument and every local renamed, and neither may
 * raise a finding the original did not have.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { TsAnalyzer } from "@ts-analysis/analysis";

test("labelled findings of test/corpus survive 'introduce variable' and 'rename', with no new false alarm", async () => {
  // A dynamic import: this test compiles as CommonJS and the harness is an ES module shared with scripts/bench.mjs.
  const { corpusSites, rewriteSurvival } = await import("../../../scripts/bench/rewrites.mjs");
  const root = path.resolve("test/corpus");
  const analyzers = new Map<string, TsAnalyzer>();
  const result = rewriteSurvival(
    corpusSites(root),
    (file: string) => {
      const project = path.relative(root, file).split(path.sep)[0];
      if (!analyzers.has(project)) analyzers.set(project, new TsAnalyzer());
      return analyzers.get(project)!;
    },
    ["introduce variable", "rename"],
  );
  const detail = JSON.stringify(result.failures, null, 1);
  for (const [name, s] of Object.entries(result.perRewrite)) {
    assert.ok(s.tried >= 20, `${name}: enough sites to measure (${s.tried})`);
    assert.ok(s.survived / s.tried >= 0.95, `${name}: ${s.survived}/${s.tried} survive: ${detail}`);
    assert.equal(s.newAlarms, 0, `${name}: ${detail}`);
  }
});
