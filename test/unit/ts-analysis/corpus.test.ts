/**
 * The labelled corpus (test/corpus): the analysis must find the labelled
 * problems (recall ≥ 90 %), raise almost no false alarms (≤ 2 % of what it
 * reports) and answer every SDK query call with a class or "filter not known
 * statically". `npm run bench` prints the same figures.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { TsAnalyzer } from "@ts-analysis/analysis";

test("the labelled corpus: recall ≥ 90 %, false alarms ≤ 2 %, every query call answered and rightly classed", async () => {
  // A dynamic import: this test compiles as CommonJS and the scorer is an ES module shared with scripts/bench.mjs.
  const { corpusFigures, scoreCorpus } = await import("../../../scripts/corpus-score.mjs");
  const score = scoreCorpus(() => new TsAnalyzer(), "test/corpus");
  const f = corpusFigures(score);
  const detail = JSON.stringify(
    { missed: score.missed, falseAlarms: score.falseAlarms, wrong: score.queries.wrong, unlabelled: score.queries.unlabelled },
    null,
    1,
  );
  assert.ok(score.expected >= 25 && score.queries.labelled >= 25, "the corpus holds enough labelled cases to measure");
  assert.ok(f.recall >= 0.9, `recall ${(f.recall * 100).toFixed(1)} %: ${detail}`);
  assert.ok(f.falseAlarmShare <= 0.02, `false alarms ${(f.falseAlarmShare * 100).toFixed(1)} %: ${detail}`);
  assert.equal(f.queriesAnswered, 1, detail);
  assert.ok(f.queriesRight >= 0.95, `query classes right ${(f.queriesRight * 100).toFixed(1)} %: ${detail}`);
  assert.deepEqual(score.queries.unlabelled, [], "every query call the analysis answers is labelled in the corpus");
});
