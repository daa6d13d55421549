/**
 * Issue #33, item 8: helpers that build keys from wide template literals,
 * calling each other, multiply their parts (16 parts over 5 helpers would be
 * a million). The decomposition keeps MAX_PARTS of a key, copies part by
 * part (a spread of 65,536 parts overflowed the stack at 256 × 3), and counts
 * each copy as a step of the budget: every width answers, with work that
 * grows with the width, not with its power.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { MAX_PARTS } from "@ts-analysis/key-parts";
import { TsFixture } from "../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const modules = () => import("../../../scripts/ts-modules.mjs");

test("wide template keys of 12, 16, 64 and 256 parts, three and five helpers deep: answered, no overflow, bounded work", async () => {
  const { wideKeyModule } = await modules();
  const steps: Record<string, number> = {};
  for (const [width, levels] of [
    [12, 3],
    [16, 5],
    [64, 3],
    [256, 3],
  ]) {
    const f = fx.file(`wide-${width}x${levels}.ts`, wideKeyModule(width, levels));
    const result = fx.analyzer.analyze(f);
    assert.ok(result.stats, `${width} × ${levels} was analysed`);
    // Within the 2 s budget and its grace (3 s), generously for a shared machine; no budget notice: it was not cut short.
    assert.ok(result.stats.ms < 3000, `${width} × ${levels}: ${result.stats.ms.toFixed(0)} ms`);
    assert.deepEqual(
      result.findings.filter((x) => x.code === "ts/budget").map((x) => x.message),
      [],
    );
    // The constant partition of the one write is still found.
    assert.ok(
      result.findings.some((x) => x.code === "ts/constant-partition-key"),
      `${width} × ${levels}: ${result.findings.map((x) => x.code).join(", ")}`,
    );
    steps[`${width}x${levels}`] = result.stats.steps;
  }
  // 256 × 3 would be 16.7 million parts: the work is a few parts per template span, at most MAX_PARTS per key.
  assert.ok(steps["256x3"] < 3 * 256 * MAX_PARTS * 2, JSON.stringify(steps));
  assert.ok(steps["16x5"] < 5 * 16 * MAX_PARTS * 2, JSON.stringify(steps));
});
