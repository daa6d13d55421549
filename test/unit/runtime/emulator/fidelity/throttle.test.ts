import { test } from "node:test";
import assert from "node:assert/strict";
import { Throttle, TokenBucket } from "@runtime/emulator/fidelity/throttle";
import { chargeOf } from "@runtime/emulator/fidelity/charges";
import { parseTablePath } from "@runtime/emulator/fidelity/requests";

test("a token bucket: a full bucket's worth at once, then the rate; throttled whole or not at all", () => {
  const b = new TokenBucket(100, 100, 0);
  assert.equal(b.take(60, 0), true);
  assert.equal(b.take(60, 0), false, "40 left: a request of 60 is refused whole");
  assert.equal(b.take(40, 0), true);
  assert.equal(b.take(1, 5), false, "5 ms at 100/s refill half a token");
  assert.equal(b.take(1, 10), true);
  assert.equal(b.full(10), false);
  assert.equal(b.full(1010), true, "a second later it has refilled");
  assert.equal(b.take(500, 5000), true, "a request costlier than the bucket passes when the bucket is full");
  assert.equal(b.take(1, 5000), false, "and leaves it in debt");
});

test("a throttle charges the partition and the account; other partitions are not touched", () => {
  const t = new Throttle({ partitionTarget: 2000, accountTarget: 20000, scale: 0.01 });
  assert.equal(t.admit("T", "hot", 20), true);
  assert.equal(t.admit("T", "hot", 1), false, "the partition's 20 tokens are gone");
  assert.equal(t.admit("T", "cold", 20), true);
  assert.equal(t.admit("T", undefined, 150), true, "a request without a partition is charged to the account alone");
  assert.equal(t.admit("T", "other", 20), false, "the account's 200 are gone");
});

test("a client touching 50,000 partitions once does not leave 50,000 buckets behind", () => {
  const t = new Throttle({ partitionTarget: 2000, accountTarget: 1e12, scale: 1 });
  for (let i = 0; i < 50_000; i++) t.admit("T", `p${i}`, 0);
  assert.ok(t.bucketCount <= 10_000, `${t.bucketCount} buckets held`);
  // A bucket in use (not refilled) survives the sweep.
  const busy = new Throttle({ partitionTarget: 0.001, accountTarget: 1e12, scale: 1 }); // refills in 1,000 s: no timing in the test
  busy.admit("T", "busy", 1);
  for (let i = 0; i < 20_000; i++) busy.admit("T", `p${i}`, 0);
  assert.equal(busy.admit("T", "busy", 1), false, "the busy partition is still throttled");
});

test("scans are priced from the entities seen written: per partition, or the table's total", () => {
  const t = new Throttle({ partitionTarget: 2000, accountTarget: 20000, scale: 1 });
  assert.equal(t.scanned("T", undefined), 1, "an unknown table costs one");
  t.wrote("T", "a", 300);
  t.wrote("T", "b", 200);
  t.wrote("T", "b", -500);
  assert.equal(t.scanned("T", "a"), 300);
  assert.equal(t.scanned("T", "b"), 1, "never below zero entities, never below a cost of one");
  assert.equal(t.scanned("T", undefined), 300);
  const q = parseTablePath("GET", "/acc/T()?$filter=PartitionKey%20eq%20'a'", "acc");
  assert.deepEqual(chargeOf(q, undefined, t), { table: "T", partitionKey: "a", cost: 300, what: "reads", delta: 0 });
  const hostile = parseTablePath("GET", `/acc/T()?$filter=${encodeURIComponent("X eq -.")}`, "acc");
  assert.deepEqual(
    chargeOf(hostile, undefined, t),
    { table: "T", partitionKey: undefined, cost: 300, what: "reads", delta: 0 },
    "a filter the parser throws on is a whole-table scan",
  );
});
