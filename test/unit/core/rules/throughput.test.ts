import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";
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
  assert.equal(
    f.message,
    "the table scans of this design read ≈ 2.5 billion entities/s at peak ('ByCustomer' of table 'Orders'), past the Azure Table Storage account target " +
      "of 20,000 entities/s; the other patterns total ≈ 500. A scan's reads grow with the table, not with the load: key the query so that it is not a " +
      "scan (query/table-scan), rather than spread over accounts.",
  );
  expectSaid(f, "scans", { queries: ["ByCustomer"], table: "Orders", total: 500 });
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

test("past the target without the scans, the finding advises more accounts and mentions the scans apart", () => {
  const text = SCAN.replace("insert PlaceOrder 500/s", "insert PlaceOrder 25K/s");
  const [f] = analyzeTdl(text).findings.filter((x) => x.code === "throughput/account");
  expectSaid(f, "total", { total: 25000, scanned: 2_500_000_000 });
});
