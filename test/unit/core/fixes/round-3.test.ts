/**
 * Advice found wanting by designs written outside the project (round 3):
 * each case is the general rule behind one design of
 * test/fixtures/newcomer/ — a fix that broke the key it extended, a
 * padded number that still could not range, a partition too large for
 * Cosmos DB that no key alone could split, a scan no index row could
 * narrow — and what `tdl fix` says about what it leaves.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, applyCheckedFixes, vetFixes } from "@core";
import { expectSaid } from "../../../helpers/analysis";

function codes(text: string): string[] {
  return analyzeTdl(text)
    .findings.filter((f) => f.severity !== "hint")
    .map((f) => f.code);
}

test("Tablestore: a fix that prefixes a lone integer key column pads it, so the key does not become an unpadded concatenation", () => {
  const text = `service tablestore
table Orders {
  OrderId: int64 increasing unique
  Shop:    string(8) charset "a-z" distinct 1K
  partitionKey = OrderId
  rowKey       = Shop
  rows 1B
  insert Place 10K/s
  query ByOrder 100/s where OrderId = ?
}
`;
  // A lone integer column sorts numerically on Tablestore: no unpadded-number before the fix.
  assert.deepEqual(codes(text), ["partition/append-only"]);
  const run = applyCheckedFixes(text);
  assert.equal(run.steps.length, 1);
  assert.match(
    run.steps[0].title,
    /^Prefix hash\(OrderId, 4\) \+ "," and pad OrderId: pad\(OrderId, 19\) \(a composite key sorts as text\)/,
  );
  assert.match(run.text, /partitionKey = hash\(OrderId, 4\) \+ "," \+ pad\(OrderId, 19\)/);
  assert.deepEqual(codes(run.text), []);
  assert.deepEqual(run.left, []);
});

test("a padded integer declared without a range may be negative: the range query gets a fact fix declaring it non-negative", () => {
  const text = `table History {
  Customer: guid distinct 1M
  OrderNumber: int64 increasing unique
  partitionKey = Customer
  rowKey       = pad(OrderNumber, 19)
  rows 100M
  query Recent where Customer = ? and OrderNumber > ?
}
`;
  const a = analyzeTdl(text);
  const unordered = a.findings.find((f) => f.code === "query/unordered-range")!;
  assert.match(unordered.message, /negative numbers do not sort as text/);
  const [fix] = vetFixes(a, unordered).offered;
  assert.equal(fix.fact, true);
  assert.match(fix.title, /^Declare OrderNumber non-negative: int64\(0\.\.\) up to the int64 maximum \(a fact/);
  const run = applyCheckedFixes(text);
  assert.match(run.text, /OrderNumber: int64\(0\.\.9223372036854775807\) increasing unique/);
  assert.ok(!codes(run.text).includes("query/unordered-range"));
  // A declared range (even a negative one) is the user's word: no fact is offered against it.
  const declared = text.replace("int64 increasing", "int64(-5..100) increasing");
  const f = analyzeTdl(declared).findings.find((x) => x.code === "query/unordered-range")!;
  assert.equal(f.fixes, undefined);
});

test("Cosmos DB: a partition too large for any key that keeps every query is split, and the query it strands gets its own table", () => {
  const text = `service cosmos-table
table Documents {
  Tenant:   string(20) charset "a-z0-9" distinct 3K hot 35%
  Doc:      guid
  Folder:   string(100) distinct 1M
  partitionKey = Tenant
  rowKey       = Doc
  rows 400M
  entitySize 4KB
  insert Create 400/s
  query Open 3000/s where Tenant = ? and Doc = ?
  query ListFolder 300/s where Tenant = ? and Folder = ?
}
`;
  const before = codes(text);
  assert.ok(before.includes("partition/too-large"));
  const run = applyCheckedFixes(text);
  assert.equal(run.steps[0].code, "partition/too-large");
  assert.match(run.steps[0].title, /append "," \+ Doc .*and add table DocumentsByTenantFolder keyed by Tenant, Folder for 'ListFolder'/);
  assert.match(run.text, /partitionKey = Tenant \+ "," \+ Doc\n/);
  assert.match(run.text, /table DocumentsByTenantFolder \{[^}]*partitionKey = Tenant \+ "[^"]*" \+ Folder/);
  assert.deepEqual(codes(run.text), []);
  const classes = analyzeTdl(run.text)
    .findings.filter((f) => f.code === "query/class")
    .map((f) => f.message.split(" ")[0]);
  assert.deepEqual(classes, ["point", "row-range"]);
});

test("a range across partitions that no index row narrows is offered a table keyed for it, which keeps the key's order (reverse)", () => {
  const text = `table Series {
  Ticks:    int64(0..3155378975999999999) increasing
  Sensor:   int(0..20000)
  partitionKey = bucket(Sensor, 8) + "," + reverse(Ticks)
  rowKey       = pad(Sensor, 5)
  rows 1B
  retention 30d
  insert Sample 4000/s
  query Latest 10/s where Sensor = ? returns 100
}
`;
  const a = analyzeTdl(text);
  const low = a.findings.find((f) => f.code === "query/low-selectivity")!;
  expectSaid(low, "lowSelectivity", { advice: "secondTable" });
  const [fix] = vetFixes(a, low).offered;
  assert.match(fix.title, /^Add table SeriesBySensor keyed by Sensor for 'Latest'/);
  const run = applyCheckedFixes(text);
  assert.match(run.text, /table SeriesBySensor \{[^}]*rowKey {7}= pad\(Sensor, 5\) \+ "," \+ reverse\(Ticks\)/);
  assert.deepEqual(codes(run.text), []);
});

test("a query that names only its partition reads all of it: the message says to bound it by the row key, not to add an index", () => {
  const text = `table Messages {
  Conversation: string(36) charset "0-9a-f" distinct 1M
  SentAt:       datetime increasing
  partitionKey = Conversation
  rowKey       = reverse(SentAt)
  rows 5B
  query Latest 100/s where Conversation = ? returns 50
}
`;
  const low = analyzeTdl(text).findings.find((f) => f.code === "query/low-selectivity")!;
  expectSaid(low, "lowSelectivity", { advice: "rowKey", lead: "SentAt" });
  assert.equal(low.fixes, undefined);
});

test("a spread over a row-key part that is not the entity's identity says so: it is part of the row key, it does not identify the entity", () => {
  const text = `table Readings {
  Device: string(12) charset "0-9a-f" distinct 5K
  At:     datetime increasing
  partitionKey = date(At, "yyyyMMddHH")
  rowKey       = Device + "," + reverse(At)
  rows 500M
  retention 30d
  insert Reading 6K/s
}
`;
  const run = applyCheckedFixes(text);
  assert.match(run.steps[0].title, /\(Device is part of the row key, so it never changes\)/);
  assert.doesNotMatch(run.steps[0].title, /identifies the entity/);
});

test("tdl fix says what it leaves and why: no automatic fix, or every fix refused with the first reason", () => {
  const text = `table Employees {
  EmployeeId: int(1..500000) unique
  LastName:   string(40) charset "A-Za-z" distinct 20K
  Department: enum(Sales, Engineering, Finance)
  partitionKey = "EMPLOYEE"
  rowKey       = pad(EmployeeId, 6)
  rows 300K
  query ById 300/s where EmployeeId = ?
  query ByDepartment 10/s where Department = ?
  query ByLastName 50/s where LastName prefix ?
}
`;
  const run = applyCheckedFixes(text);
  assert.equal(run.steps.length, 0);
  const left = run.left!.map((l) => `${l.severity} ${l.code} at ${l.anchor}: ${l.why.replace(/; the first.*/, "")}`);
  assert.deepEqual(left, [
    "warning throughput/account at file: no automatic fix: the message says what to do",
    "warning partition/single-value at Employees/partitionKey: no fix passed its check (4 tried)",
    "warning partition/hot at Employees/partitionKey: no fix passed its check (4 tried)",
  ]);
  assert.match(
    run.left![1].why,
    /the first was refused: a declared query gets worse: .*'ByDepartment' becomes a table-scan \(was row-range\)/,
  );
});
