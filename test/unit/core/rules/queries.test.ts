import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl } from "@core";
import { checkedFixes, codes, expectCheckedFix, expectFindings, expectFix, expectSaid } from "../../../helpers/analysis";

const T = (body: string) => `table Orders {\n${body}\n}\n`;
const ORDERS = `  Customer: string(20) charset "a-z0-9" distinct 10K
  OrderId:  int(0..99999)
  Status:   enum(Open, Shipped, Closed)
  Total:    double
  partitionKey = Customer
  rowKey       = pad(OrderId, 5)
  rows 10M
  entitySize 1KB`;

test("query/class on every query's name, as a hint kept out of the Problems panel: class and estimates", () => {
  const found = expectFindings(
    T(`${ORDERS}
  query «One» 100/s where Customer = ? and OrderId = ?
  query «Range» 10/s where Customer = ? and OrderId between ?
  query «All» where Customer = ?
  query «Scan» where Status = ?
  query «Raw» filter "PartitionKey ge 'a' and PartitionKey lt 'b'"`),
    "query/class",
  );
  assert.deepEqual(
    found.map((f) => f.message),
    [
      "point",
      "row-range · 1 partition · scans ≈ 100 to return ≈ 100",
      "row-range · 1 partition · scans ≈ 1,000 to return ≈ 1,000",
      // Status has 3 values: the scan returns a third of what it reads.
      "table-scan · every partition · scans ≈ 10,000,000 to return ≈ 3,333,333",
      "partition-range · several partitions",
    ],
  );
  assert.ok(found.every((f) => f.severity === "hint"));
});

test("the marathon's two queries are row ranges thanks to the dual row", () => {
  const text = readFileSync("examples/marathon.tdl", "utf8");
  const classes = analyzeTdl(text)
    .findings.filter((f) => f.code === "query/class")
    .map((f) => f.message);
  assert.deepEqual(classes, [
    "row-range · 1 partition · scans ≈ 1 to return ≈ 1",
    "row-range · 1 partition · scans ≈ 333 to return ≈ 333 (served by index ByAge)",
  ]);
  // Without the index, ByAge reads the whole partition's BIB rows through a filter.
  const without = text.replace(/ {2}index ByAge[^\n]*\n/, "");
  const [byAge] = analyzeTdl(without).findings.filter((f) => f.code === "query/class" && f.message.includes("3,333"));
  assert.equal(byAge.message, "row-range · 1 partition · scans ≈ 3,333 to return ≈ 333");
});

test("query/table-scan suggests a second table, or separate queries for an 'or' across partitions", () => {
  const [f] = expectFindings(
    T(`${ORDERS}
  query «ByStatus» 5/s where Status = ?`),
    "query/table-scan",
  );
  expectSaid(f, "scan", {
    reason: "no condition pins the start of the PartitionKey: every partition is read",
    scanned: 10_000_000,
    advice: "secondTable",
  });
  // The second table is a candidate, but checking it refuses it: keyed by Status, 3 partitions read whole 5 times a second run hot.
  assert.match(f.fixes?.[0]?.title ?? "", /^Add table OrdersByStatus keyed by Status for 'ByStatus'/);
  assert.deepEqual(checkedFixes(T(`${ORDERS}\n  query «ByStatus» 5/s where Status = ?`), "query/table-scan"), []);
  // Keyed by the order: the query reads one small partition of the second table, and that fix is offered.
  const fix = expectCheckedFix(
    T(`${ORDERS}\n  query «ByOrder» 5/s where OrderId = ?`),
    "query/table-scan",
    T(`${ORDERS}`) +
      `\n// Keyed for ByOrder: written alongside Orders, not in the same transaction.
table OrdersByOrderId {
  Customer: string(20) charset "a-z0-9" distinct 10K
  OrderId:  int(0..99999)
  Status:   enum(Open, Shipped, Closed)
  Total:    double

  partitionKey = pad(OrderId, 5)
  rowKey       = pad(OrderId, 5) + "," + Customer

  rows 10M
  entitySize 1KB

  query ByOrder 5/s where OrderId = ?
}
`,
  );
  assert.match(
    fix.title,
    /ByOrder is then read from table OrdersByOrderId; writes each entity twice \(was once; 2 KiB a write, was 1 KiB\); leaves nothing to fix$/,
  );
  const [or] = expectFindings(
    T(`${ORDERS}
  query «Either» filter "PartitionKey eq 'a' or PartitionKey eq 'b'"`),
    "query/table-scan",
  );
  expectSaid(or, "scan", { advice: "branches" });
});

