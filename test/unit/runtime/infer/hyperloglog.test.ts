import { test } from "node:test";
import assert from "node:assert/strict";
import { HyperLogLog } from "@runtime/infer/hyperloglog";

test("the HyperLogLog sketch counts different values within 5 % from a handful to a million, and repeats change nothing", () => {
  for (const n of [10, 1_000, 50_000, 1_000_000]) {
    const sketch = new HyperLogLog();
    for (let i = 0; i < n; i++) sketch.add(`user-${i}`);
    for (let i = 0; i < n; i += 3) sketch.add(`user-${i}`);
    const error = Math.abs(sketch.count() - n) / n;
    assert.ok(error < 0.05, `${Math.round(sketch.count())} counted for ${n} values (${(error * 100).toFixed(1)} % off)`);
  }
});

test("keys that differ in one character, or only in characters beyond ASCII, count as different values", () => {
  const sketch = new HyperLogLog();
  const n = 20_000;
  for (let i = 0; i < n; i++) sketch.add(`2026-11-25T00:00:${String(i).padStart(6, "0")}`);
  for (let i = 0; i < n; i++) sketch.add(`客户${String.fromCharCode(0x4e00 + (i % 2000))}${Math.floor(i / 2000)}`);
  assert.ok(Math.abs(sketch.count() - 2 * n) / (2 * n) < 0.05, String(sketch.count()));
});
