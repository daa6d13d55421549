import { test } from "node:test";
import assert from "node:assert/strict";
import { Metrics } from "@runtime/stress/metrics";
import { buildReport } from "@runtime/stress/report";

/** A ten-second run on the emulator against a partition target of 10.4 entities/s, as `tdl stress` builds it. */
function run(fill: (m: Metrics) => void) {
  const metrics = new Metrics(0);
  fill(metrics);
  return buildReport({
    metrics,
    durationMs: 10_000,
    target: "emulator",
    table: "stress0123456789",
    design: { file: "leaderboard.tdl", table: "Leaderboard" },
    mode: "single-partition",
    concurrency: 8,
    partitionTarget: 10.4,
  }).verdict;
}

test("a throttled partition serving below its target is hot: a sentence of verdict, then one of cause with the sent and served rates", () => {
  const verdict = run((m) => {
    // 97 entities served in 10 s (9.7/s, under the 10.4 target); 239 attempts refused with 503 at that partition.
    for (let i = 0; i < 97; i++) m.success("insert", "stress-hot", 1, 5, i * 100);
    for (let i = 0; i < 239; i++) m.refused("stress-hot", 1, "partition");
  });
  assert.equal(verdict.exceedsTarget, true);
  assert.equal(verdict.reason, "throttled");
  assert.equal(verdict.verdictSentence, "HOT: partition 'stress-hot' would run hot on Azure.");
  assert.equal(verdict.cause, "71 % of requests were throttled there: sent ≈ 33.6 entities/s, served 9.7, target 10.4.");
  assert.equal(verdict.headline, `${verdict.verdictSentence} ${verdict.cause}`);
  // The rest goes under the headline, a sentence an item, and the note joins them.
  assert.ok(verdict.details!.length >= 2);
  assert.equal(verdict.note, verdict.details!.join(" "));
});

test("an unthrottled partition above its target is hot by its rate; one under it is OK, and the headline says which", () => {
  const hot = run((m) => {
    for (let i = 0; i < 250; i++) m.success("insert", "g1", 1, 5, i * 40);
  });
  assert.equal(hot.headline, "HOT: partition 'g1' would run hot on Azure. It served 25 entities/s, above the target of 10.4.");
  const ok = run((m) => {
    for (let i = 0; i < 50; i++) m.success("insert", `p${i % 5}`, 1, 5, i * 200);
  });
  assert.equal(ok.exceedsTarget, false);
  assert.equal(ok.headline, "OK: no partition would run hot. The hottest partition served 1 entity/s, under the target of 10.4.");
});

test("new keys landing past the end of the key order faster than a partition takes is hot as append-only", () => {
  const verdict = run((m) => {
    m.inserted("000", 1, false);
    for (let i = 1; i <= 200; i++) {
      const pk = String(i).padStart(3, "0");
      m.success("insert", pk, 1, 5, i * 50);
      m.inserted(pk, 1);
    }
  });
  assert.equal(verdict.reason, "append-only");
  assert.equal(
    verdict.headline,
    "HOT: the range partition at the end of the key order would run hot on Azure. New keys kept landing there at ≈ 20 entities/s, above the target of 10.4 (append-only).",
  );
});
