/**
 * `partition/date-not-increasing`: a day key over a datetime the design does
 * not declare `increasing` (issue #20: "a yyyy-MM-dd partition key over 50M
 * rows is estimated at 50,000,000 partitions, so no load rule fires and
 * nothing suggests increasing").
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, tableFacts } from "@core";
import { checkedFixes, codes, expectCheckedFix, expectFindings } from "../../../helpers/analysis";

const EVENTS = (created: string, pk = '«date(CreatedAt, "yyyy-MM-dd")»') => `service azure-table
table Events {
  EventId:   guid
  CreatedAt: ${created}
  UserId:    string(20) charset "a-z0-9" distinct 100K
  partitionKey = ${pk}
  rowKey       = EventId
  rows 50M
  entitySize 1KB
  retention 365d
  insert Track 1K/s
  query ByDay 10/s where CreatedAt between ? returns 20
}
`;

test("a day key's partitions come from the days kept, never from the rows", () => {
  const t = analyzeTdl(EVENTS("datetime").replace(/[«»]/g, "")).tables[0];
  const est = tableFacts(t.table, t.props).est;
  assert.equal(est.partitions, 365, "365 days kept, not 50,000,000 partitions");
  // Without a retention, the span is rows over the insert rate: 50M ÷ 1,000/s ≈ 13.9 hours, one day.
  const short = analyzeTdl(EVENTS("datetime").replace(/[«»]/g, "").replace("  retention 365d\n", "")).tables[0];
  assert.equal(tableFacts(short.table, short.props).est.partitions, 1);
  // One bucket at a time is no constant key.
  assert.ok(!codes(EVENTS("datetime").replace(/[«»]/g, "").replace("  retention 365d\n", "")).includes("partition/single-value"));
});

test("partition/date-not-increasing: an info on the date part, with a fact fix that declares increasing and reveals the load findings", () => {
  const [f] = expectFindings(EVENTS("datetime"), "partition/date-not-increasing");
  assert.equal(f.severity, "info");
  assert.equal(
    f.message,
    "the partition key is a daily bucket of 'CreatedAt', which is not declared increasing: if entities are written as it happens (a creation or event time), " +
      "every write of the moment lands on the current day's partition, and the load rules cannot see it. Declare 'CreatedAt' increasing if it is.",
  );
  assert.equal(f.fixes?.[0].fact, true);
  const fix = expectCheckedFix(EVENTS("datetime"), "partition/date-not-increasing", EVENTS("datetime increasing").replace(/[«»]/g, ""));
  assert.match(fix.title, /^Declare CreatedAt increasing .*; reveals partition\/append-only \(partitionKey\)$/);
  // Declared (either way), or a key that is no time bucket: silent.
  for (const text of [EVENTS("datetime increasing"), EVENTS("datetime decreasing"), EVENTS("datetime", "«UserId»")]) {
    assert.ok(!codes(text.replace(/[«»]/g, "")).includes("partition/date-not-increasing"), text);
  }
  assert.equal(checkedFixes(EVENTS("datetime"), "partition/date-not-increasing").length, 1);
});
