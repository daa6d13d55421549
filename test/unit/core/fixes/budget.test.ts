/**
 * Checking fixes is bounded by a size, not a clock: each copy of a table it
 * analyses costs its length, and what a run's budget does not reach is
 * returned unchecked (`tdl check --format json`) or stops `tdl fix`, which
 * says so — a table with a 60 KB filter costs as much as it is long.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl, applyCheckedFixes, vetFixes, type CheckBudget } from "@core";

const DESIGN = readFileSync("test/fixtures/newcomer/date-keys.tdl", "utf8");

test("a finding's fixes past the budget come back unchecked, and the budget says it ran out", () => {
  const a = analyzeTdl(DESIGN);
  const hot = a.findings.find((f) => f.code === "partition/hot")!;
  const all = vetFixes(a, hot);
  assert.equal(all.unchecked.length, 0);
  // Enough for two copies of the design: the first two fixes are checked, the rest are not.
  const budget: CheckBudget = { chars: DESIGN.length * 2 + 200 };
  const cut = vetFixes(a, hot, { budget });
  assert.equal(cut.checked.length, 2);
  assert.deepEqual(
    cut.unchecked.map((f) => f.title),
    hot.fixes!.slice(2).map((f) => f.title),
  );
  assert.equal(budget.ranOut, true);
  // Nothing left: nothing checked, nothing offered.
  assert.deepEqual(vetFixes(a, hot, { budget: { chars: 0 } }).offered, []);
});

test("tdl fix's loop stops when its budget runs out, and says why", () => {
  const run = applyCheckedFixes(DESIGN, {}, 20, { chars: DESIGN.length * 3 });
  assert.equal(run.stopped, "budget");
  const full = applyCheckedFixes(DESIGN);
  assert.equal(full.stopped, undefined);
  assert.equal(full.steps.length, 1);
});
