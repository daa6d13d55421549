/**
 * Issue #32's defects, each in a design written the way a newcomer writes
 * one: the general rule behind it is a property of test/unit/core/fixes/
 * properties.test.ts; these keep the case that showed it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, applyFixEdits, vetFixes } from "@core";

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