test("query/low-selectivity adds an index led by the filtered properties", () => {
  const body = `${ORDERS}
  query «OpenOrders» 20/s where Customer = ? and Status = ? returns 5`;
  const [f] = expectFindings(T(body), "query/low-selectivity");
  expectSaid(f, "lowSelectivity", { scanned: 1000, returned: 5, perSecond: 20, advice: "index" });
  expectFix(
    T(body),
    "query/low-selectivity",
    T(
      body
        .replace(/[«»]/g, "")
        .replace(
          `  rowKey       = pad(OrderId, 5)`,
          `  rowKey       = pad(OrderId, 5)\n  index OpenOrders rowKey = "OPENORDERS:" + Status + "," + pad(OrderId, 5)`,
        ),
    ),
  );
  // With the index the query reads a third of the partition: no longer low selectivity.
  const fixed = T(
    body
      .replace(/[«»]/g, "")
      .replace(
        `  rowKey       = pad(OrderId, 5)`,
        `  rowKey       = pad(OrderId, 5)\n  index OpenOrders rowKey = "OPENORDERS:" + Status + "," + pad(OrderId, 5)`,
      ),
  );
  const cls = analyzeTdl(fixed).findings.find((x) => x.code === "query/class")!;
  assert.equal(cls.message, "row-range · 1 partition · scans ≈ 333 to return ≈ 5 (served by index OpenOrders)");
});

test("query/unordered-range: a range over an unpadded number is an error with the pad fix", () => {
  const body = `  Customer: string(20) distinct 10K
  OrderId:  int(0..99999)
  partitionKey = Customer
  rowKey       = OrderId
  query «Recent» where Customer = ? and OrderId > ?`;
  const [f] = expectFindings(T(body), "query/unordered-range");
  expectSaid(f, "unordered", {
    query: "Recent",
    property: "OrderId",
    op: ">",
    part: "OrderId",
    reason: 'an unpadded number sorts as text ("111" < "2")',
  });
  expectFix(
    T(body),
    "query/unordered-range",
    T(body.replace(/[«»]/g, "").replace("rowKey       = OrderId", "rowKey       = pad(OrderId, 5)")),
  );
  // Ranges over a hash cannot be fixed by an edit; a separator that breaks order can.
  const [h] = expectFindings(
    T(`  Customer: string(20) distinct 10K
  OrderId:  int(0..99999)
  partitionKey = Customer
  rowKey       = hash(OrderId, 4) + "_" + pad(OrderId, 5)
  query «Recent» where Customer = ? and OrderId > ?`),
    "query/unordered-range",
  );
  assert.equal(h.fixes, undefined);
  expectFix(
    T(`  Customer: string(20) distinct 10K
  Shop:     string(8) charset "a-z0-9"
  OrderId:  int(0..99999)
  partitionKey = Customer
  rowKey       = Shop + ":" + pad(OrderId, 5)
  query «ByShop» where Customer = ? and Shop between ?`),
    "query/unordered-range",
    T(`  Customer: string(20) distinct 10K
  Shop:     string(8) charset "a-z0-9"
  OrderId:  int(0..99999)
  partitionKey = Customer
  rowKey       = Shop + "," + pad(OrderId, 5)
  query ByShop where Customer = ? and Shop between ?`),
  );
});

test("filters that do not parse are syntax errors at their position inside the string", () => {
  expectFindings(
    T(`${ORDERS}
  query Bad filter "PartitionKey eq 'a' and frob «5»"`),
    "syntax",
  );
  assert.ok(
    !codes(
      T(`${ORDERS}
  query Bad filter "PartitionKey eq 'a' and Status eq 'Open'"`),
    ).includes("syntax"),
  );
});
