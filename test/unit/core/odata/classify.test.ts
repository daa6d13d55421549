import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyFilter } from "@core/odata/classify";
import { parseFilter } from "@core/odata/parser";

function classOf(filter: string): string {
  const p = parseFilter(filter);
  assert.ok(p.ok, `${filter}: ${!p.ok ? p.error.message : ""}`);
  return classifyFilter(p.expr).class;
}

test("each query class, as the partitioning guide names them", () => {
  const cases: Array<[string, string]> = [
    ["PartitionKey eq 'Sales' and RowKey eq '2'", "point"],
    ["RowKey eq '2' and PartitionKey eq 'Sales'", "point"],
    ["'Sales' eq PartitionKey and '2' eq RowKey", "point"],
    ["PartitionKey eq 'Sales' and RowKey ge '2' and RowKey lt '5'", "row-range"],
    ["PartitionKey eq 'Sales'", "row-range"],
    ["PartitionKey eq 'Sales' and LastName eq 'Jones'", "row-range"],
    ["PartitionKey ge 'A' and PartitionKey lt 'D'", "partition-range"],
    ["PartitionKey gt 'A' and RowKey eq '1'", "partition-range"],
    ["'D' gt PartitionKey", "partition-range"],
    ["LastName eq 'Jones'", "table-scan"],
    ["RowKey eq '1'", "table-scan"],
    ["PartitionKey ne 'Sales'", "table-scan"],
  ];
  for (const [filter, cls] of cases) assert.equal(classOf(filter), cls, filter);
});

test("the service does not split 'or', and 'not' is negation", () => {
  assert.equal(classOf("PartitionKey eq 'a' and (RowKey eq '1' or RowKey eq '2')"), "row-range");
  assert.equal(classOf("PartitionKey eq 'a' or PartitionKey eq 'b'"), "table-scan");
  assert.equal(classOf("(PartitionKey eq 'a' and RowKey eq '1') or (PartitionKey eq 'a' and RowKey eq '2')"), "row-range");
  assert.equal(classOf("PartitionKey eq 'a' or PartitionKey eq 'a'"), "row-range");
  assert.equal(classOf("not (PartitionKey eq 'a')"), "table-scan");
  assert.equal(classOf("not (PartitionKey ne 'a') and RowKey eq '1'"), "point");
  assert.equal(classOf("not (PartitionKey lt 'a' or PartitionKey ge 'b')"), "partition-range");
  assert.equal(classOf("not not (PartitionKey eq 'a') and not (RowKey ne 'x')"), "point");
  const p = parseFilter("PartitionKey eq 'a' or PartitionKey eq 'b'");
  assert.ok(p.ok);
  const c = classifyFilter(p.expr);
  assert.equal(c.orAcrossPartitions, true);
  assert.match(c.reasons[0], /issue the branches as separate point or range queries/);
});

test("every literal form of the subset parses", () => {
  const literals = [
    "Name eq 'it''s'",
    "At ge datetime'2026-01-01T00:00:00Z'",
    "At lt datetime'2026-01-01T00:00:00.1234567Z'",
    "Id eq guid'0f8fad5b-d9cb-469f-a165-70867728950e'",
    "Blob eq X'0a1b'",
    "Blob eq binary'0A1B'",
    "Big gt 9223372036854775807L",
    "Small lt -5",
    "Ratio ge 2.5",
    "Ratio le 1e3",
    "Active eq true",
    "Active ne false",
    "((PartitionKey eq 'a'))",
  ];
  for (const f of literals) assert.ok(parseFilter(f).ok, f);
  const p = parseFilter("PartitionKey eq 'it''s' and RowKey eq 'x'");
  assert.ok(p.ok && p.expr.kind === "and" && p.expr.left.kind === "cmp" && p.expr.left.value.value === "it's");
  assert.equal(classOf("PartitionKey eq 'it''s' and RowKey eq 'x'"), "point");
});

test("errors say what was expected, where", () => {
  const cases: Array<[string, number, RegExp]> = [
    ["PartitionKey eq", 15, /expected a property name or a literal, found the end of the filter/],
    ["PartitionKey equals 'a'", 13, /expected a comparison operator/],
    ["PartitionKey eq 'a", 16, /unterminated literal/],
    ["(PartitionKey eq 'a'", 20, /expected '\)' to close the '\(' at 1/],
    ["PartitionKey eq 'a' RowKey eq 'b'", 20, /expected 'and', 'or' or the end of the filter/],
    ["At gt datetime'yesterday'", 6, /not an ISO 8601 date-time/],
    ["Id eq guid'123'", 6, /not a GUID/],
    ["Count gt 3000000000", 9, /add the L suffix/],
    ["A eq B", 5, /comparing two properties is not supported/],
    ["PartitionKey eq 'a' && RowKey eq 'b'", 20, /unexpected character '&'/],
    ["", 0, /the filter is empty/],
  ];
  for (const [filter, at, message] of cases) {
    const p = parseFilter(filter);
    assert.ok(!p.ok, filter);
    assert.equal(p.error.start, at, `${filter}: ${p.error.message}`);
    assert.match(p.error.message, message, filter);
  }
});

test("estimates follow the table's size when it is known", () => {
  const p = parseFilter("PartitionKey eq 'a' and RowKey ge 'b'");
  assert.ok(p.ok);
  const c = classifyFilter(p.expr, { rows: 1_000_000, rowsPerEntity: 2, partitions: 100 });
  // The RowKey range seeks: it scans 10 % of the partition's 20,000 rows, not the whole partition, and returns what it scans.
  assert.deepEqual([c.partitions, c.scanned, c.returned, c.selectivity], [1, 2_000, 2_000, 1]);
  const scan = parseFilter("Name eq 'x'");
  assert.ok(scan.ok);
  const s = classifyFilter(scan.expr, { rows: 1_000_000, rowsPerEntity: 1, partitions: 100, returns: 10 });
  assert.deepEqual([s.partitions, s.scanned, s.returned], [100, 1_000_000, 10]);
});
