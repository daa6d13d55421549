/**
 * A fan-out splits a read into requests; it never multiplies what the
 * partitions hold (issue #32: the long run of the fix properties, seed
 * 20261128, found four designs whose partition-range queries "scanned"
 * 8,000,000 of 4,000,000 stored rows). Each case below is one of those
 * designs cut down to the key and the query that showed it: with one entity
 * per partition, a RowKey bucket read 16 times was counted as 16 entities
 * in each partition.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, Classification, tableFacts } from "@core";
import { contradictions } from "../../../helpers/fix-properties";

/** The one query's classification and its `query/class` text, after checking that the design's figures agree. */
function only(text: string): { c: Classification; lens: string } {
  const a = analyzeTdl(text);
  assert.deepEqual(contradictions(a), []);
  const t = a.tables[0];
  const [q] = tableFacts(t.table, t.props).queries;
  const lens = a.findings.find((f) => f.code === "query/class")!;
  return { c: q.classification!, lens: lens.message };
}

test("a RowKey bucket after the pinned tier reads each partition of the tier once, its index rows aside", () => {
  const { c, lens } = only(`table Devices {
  Tier:     enum(Free, Pro, Team, Enterprise)
  DeviceId: int64 unique
  partitionKey = Tier + "|" + DeviceId
  rowKey       = "D" + Tier + "_" + bucket(DeviceId, 16)
  index ByTier rowKey = "T" + bucket(DeviceId, 16) + "_" + Tier
  rows 2M
  query InTier where Tier = ?
}
`);
  // A quarter of the 2,000,000 one-entity partitions, read by 16 requests that each take one bucket of every one.
  assert.equal(lens, "partition-range · 16 × ≈ 500,000 partitions · scans ≈ 500,000 to return ≈ 500,000");
  assert.equal(c.partitions, 500_000);
  assert.equal(c.requests, 16);
  assert.match(c.reasons[0], /the RowKey has a bucket no condition pins: the query is issued once per bucket \(16 requests\)/);
});

test("a RowKey led by a bucket of the partition's own id scans the carrier's partitions, not 8 times as many", () => {
  const { c } = only(`table Shipments {
  Carrier:    enum(Post, Courier, Freight, Pickup)
  ShipmentId: guid unique
  partitionKey = Carrier + "#" + ShipmentId
  rowKey       = bucket(ShipmentId, 8) + "_" + Carrier
  rows 2M
  query ByCarrier where Carrier = ?
}
`);
  assert.equal(c.class, "partition-range");
  assert.equal(c.scanned, 500_000);
  assert.equal(c.partitions, 500_000);
  assert.equal(c.fanOut, 8);
});

test("a range over a padded tenant with a reversed tenant behind a RowKey bucket scans at most the table (Cosmos DB)", () => {
  const { c } = only(`service cosmos-table

table Readings {
  TenantId:  int(0..99)
  ReadingId: guid unique
  SensorId:  int64 unique
  partitionKey = pad(TenantId, 10) + "|" + ReadingId
  rowKey       = bucket(ReadingId, 8) + "|" + reverse(TenantId)
  rows 2M
  query TenantSpan where TenantId between ? and SensorId = ? returns 50
}
`);
  // SensorId narrows no key: the range keeps everything it spans, which is every entity, once.
  assert.equal(c.class, "partition-range");
  assert.equal(c.scanned, 2_000_000);
  assert.equal(c.returned, 50);
  assert.equal(c.requests, 8);
});

test("a region prefix over a RowKey bucket of the device reads each region's entities once", () => {
  const { c, lens } = only(`table Events {
  Region:   string(36) distinct 20K
  DeviceId: int64 distinct 10K
  EventId:  guid unique
  partitionKey = Region + "," + pad(DeviceId, 19)
  rowKey       = bucket(DeviceId, 16) + "-" + lower(Region)
  rows 2M
  query RegionEvent where Region prefix ? and EventId = ? returns 50
}
`);
  assert.equal(lens, "partition-range · 16 × ≈ 2,000,000 partitions · scans ≈ 2,000,000 to return ≈ 50");
  assert.equal(c.scanned, 2_000_000);
});

test("a PartitionKey bucket wider than its property's values reaches only the partitions that exist", () => {
  const { c, lens } = only(`table Jobs {
  Urgent: bool
  Queue:  string(12) charset "a-z" distinct 50
  JobId:  guid unique
  partitionKey = bucket(Urgent, 16) + "_" + Queue
  rowKey       = JobId
  rows 1M
  query ByQueue where Queue = ?
}
`);
  // 16 requests, of which the two values of Urgent fill 2: a queue's 20,000 jobs, not 16 partitions' worth.
  assert.equal(lens, "row-range · 16 × 1 partition · scans ≈ 20,000 to return ≈ 20,000");
  assert.equal(c.partitions, 2);
  assert.equal(c.requests, 16);
});
