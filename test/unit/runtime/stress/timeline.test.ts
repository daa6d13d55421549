/**
 * The report's timeline: the last, partial second of a run is a rate over
 * its real length (the old timeline divided it by a full second, so every
 * line ended in a drop); a last piece under a quarter second joins the
 * second before it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Metrics } from "@runtime/stress/metrics";

/** `perSecond` inserts a second, evenly spaced, for `ms` milliseconds. */
function steady(perSecond: number, ms: number): Metrics {
  const m = new Metrics(0);
  const n = Math.round((perSecond * ms) / 1000);
  for (let i = 0; i < n; i++) m.success("insert", `p${i % 7}`, 1, 2, (i * ms) / n);
  return m;
}

test("a steady load ends level: the last half second is a rate over half a second", () => {
  const points = steady(1000, 2500).timeline(2500);
  assert.deepEqual(
    points.map((p) => [p.tMs, p.entities, p.entitiesPerSecond, p.byOperation.insert]),
    [
      [1000, 1000, 1000, 1000],
      [2000, 1000, 1000, 1000],
      [2500, 500, 1000, 1000],
    ],
  );
});

test("a last piece under a quarter second joins the second before it", () => {
  const points = steady(1000, 2100).timeline(2100);
  assert.deepEqual(
    points.map((p) => [p.tMs, p.entities, p.entitiesPerSecond]),
    [
      [1000, 1000, 1000],
      [2100, 1100, 1000],
    ],
  );
});

test("a run shorter than a second is one point at its own rate", () => {
  const points = steady(400, 300).timeline(300);
  assert.deepEqual(
    points.map((p) => [p.tMs, p.entities, p.entitiesPerSecond]),
    [[300, 120, 400]],
  );
});
