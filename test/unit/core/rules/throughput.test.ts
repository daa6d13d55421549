import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, applyFixEdits, vetFixes } from "@core";
import { expectSaid } from "../../../helpers/analysis";

test("throughput/account sums every pattern of the file", () => {
  const text = `table Alpha {
  A: guid
  partitionKey = A
  rowKey = "x"
  rows 1B
  insert W 15K/s
}
table Beta {
  B: guid
  partitionKey = B
  rowKey = "x"
  rows 1B
  insert W 6K/s
}
`;
  const found = analyzeTdl(text).findings.filter((f) => f.code === "throughput/account");
  assert.equal(found.length, 1);
  assert.equal(text.slice(found[0].start, found[0].end), "Alpha");
  expectSaid(found[0], "total", { total: 21000, table: "Alpha", tableTotal: 15000, target: 20000, scanned: 0 });
});

/** The issue #20 design: a daily key, 500 orders a second, and a query by customer that scans 50M entities 50 times a second. */
const SCAN = `service azure-table
table Orders {
  OrderId:    guid
  OrderDate:  datetime increasing
  CustomerId: string(20) charset "a-z0-9" distinct 100K
  partitionKey = date(OrderDate, "yyyyMMdd")
  rowKey       = OrderId
  rows 50M
  entitySize 1KB
  insert PlaceOrder 500/s
  query ByCustomer 50/s where CustomerId = ? returns 20
}
`;

test("a table scan's reads are that query's cost: the account finding names the query and points to query/table-scan, never to more accounts", () => {
  const a = analyzeTdl(SCAN);
  const [f] = a.findings.filter((x) => x.code === "throughput/account");
  // What one call reads and how long it takes at the account's target — never the scans as entities/s of load.
  assert.equal(
    f.message,
    "the table scans of this design ('ByCustomer' of table 'Orders') read every partition: one call reads ≈ 50,000,000 entities, " +
      "≈ 41.7 minutes at the Azure Table Storage account target of 20,000 entities/s; the other patterns total ≈ 500 entities/s. " +
      "A scan's reads grow with the table, not with the load: key the query so that it is not a scan (query/table-scan), rather than spread over accounts.",
  );
  expectSaid(f, "scans", { queries: ["ByCustomer"], table: "Orders", total: 500, perCall: 50_000_000, callSeconds: 2500 });
  // Nor do they make the current partition hot: 500 inserts a second are under the target (it was ≈ 1,250,000,500 entities/s).
  assert.deepEqual(
    a.findings.filter((x) => x.code === "partition/hot"),
    [],
  );
  // The query's own finding says what it costs.
  expectSaid(
    a.findings.find((x) => x.code === "query/table-scan"),
    "scan",
    { scanned: 50_000_000 },
  );
});

test("past the target without the scans, the finding advises an account of its own and mentions the scans apart", () => {
  const text =
    SCAN.replace("insert PlaceOrder 500/s", "insert PlaceOrder 15K/s") +
    THREE().split("table Events")[0].replace("12K", "8K").replace("table Orders", "table Extra");
  const [f] = analyzeTdl(text).findings.filter((x) => x.code === "throughput/account");
  expectSaid(f, "total", { total: 23000, table: "Orders", scanned: 2_500_000_000 });
});

/** Three tables of one file: 12K + 6K + 5K entities/s against the account's 20K. */
const THREE = (accounts: [string, string, string] = ["", "", ""]) =>
  [
    ["Orders", "12K", accounts[0]],
    ["Events", "6K", accounts[1]],
    ["Audit", "5K", accounts[2]],
  ]
    .map(
      ([name, rate, acc]) =>
        `table ${name} {\n  Id: guid\n  partitionKey = Id\n  rowKey = "x"\n  rows 1B\n  insert W ${rate}/s${acc ? `\n  account ${acc}` : ""}\n}\n`,
    )
    .join("");

test("a file is one account: its tables add up, and the fix moves the busiest table that fits into an account of its own", () => {
  const text = THREE();
  const a = analyzeTdl(text);
  const found = a.findings.filter((f) => f.code === "throughput/account");
  assert.equal(found.length, 1);
  expectSaid(found[0], "total", { total: 23000, table: "Orders", tableTotal: 12000, account: "" });
  const [fix] = vetFixes(a, found[0]).offered;
  assert.match(fix.title, /^Move table Orders to an account of its own: account orders \(a storage account has no fixed charge/);
  const after = applyFixEdits(text, fix.edits);
  assert.match(after, /insert W 12K\/s\n {2}account orders\n\}/);
  assert.deepEqual(
    analyzeTdl(after).findings.filter((f) => f.code === "throughput/account"),
    [],
  );
});

test("each account is counted on its own: tables in accounts of their own do not add to the file's", () => {
  assert.deepEqual(
    analyzeTdl(THREE(["orders", "", ""])).findings.filter((f) => f.code === "throughput/account"),
    [],
  );
  // Two tables named into one account add up there.
  const [f] = analyzeTdl(THREE(["busy", "busy", "busy"])).findings.filter((x) => x.code === "throughput/account");
  expectSaid(f, "total", { total: 23000, account: "busy" });
});

test("no fix when no move helps: one table alone past the target, or no one table whose move brings both accounts under it", () => {
  const alone = THREE().replace("insert W 12K/s", "insert W 25K/s");
  const [f] = analyzeTdl(alone).findings.filter((x) => x.code === "throughput/account");
  expectSaid(f, "alone", { table: "Orders", tableTotal: 25000 });
  assert.equal(f.fixes, undefined);
  const even =
    THREE().replace("insert W 12K/s", "insert W 9K/s").replace("insert W 6K/s", "insert W 9K/s").replace("insert W 5K/s", "insert W 9K/s") +
    THREE()
      .replace(/table (\w+)/g, "table $1Two")
      .replace(/insert W \d+K\/s/g, "insert W 9K/s");
  const [g] = analyzeTdl(even).findings.filter((x) => x.code === "throughput/account");
  expectSaid(g, "noSingleMove", { total: 54000 });
});
