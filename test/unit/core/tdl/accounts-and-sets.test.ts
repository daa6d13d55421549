/**
 * `account Name` (the account a table lives in) and `sets A, B` (what an
 * update changes): parsed with their spans, checked by name, refused where
 * they mean nothing, and recovered from like every member.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";
import { parse } from "@core/tdl/parser";
import { updatedProperties, accountOf } from "@core/model/updates";

const DESIGN = `table Devices {
  DeviceId: string(20) distinct 10K
  Status:   enum(Online, Offline)
  LastSeen: datetime
  partitionKey = DeviceId
  rowKey       = "state"
  account fleet
  update Heartbeat 500/s sets LastSeen, Status
  merge Rename 1/s sets DeviceId
}
`;

test("a table's account and what each update sets are read from the design", () => {
  const { file, errors } = parse(DESIGN);
  assert.deepEqual(errors, []);
  const t = file.tables[0];
  assert.equal(accountOf(t), "fleet");
  assert.equal(DESIGN.slice(t.account!.start, t.account!.end), "account fleet");
  const sets = updatedProperties(t);
  assert.deepEqual([...sets.keys()], ["LastSeen", "Status", "DeviceId"]);
  assert.deepEqual(
    sets.get("Status")!.map((w) => w.name.text),
    ["Heartbeat"],
  );
  const heartbeat = t.accesses.find((a) => a.kind === "write" && a.name.text === "Heartbeat")!;
  assert.equal(DESIGN.slice(heartbeat.start, heartbeat.end), "update Heartbeat 500/s sets LastSeen, Status");
});

test("a table without `account` lives in the file's one account", () => {
  assert.equal(accountOf(parse("table T {\n  A: string\n  partitionKey = A\n  rowKey = A\n}\n").file.tables[0]), "");
});

test("`sets` names only declared properties, and only on writes that change entities", () => {
  const bad = `table T {
  A: string
  partitionKey = A
  rowKey = A
  update U sets Nope
  insert I sets A
}
`;
  const a = analyzeTdl(bad);
  const at = (code: string) => a.findings.filter((f) => f.code === code).map((f) => bad.slice(f.start, f.end));
  assert.deepEqual(at("unknown-property"), ["Nope"]);
  assert.deepEqual(at("syntax"), ["sets"]);
});

test("`account` declared twice: the first counts, the second is reported; a broken one costs only its line", () => {
  const text = `table T {
  A: string
  partitionKey = A
  rowKey = A
  account one
  account two
  account
  rows 10
}
`;
  const { file, errors } = parse(text);
  assert.equal(accountOf(file.tables[0]), "one");
  // The second 'account', then the third's missing name (found at the next line's 'rows', which still parses).
  assert.deepEqual(
    errors.map((e) => text.slice(e.start, e.end)),
    ["account", "rows"],
  );
  assert.equal(file.tables[0].rows?.value.value, 10);
});
