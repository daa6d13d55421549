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

/** A job scheduler keyed by its next run, as a newcomer writes a queue of due work. */
const JOBS = `table Jobs {
  JobId:     guid unique
  Owner:     string(20) charset "a-z0-9" distinct 5K
  NextRunAt: datetime
  partitionKey = date(NextRunAt, "yyyyMMddHH")
  rowKey       = JobId
  rows 1M
  entitySize 1KB
  insert Schedule 20/s
  update Reschedule 100/s sets NextRunAt
  query Due 2/s where NextRunAt between ?
  query One 50/s where JobId = ?
}
`;

test("a schedule keyed by its next run gets the expert's fix: jobs keyed by their id, and a due table whose entries are deleted and inserted, never updated", () => {
  const a = analyzeTdl(JOBS);
  const [finding] = moving(JOBS);
  const offered = vetFixes(a, finding).offered;
  const state = offered.find((f) => /add table JobsByNextRunAt/.test(f.title));
  assert.ok(state, offered.map((f) => f.title).join("\n"));
  assert.match(
    state.title,
    /^Key the partitionKey by what does not change: JobId, and add table JobsByNextRunAt for 'Due', keyed as before/,
  );
  assert.match(state.title, /writes each entity twice/);
  const after = applyFixEdits(JOBS, state.edits);
  assert.match(after, /table Jobs \{[\s\S]*partitionKey = JobId\n[\s\S]*query One 50\/s where JobId = \?\n\}/);
  assert.match(
    after,
    /table JobsByNextRunAt \{[\s\S]*partitionKey = date\(NextRunAt, "yyyyMMddHH"\)\n {2}rowKey {7}= JobId\n[\s\S]*delete RescheduleOut 100\/s\n {2}insert RescheduleIn 100\/s\n {2}query Due 2\/s where NextRunAt between \?\n\}/,
  );
  assert.deepEqual(moving(after), []);
});

test("a status board keyed by status is keyed by the entity instead, and the board by status is its own table", () => {
  const text = DEVICES.replace('rowKey       = LastSeen + "_" + DeviceId', "rowKey       = DeviceId").replace(
    "query ByDevice 5/s where DeviceId = ?",
    "query ByDevice 5/s where DeviceId = ?\n  query Board 1/s where Status = ?",
  );
  const a = analyzeTdl(text);
  const [finding] = moving(text);
  const titles = vetFixes(a, finding).checked.map((v) => v.fix.title);
  assert.ok(titles.includes("Key the partitionKey by what does not change: DeviceId"), titles.join("\n"));
  assert.ok(
    titles.some((t) => t.startsWith("Key the partitionKey by what does not change: DeviceId, and add table DevicesByStatus for 'Board'")),
  );
  for (const v of vetFixes(a, finding).checked) assert.deepEqual(moving(applyFixEdits(text, v.fix.edits)), [], v.fix.title);
});

test("a row key that renders what changes keeps its other parts", () => {
  const text = DEVICES.replace("partitionKey = Status", "partitionKey = DeviceId");
  const a = analyzeTdl(text);
  const [finding] = moving(text);
  const [fix] = vetFixes(a, finding).offered;
  assert.equal(fix?.title.split(";")[0], "Key the rowKey by what does not change: DeviceId");
  assert.deepEqual(moving(applyFixEdits(text, fix.edits)), []);
});
