/**
 * Fan-out over a bucketed or hashed key part: a `bucket(Q, n)` that no
 * condition pins is read with n requests, one per bucket, each of the class
 * the rest of the key gives — never a table scan (issue #20: the prefix fix
 * of a daily key turned its range query into a scan of 50,000,000 entities).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, classifyFilter, tableFacts } from "@core";
import { differOnlyInBucket } from "@core/odata/fan-out";
import { parseFilter } from "@core/odata/parser";

/** Each query's `query/class` hint, by name. */
function lenses(text: string): Record<string, string> {
  return Object.fromEntries(
    analyzeTdl(text)
      .findings.filter((f) => f.code === "query/class")
      .map((f) => [text.slice(f.start, f.end), f.message]),
  );
}

const orders = (pk: string) => `table Orders {
  OrderId:    guid
  OrderDate:  datetime increasing
  CustomerId: string(20) charset "a-z0-9" distinct 100K
  partitionKey = ${pk}
  rowKey       = OrderId
  rows 50M
  entitySize 1KB
  insert PlaceOrder 500/s
  query ByDay 5/s where OrderDate between ? returns 1500
  query ByCustomer where CustomerId = ?
}
`;

test("a range behind an unpinned bucket prefix is a partition range fanned out over the buckets, not a table scan", () => {
  const q = lenses(orders(`bucket(OrderId, 16) + "_" + date(OrderDate, "yyyyMMdd")`));
  assert.equal(q.ByDay, "partition-range · 16 × ≈ 1 partition · scans ≈ 1,500 to return ≈ 1,500");
  // Nothing narrows the key once the buckets are enumerated: that reads every partition, a scan.
  assert.match(q.ByCustomer, /^table-scan · every partition/);
  const t = analyzeTdl(orders(`bucket(OrderId, 16) + "_" + date(OrderDate, "yyyyMMdd")`)).tables[0];
  const byDay = tableFacts(t.table, t.props).queries.find((x) => x.query.name.text === "ByDay")!.classification!;
  assert.equal(byDay.fanOut, 16);
  assert.equal(byDay.requests, 16);
  assert.equal(byDay.partitions, 16);
  // The same key without the bucket: one range of daily partitions, one request.
  assert.equal(lenses(orders(`date(OrderDate, "yyyyMMdd")`)).ByDay, "partition-range · ≈ 1 partition · scans ≈ 1,500 to return ≈ 1,500");
});

test("a hash prefix of at most 256 values fans out too; a wider one is a scan", () => {
  assert.match(lenses(orders(`hash(OrderId, 1) + "_" + date(OrderDate, "yyyyMMdd")`)).ByDay, /^partition-range · 16 × /);
  assert.match(lenses(orders(`hash(OrderId, 2) + "_" + date(OrderDate, "yyyyMMdd")`)).ByDay, /^partition-range · 256 × /);
  assert.match(lenses(orders(`hash(OrderId, 4) + "_" + date(OrderDate, "yyyyMMdd")`)).ByDay, /^table-scan/);
});

test("a bucket after a pinned part: the query names both keys, a point; the game alone reads each bucket's partition", () => {
  const q = lenses(`table Leaderboard {
  GameId:   string(20) charset "a-z0-9" distinct 50
  PlayerId: string(20) charset "a-z0-9" distinct 1M
  partitionKey = GameId + "," + bucket(PlayerId, 4)
  rowKey       = PlayerId
  rows 5M
  query ByPlayer where GameId = ? and PlayerId = ?
  query ByGame where GameId = ?
}
`);
  assert.equal(q.ByPlayer, "point");
  assert.equal(q.ByGame, "row-range · 4 × 1 partition · scans ≈ 100,000 to return ≈ 100,000");
});

test("an OData 'or' of PartitionKeys that differ only in a bucket is a fan-out; other 'or's stay scans", () => {
  const classify = (f: string) => {
    const p = parseFilter(f);
    assert.ok(p.ok);
    return classifyFilter(p.expr, { rows: 1000, partitions: 10 });
  };
  const points = classify("(PartitionKey eq '03_20260102' and RowKey eq 'a') or (PartitionKey eq '11_20260102' and RowKey eq 'a')");
  assert.equal(points.class, "point");
  assert.equal(points.fanOut, 2);
  assert.equal(points.requests, 2);
  assert.match(points.reasons[0], /issued as 2 requests, one per bucket/);
  const trailing = classify("PartitionKey eq 'game1,0' or PartitionKey eq 'game1,1' or PartitionKey eq 'game1,2'");
  assert.equal(trailing.class, "row-range");
  assert.equal(trailing.fanOut, 3);
  assert.equal(trailing.scanned, 300);
  const other = classify("PartitionKey eq 'alice' or PartitionKey eq 'bob'");
  assert.equal(other.class, "table-scan");
  assert.equal(other.orAcrossPartitions, true);
});

test("which PartitionKeys differ only in a bucket", () => {
  assert.equal(differOnlyInBucket(["00_20260102", "0f_20260102"]), true);
  assert.equal(differOnlyInBucket(["g,0", "g,1"]), true);
  // Differing in the date, not the bucket; different lengths; no separator; one value.
  assert.equal(differOnlyInBucket(["00_20260102", "00_20260103"]), false);
  assert.equal(differOnlyInBucket(["1_x", "10_x"]), false);
  assert.equal(differOnlyInBucket(["ab", "ac"]), false);
  assert.equal(differOnlyInBucket(["00_x", "00_x"]), false);
  // The differing token must look like a bucket or a hash.
  assert.equal(differOnlyInBucket(["zz_x", "yy_x"]), false);
});

test("badges agree with their count: 1 partition, 2 partitions", () => {
  const one = lenses(orders(`date(OrderDate, "yyyyMMdd")`)).ByDay;
  assert.match(one, /≈ 1 partition ·/);
  assert.doesNotMatch(one, /1 partitions/);
});
