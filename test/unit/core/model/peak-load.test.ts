import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parse } from "@core/tdl/parser";
import { propertyInfos } from "@core/model/properties";
import { tableFacts } from "@core/model/facts";
import { fuzz } from "../../../helpers/fuzz";

function facts(pk: string, members: string) {
  const t = parse(`table Readings {
  Region: enum(EU, US, AS, AF) hot 50%
  Device: string(12..12) charset "0-9a-f" distinct 5K
  Seq:    int64(0..9999999999) increasing
  At:     datetime increasing
  partitionKey = ${pk}
  rowKey       = Device + "_" + reverse(At)
${members}
}
`).file.tables[0];
  return tableFacts(t, propertyInfos(t));
}

test("a key that moves with time takes the whole write rate on the current partition, times its other parts' hottest share", () => {
  const hour = facts(`date(At, "yyyyMMddHH")`, "  rows 500M\n  insert W 6K/s");
  assert.equal(hour.load.temporal, true);
  assert.equal(hour.load.hottest, 6000, "the seed's case: all 6,000 inserts a second on the current hour");
  assert.equal(hour.est.partitions, 24);
  assert.equal(facts(`pad(Seq, 10)`, "  rows 1B\n  insert W 10K/s").load.hottest, 10_000, "increasing: the newest key takes every insert");
  assert.equal(facts(`reverse(At)`, "  rows 1B\n  insert W 3K/s").load.hottest, 3000, "decreasing: the same at the start");
  assert.equal(
    facts(`Region + "_" + date(At, "yyyyMMdd")`, "  rows 1B\n  insert W 6K/s").load.hottest,
    3000,
    "Region's hottest value takes half",
  );
  assert.equal(
    facts(`Device + "_" + date(At, "yyyyMMdd")`, "  rows 1B\n  insert W 6K/s").load.hottest,
    1.2,
    "5,000 devices spread the moment's writes",
  );
  assert.equal(facts(`bucket(Device, 16) + "_" + date(At, "yyyyMMddHH")`, "  rows 1B\n  insert W 6K/s").load.hottest, 375);
  // Index rows are written with each entity, on the same partition.
  const indexed = facts(`date(At, "yyyyMMdd")`, '  index ByDevice rowKey = "d" + Device\n  rows 1B\n  insert W 1500/s');
  assert.equal(indexed.load.hottest, 3000);
});

test("a key that does not move with time spreads its load by its hottest share, as before", () => {
  const f = facts(`Device`, "  rows 1B\n  insert W 6K/s");
  assert.equal(f.load.temporal, false);
  assert.equal(f.load.hottest, 6000 / 5000);
  assert.equal(facts(`Region`, "  rows 1B\n  insert W 6K/s").load.hottest, 3000);
});

test("reads of the current bucket count on the current partition; a table scan's reads count on none, nor on the account", () => {
  // A point read pins the current hour: 1,600 inserts + 500 reads.
  const point = facts(
    `date(At, "yyyyMMddHH")`,
    "  retention 10d\n  rows 5B\n  insert W 1600/s\n  query Now 500/s where At = ? and Device = ?",
  );
  assert.equal(point.load.hottest, 2100);
  // A table scan's reads are what the query costs (query/table-scan says so), not load on a partition or the account (issue #20).
  const scan = facts(`date(At, "yyyyMMddHH")`, "  retention 10d\n  rows 240K\n  query All 2/s where Device = ?");
  assert.equal(scan.est.partitions, 240);
  assert.deepEqual([scan.load.hottest, scan.load.total, scan.load.scans], [0, 0, 480_000]);
  assert.equal(facts(`date(At, "yyyyMMddHH")`, "  rows 240K\n  query All 2/s where Device = ?").load.hottest, 0);
});

test("fuzz: the current partition's write load never depends on how many partitions pile up over time", () => {
  const arb = fc.record({
    rows: fc.integer({ min: 1, max: 1e12 }),
    days: fc.option(fc.integer({ min: 1, max: 3650 }), { nil: undefined }),
    rate: fc.integer({ min: 1, max: 100_000 }),
    fmt: fc.constantFrom("yyyyMMddHH", "yyyyMMdd", "yyyyMM", "HH"),
  });
  fuzz(
    "temporal-write-load",
    arb,
    ({ rows, days, rate, fmt }) => {
      const f = facts(`date(At, "${fmt}")`, `  rows ${rows}\n${days ? `  retention ${days}d\n` : ""}  insert W ${rate}/s`);
      assert.equal(f.load.hottest, rate);
      assert.equal(f.est.writeShare, 1);
    },
    200,
  );
});
