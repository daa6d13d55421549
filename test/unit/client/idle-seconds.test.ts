/**
 * The heatmap panel's clock while the emulator is idle: an empty second for
 * each second that passed without traffic (two seconds back, so it never
 * overtakes a traffic second still being written), none for a second that
 * had traffic, and never one twice.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { IdleSeconds } from "@client/pages/heatmap";

const T = Date.UTC(2026, 0, 1, 12, 0, 0);

test("after traffic stops, each tick sends the next silent second; a second with traffic is not sent again", () => {
  const idle = new IdleSeconds();
  idle.sent(T);
  idle.sent(T + 1000);
  // 12:00:02.300: the second 12:00:00 had traffic, so nothing yet.
  assert.equal(idle.tick(T + 2300), undefined);
  assert.equal(idle.tick(T + 3300), undefined, "12:00:01 had traffic too");
  assert.deepEqual(idle.tick(T + 4300), { t: T + 2000, partitions: {} });
  assert.equal(idle.tick(T + 4900), undefined, "the same second is not sent twice");
  assert.deepEqual(idle.tick(T + 5100), { t: T + 3000, partitions: {} });
  // Traffic again: the seconds it covers are not filled.
  idle.sent(T + 6000);
  assert.equal(idle.tick(T + 8000), undefined);
  assert.deepEqual(idle.tick(T + 9000), { t: T + 7000, partitions: {} });
});

test("a traffic second that arrives late (older than the last empty one) does not move the clock back", () => {
  const idle = new IdleSeconds();
  assert.deepEqual(idle.tick(T + 10_000), { t: T + 8000, partitions: {} });
  idle.sent(T + 5000);
  assert.equal(idle.tick(T + 10_500), undefined);
  assert.deepEqual(idle.tick(T + 11_000), { t: T + 9000, partitions: {} });
});
