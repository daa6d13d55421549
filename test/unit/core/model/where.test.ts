import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";

/** Each query's class and estimates as the CodeLens and the query/class hint read them. */
function lenses(queries: string, extra = ""): Record<string, string> {
  const text = `table Orders {
  Customer: string(20) charset "a-z0-9" distinct 10K
  OrderNo:  int(0..9999999)
  Status:   enum(New, Paid, Shipped, Done)
  Region:   string(10) distinct 50
  Note:     string(100)
  partitionKey = Customer
  rowKey       = pad(OrderNo, 7)
${extra}  rows 10M
  entitySize 1KB
${queries}
}
`;
  const a = analyzeTdl(text);
  return Object.fromEntries(a.findings.filter((f) => f.code === "query/class").map((f) => [text.slice(f.start, f.end), f.message]));
}

test("a condition on a non-key property with distinct N returns 1/N of what the query scans", () => {
  const q = lenses(`  query ByStatus where Customer = ? and Status = ?
  query ByRegion where Customer = ? and Region = "north"
  query ByBoth where Customer = ? and Status = ? and Region = ?
  query ByNote where Customer = ? and Note = ?
  query Scan where Status = "Paid"`);
  assert.equal(q.ByStatus, "row-range · 1 partition · scans ≈ 1,000 to return ≈ 250");
  assert.equal(q.ByRegion, "row-range · 1 partition · scans ≈ 1,000 to return ≈ 20");
  assert.equal(q.ByBoth, "row-range · 1 partition · scans ≈ 1,000 to return ≈ 5");
  // No distinct declared: unknown, so nothing is assumed filtered away.
  assert.equal(q.ByNote, "row-range · 1 partition · scans ≈ 1,000 to return ≈ 1,000");
  assert.equal(q.Scan, "table-scan · every partition · scans ≈ 10,000,000 to return ≈ 2,500,000");
});

test("a row range scans the range, not the whole partition; leftover conditions filter the range", () => {
  const q = lenses(`  query Range where Customer = ? and OrderNo between ?
  query Few where Customer = ? and OrderNo >= ? returns 40
  query Paid where Customer = ? and OrderNo between ? and Status = ?
  query PaidFew where Customer = ? and OrderNo >= ? and Status = ? returns 40`);
  assert.equal(q.Range, "row-range · 1 partition · scans ≈ 100 to return ≈ 100");
  assert.equal(q.Few, "row-range · 1 partition · scans ≈ 40 to return ≈ 40");
  assert.equal(q.Paid, "row-range · 1 partition · scans ≈ 100 to return ≈ 25");
  // 40 returned after keeping a quarter: the range held 160.
  assert.equal(q.PaidFew, "row-range · 1 partition · scans ≈ 160 to return ≈ 40");
});

test("an OData filter: a RowKey range seeks, and '=' on a declared property keeps 1/N", () => {
  const q = lenses(`  query Slice filter "PartitionKey eq 'c' and RowKey ge '0000100' and RowKey lt '0000200'"
  query Paid filter "PartitionKey eq 'c' and Status eq 'Paid'"
  query SliceNorth filter "PartitionKey eq 'c' and RowKey ge '0000100' and Region eq 'north'"
  query Either filter "PartitionKey eq 'c' and (Status eq 'Paid' or Status eq 'New')"
  query NotNew filter "PartitionKey eq 'c' and Status ne 'New'"`);
  assert.equal(q.Slice, "row-range · 1 partition · scans ≈ 100 to return ≈ 100");
  assert.equal(q.Paid, "row-range · 1 partition · scans ≈ 1,000 to return ≈ 250");
  assert.equal(q.SliceNorth, "row-range · 1 partition · scans ≈ 100 to return ≈ 2");
  assert.equal(
    q.Either,
    "row-range · 1 partition · scans ≈ 1,000 to return ≈ 1,000",
    "an 'or' of equalities: the language's 'whole scanned set'",
  );
  assert.equal(q.NotNew, "row-range · 1 partition · scans ≈ 1,000 to return ≈ 100");
});

test("a range over a time-bucket partition key reads the buckets of its range, counted from the retained span", () => {
  const text = (estimates: string) => `table Readings {
  Device: string(12..12) charset "0-9a-f" distinct 5K
  At:     datetime increasing
  partitionKey = date(At, "yyyyMMddHH")
  rowKey       = Device + "_" + reverse(At)
${estimates}
  query Since where At >= ?
  query All where Device = ?
}
`;
  const lens = (estimates: string) => {
    const t = text(estimates);
    return analyzeTdl(t)
      .findings.filter((f) => f.code === "query/class")
      .map((f) => f.message);
  };
  // 5B rows at 6,000 inserts/s: ≈ 9.6 days kept, 232 hourly partitions; a tenth of them is read.
  assert.deepEqual(lens("  rows 5B\n  insert W 6K/s"), [
    "partition-range · ≈ 24 partitions · scans ≈ 500,000,000 to return ≈ 500,000,000",
    "table-scan · every partition · scans ≈ 5 billion to return ≈ 1,000,000",
  ]);
  assert.deepEqual(
    lens("  rows 5B\n  retention 90d\n  insert W 6K/s")[0],
    "partition-range · ≈ 216 partitions · scans ≈ 500,000,000 to return ≈ 500,000,000",
  );
  // No rate and no retention: the number of hours is unknown — never "≈ 5,000,000,000 partitions".
  assert.deepEqual(lens("  rows 5B")[0], "partition-range · several partitions");
});
