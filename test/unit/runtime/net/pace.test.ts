/**
 * The adaptive pace of a bulk job: a throttling answer cuts the rate at
 * once (to 70 % of what was sent, once per second however many requests
 * hear it), and the rate grows back slowly, to the ceiling and no further.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { AdaptivePace, MIN_RATE } from "@runtime/net/pace";
import { throttleNote } from "@runtime/net/throttled";

test("a throttling answer cuts the rate to 70 % of what was sent, once per second", () => {
  const pace = new AdaptivePace(16_000);
  const now = performance.now();
  // 10,000 entities over the 5 s window: 2,000/s measured, so the cut's basis is twice that (lumps), under the ceiling.
  pace.spend(10_000);
  pace.throttled(now);
  assert.equal(Math.round(pace.perSecond), Math.round(0.7 * 2 * (10_000 / 5)));
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

test("the rate recovers slowly after a cut, and never past the ceiling", () => {
  const pace = new AdaptivePace(4000);
  const now = performance.now();
  pace.spend(10_000);
  pace.throttled(now);
  const cut = pace.perSecond;
  pace.succeeded(now + 1000);
  const oneSecond = pace.perSecond;
  assert.ok(oneSecond > cut && oneSecond < cut * 1.1, `a second later ${oneSecond}, from ${cut}: a twentieth of the basis`);
  pace.succeeded(now + 600_000);
  assert.equal(pace.perSecond, 4000, "back at the ceiling");
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
