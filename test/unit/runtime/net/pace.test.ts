/**
 * The adaptive pace of a bulk job: a throttling answer cuts the rate at
 * once (to 85 % of what the service admitted lately, once per second
 * however many requests hear it), the rate climbs back to that admitted
 * rate within two seconds and then probes past it slowly, to the ceiling
 * and no further.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { AdaptivePace, MIN_RATE } from "@runtime/net/pace";
import { throttleNote } from "@runtime/net/throttled";

test("a throttling answer cuts the rate to 85 % of what the service admitted, once per second", () => {
  const pace = new AdaptivePace(16_000);
  const now = performance.now();
  // 12,000 entities sent, 2,000 of them refused: 10,000 admitted over the (at least one second) window.
  pace.spend(12_000);
  pace.throttled(now, 2000);
  const admitted = pace.admitted(now);
  assert.ok(admitted > 1990 && admitted <= 10_000, String(admitted));
  assert.equal(Math.round(pace.perSecond), Math.round(0.85 * admitted));
  const after = pace.perSecond;
  // Eight requests in flight hear the same refusal: one cut, not eight.
  for (let i = 0; i < 7; i++) pace.throttled(now + 10 * i);
  assert.equal(pace.perSecond, after);
  assert.equal(pace.state(now + 100).throttles, 8);
  assert.equal(pace.state(now + 100).throttled, true);
  assert.equal(pace.state(now + 6000).throttled, false);
  // A second later the service still refuses: another cut.
  pace.throttled(now + 1001);
  assert.ok(pace.perSecond < after, `${pace.perSecond} < ${after}`);
});

test("the first cut before any answer came back counts what was sent less what was refused, not nothing", () => {
  const pace = new AdaptivePace(16_000);
  const now = performance.now();
  // Four pages sent at once; two refused before the others answered.
  pace.spend(4000);
  pace.throttled(now, 1000);
  pace.throttled(now, 1000);
  assert.ok(pace.perSecond >= 0.85 * 2000 * 0.9, `cut to ${pace.perSecond}: the 2,000 admitted are the service's rate, not the floor`);
});

test("after a cut the rate is back at the admitted rate within two seconds, then probes past it slowly, never past the ceiling", () => {
  const pace = new AdaptivePace(4000);
  const now = performance.now();
  pace.spend(3000);
  pace.throttled(now, 1000);
  const cut = pace.perSecond;
  const from = cut / 0.85;
  pace.succeeded(now + 1000);
  assert.ok(Math.abs(pace.perSecond - (cut + from) / 2) < 1, `halfway back a second later: ${pace.perSecond}`);
  pace.succeeded(now + 2000);
  assert.ok(Math.abs(pace.perSecond - from) < 1, `back at the admitted rate: ${pace.perSecond} of ${from}`);
  pace.succeeded(now + 3000);
  assert.ok(pace.perSecond > from && pace.perSecond < from * 1.06, `a twentieth past it a second later: ${pace.perSecond}`);
  pace.succeeded(now + 600_000);
  assert.equal(pace.perSecond, 4000, "back at the ceiling");
});

test("a pace that makes a request wait is holding the job back; one that does not is not", async () => {
  const pace = new AdaptivePace(1000);
  await pace.ready(undefined, 1000);
  pace.spend(1000);
  assert.equal(pace.holding(), false, "a full bucket let the first page through");
  await pace.ready(undefined, 500);
  assert.equal(pace.holding(), true, "the second waited for tokens");
  assert.equal(pace.holding(performance.now() + 1500), false);
});

test("nothing measured: the cut keeps the job moving at the floor, and an unbounded pace is bounded after a throttle", () => {
  const pace = new AdaptivePace(Infinity);
  pace.throttled(performance.now());
  assert.ok(Number.isFinite(pace.perSecond) && pace.perSecond >= MIN_RATE, String(pace.perSecond));
  assert.match(throttleNote(pace.state()), /throttled by the service \(1 answer so far\): pacing at \d+ entities\/s/);
  assert.equal(throttleNote(new AdaptivePace(100).state()), "");
});

test("a page's expected cost waits for a second's worth of tokens: eight readers never burst past the rate", async () => {
  const pace = new AdaptivePace(2000);
  const started = performance.now();
  for (let i = 0; i < 4; i++) {
    await pace.ready(undefined, 1000);
    pace.spend(1000);
  }
  // 2,000 at once (the bucket), then 1,000 per half second: the fourth page waits about a second.
  assert.ok(performance.now() - started >= 900, `${performance.now() - started} ms`);
});
