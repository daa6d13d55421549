/**
 * key/mutable-property: a key that renders what an update changes (`sets`)
 * would move the entity on every such update; no fix may put one into a key.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, applyFixEdits, vetFixes } from "@core";
import { expectSaid } from "../../../helpers/analysis";

/** A device registry keyed by state, as a newcomer keys a status board. */
const DEVICES = `table Devices {
  DeviceId: string(20) charset "a-z0-9" distinct 100K
  Status:   enum(Online, Offline, Lost)
  LastSeen: datetime
  partitionKey = Status
  rowKey       = LastSeen + "_" + DeviceId
  rows 100K
  entitySize 512B
  insert Register 10/s
  update Heartbeat 200/s sets LastSeen, Status
  query ByDevice 5/s where DeviceId = ?
}
`;

const moving = (text: string) => analyzeTdl(text).findings.filter((f) => f.code === "key/mutable-property");

test("a partition key and a row key that render what an update sets are each one finding, at the property", () => {
  const found = moving(DEVICES);
  assert.deepEqual(
    found.map((f) => [DEVICES.slice(f.start, f.end), f.messageId]),
    [
      ["Status", "moves"],
      ["LastSeen", "moves"],
    ],
  );
  expectSaid(found[0], "moves", { name: "Status", key: "partitionKey", writes: ["Heartbeat"], partition: true });
  expectSaid(found[1], "moves", { name: "LastSeen", key: "rowKey", partition: false });
});

test("without `sets`, or with a set that no key renders, nothing moves", () => {
  assert.deepEqual(moving(DEVICES.replace(" sets LastSeen, Status", "")), []);
  assert.deepEqual(
    moving(DEVICES.replace("sets LastSeen, Status", "sets Note").replace("  LastSeen: datetime", "  LastSeen: datetime\n  Note: string")),
    [],
  );
});

test("a hash of what changes changes too, and an index row that renders it moves within its partition", () => {
  const text = DEVICES.replace(
    'rowKey       = LastSeen + "_" + DeviceId',
    'rowKey       = DeviceId\n  index ByState rowKey = hash(Status, 2) + "_" + DeviceId',
  );
  assert.deepEqual(
    moving(text).map((f) => [text.slice(f.start, f.end), f.data?.key]),
    [
      ["Status", "partitionKey"],
      ["Status", "index ByState rowKey"],
    ],
  );
});

test("no offered fix puts what an update changes into a key: the second table for ByDevice leaves LastSeen and Status out", () => {
  const a = analyzeTdl(DEVICES);
  const scan = a.findings.find((f) => f.code === "query/table-scan")!;
  const [fix] = vetFixes(a, scan).offered;
  const after = applyFixEdits(DEVICES, fix.edits);
  assert.match(after, /table DevicesByDeviceId \{[\s\S]*partitionKey = DeviceId\n {2}rowKey {7}= DeviceId\n/);
  assert.equal(moving(after).length, moving(DEVICES).length);
});
