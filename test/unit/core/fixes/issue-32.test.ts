/**
 * Issue #32's defects, each in a design written the way a newcomer writes
 * one: the general rule behind it is a property of test/unit/core/fixes/
 * properties.test.ts; these keep the case that showed it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, applyFixEdits, tableFacts, vetFixes } from "@core";

/** A telemetry service keyed by device, read by site and day: the second table must not write ReadingAt twice. */
const TELEMETRY = `service azure-table

table Telemetry {
  DeviceId:  string(36) charset "a-z0-9-" distinct 50K
  SiteId:    string(12) charset "a-z0-9" distinct 400
  ReadingAt: datetime increasing
  Value:     double

  partitionKey = DeviceId
  rowKey       = ReadingAt + "," + DeviceId

  rows 5M
  entitySize 300B

  insert Reading 2K/s
  query DeviceDay 50/s where DeviceId = ? and ReadingAt between ?
  query SiteDay 1/s where SiteId = ? and ReadingAt between ?
}
`;

test("a second table for a range query leads with the range's property once, when the first row key already renders it", () => {
  const a = analyzeTdl(TELEMETRY);
  const scan = a.findings.find((f) => f.code === "query/table-scan" && TELEMETRY.slice(f.start, f.end) === "SiteDay")!;
  assert.ok(scan, "SiteDay is a table scan");
  const second = vetFixes(a, scan).offered.find((f) => f.title.startsWith("Add table TelemetryBySiteId"));
  assert.ok(second, "the second table is offered");
  const fixed = applyFixEdits(TELEMETRY, second.edits);
  const rowKeys = [...fixed.matchAll(/rowKey\s*= (.*)/g)].map((m) => m[1]);
  assert.deepEqual(rowKeys, ['ReadingAt + "," + DeviceId', 'ReadingAt + "," + DeviceId']);
  assert.match(second.title, /writes each entity twice \(was once; 600 B a write, was 300 B\)/);
});

test("an index row ordered by a property the row key renders ends with the row key's other parts only", () => {
  const text = `table Orders {
  Seq:      string(60) distinct 1M
  PlacedAt: double
  Kind:     bool hot 60%
  partitionKey = "all"
  rowKey       = hash(Kind, 4) + "_" + lower(Seq)
  rows 2M
  query Q1 5/s where Seq = ? and PlacedAt = ?
  insert W1
}
`;
  const a = analyzeTdl(text);
  const index = a.findings.flatMap((f) => vetFixes(a, f).offered).find((f) => f.title.startsWith("Add an index row"));
  assert.ok(index);
  assert.match(applyFixEdits(text, index.edits), /index Q1 rowKey = "Q1:" \+ Seq \+ "," \+ PlacedAt \+ "[^"]+" \+ hash\(Kind, 4\)\n/);
});

/** A multi-tenant orders store as a newcomer keys it: by tenant, 2,040 orders a second at peak. */
const ORDERS = `service azure-table

table Orders {
  TenantId:   string(12) charset "a-z0-9" distinct 50
  CustomerId: string(16) charset "a-z0-9" distinct 1M
  OrderId:    guid unique
  PlacedAt:   datetime increasing

  partitionKey = TenantId
  rowKey       = OrderId

  rows 500M
  entitySize 1KB

  insert Place 2040/s
  query ByCustomer 5/s where TenantId = ? and CustomerId = ? returns 50
}
`;

test("a fix that writes each order twice says so in its title, with the bytes a write stores", () => {
  const a = analyzeTdl(ORDERS);
  const low = a.findings.find((f) => f.code === "query/low-selectivity")!;
  const [index] = vetFixes(a, low).offered;
  assert.match(index.title, /^Add an index row ordered by CustomerId: .*writes each entity twice \(was once; 2 KiB a write, was 1 KiB\)/);
  // What it leaves to fix comes after what it costs: "nothing to fix" is no longer "nothing".
  assert.match(index.title, /writes each entity twice \(was once; [^)]*\); leaves nothing to fix$/);
});

test("keyed by the order's own id, a query by customer reads every order: the figures agree with the key", () => {
  const text = ORDERS.replace("partitionKey = TenantId", "partitionKey = OrderId").replace("TenantId = ? and CustomerId", "CustomerId");
  const tm = analyzeTdl(text).tables[0];
  const { est, queries } = tableFacts(tm.table, tm.props);
  assert.equal(est.partitions, 500_000_000);
  assert.equal(est.entitiesPerPartition, 1);
  const c = queries.find((q) => q.query.name.text === "ByCustomer")!.classification!;
  assert.equal(c.class, "table-scan");
  // Every partition, every entity: not "≈ 30 partitions · scans ≈ 30".
  assert.equal(c.partitions, 500_000_000);
  assert.equal(c.scanned, 500_000_000);
  assert.equal(c.returned, 50);
});

test("a table scan is described by what one call reads, never as entities per second of load", () => {
  const text = ORDERS.replace("TenantId = ? and CustomerId", "CustomerId");
  const scan = analyzeTdl(text).findings.find((f) => f.code === "query/table-scan")!;
  assert.match(scan.message, /every partition is read \(≈ 500,000,000 entities a call\)/);
  assert.doesNotMatch(scan.message, /entities\/s/);
});

test("an update that changes a key's property counts twice in the load: the service deletes and inserts the entity", () => {
  const base = `table Devices {
  SiteId:   string(12) charset "a-z0-9" distinct 400
  DeviceId: string(24) charset "a-f0-9" distinct 100K
  LastSeen: datetime
  partitionKey = SiteId
  rowKey       = KEY
  rows 100K
  update Heartbeat 1000/s sets LastSeen
}
`;
  const load = (rowKey: string) => {
    const tm = analyzeTdl(base.replace("KEY", rowKey)).tables[0];
    return tableFacts(tm.table, tm.props).load.total;
  };
  assert.equal(load("DeviceId"), 1000);
  assert.equal(load('date(LastSeen, "yyyyMMddHHmm") + "_" + DeviceId'), 2000);
});
