/**
 * Monthly cost estimates against the hand calculation of docs/cost.md: the
 * worked example's table is read from the document, so the figures there
 * and the ones the estimate gives cannot drift apart. Then what skew,
 * throttling, query pages and stored data add.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl, designCost, SNAPSHOT, type ServiceEstimate } from "@core";

const design = (access: string, extra = "") =>
  `table Events {\n  Id: guid\n  partitionKey = Id\n  rowKey = Id\n  entitySize 1KB\n${extra}  ${access}\n}\n`;

const estimates = (text: string): Record<string, ServiceEstimate> =>
  Object.fromEntries(designCost(analyzeTdl(text), { prices: SNAPSHOT })[0].estimates.map((e) => [e.service, e]));

const number = (cell: string) => Number(cell.replace(/[$,\s]/g, ""));

test("docs/cost.md's worked example: the estimate gives the figures worked out by hand", () => {
  const doc = readFileSync("docs/cost.md", "utf8");
  const rows = [...doc.matchAll(/^\| `(insert [^`]+)` \| ([\d,]+) \| (\$[\d,.]+) \| ([\d,]+) \| (\$[\d,.]+) \|$/gm)];
  assert.equal(rows.length, 2, "the worked example's table");
  for (const [, access, transactions, tableUsd, ru, cosmosUsd] of rows) {
    const e = estimates(design(access));
    assert.deepEqual(
      [
        e["azure-table"].transactionsPerMonth,
        e["azure-table"].monthlyUsd,
        e["cosmos-table"].requestUnitsPerSecond,
        e["cosmos-table"].monthlyUsd,
      ],
      [number(transactions), number(tableUsd), number(ru), number(cosmosUsd)],
      access,
    );
  }
});

test("Cosmos DB's throughput side by side, and serverless refused past its 5,000 RU/s", () => {
  const e = estimates(design("insert Add 2000/s"))["cosmos-table"];
  assert.deepEqual(e.throughput, { provisioned: 584, autoscale: 876, serverless: 6570 });
  assert.ok(e.notes.some((n) => /serverless does not fit: a serverless container serves at most 5,000 RU\/s/.test(n)));
  const small = estimates(design("insert Add 50/s"))["cosmos-table"];
  // 250 RU/s: provisioned starts at 400 RU/s ($23.36), serverless bills what is used (657 M RUs in 730 hours: $164.25).
  assert.deepEqual(small.throughput, { provisioned: 23.36, autoscale: 35.04, serverless: 164.25 });
  assert.equal(small.monthlyUsd, 23.36);
});

test("a hot partition: Table Storage bills the throttled retries; Cosmos DB provisions for the hottest partition's share", () => {
  const hot = [
    "table Devices {",
    "  Device: string(20) distinct 10 hot 50%",
    "  At: datetime",
    "  partitionKey = Device",
    "  rowKey = Device",
    "  entitySize 1KB",
    "  rows 1M",
    "  insert Reading 6000/s",
    "}",
  ].join("\n");
  const e = estimates(hot);
  // 50 % of 6,000/s on one partition: 3,000 against 2,000; a third of its requests (1,000/s of its 3,000) are throttled and retried.
  assert.equal(e["azure-table"].transactionsPerMonth, (6000 + 1000) * 2_628_000);
  assert.match(e["azure-table"].notes[0], /the hottest partition takes ≈ 3,000 entities\/s against 2,000/);
  // 30,000 RU/s in all; the hottest partition needs 15,000 (more than one physical partition serves: 10,000) of an even share over 3 physical partitions.
  assert.equal(e["cosmos-table"].requestUnitsPerSecond, 30_000);
  assert.ok(e["cosmos-table"].notes.some((n) => /more than a physical partition serves/.test(n)));
});

test("queries are billed by page, and data by the GB-month", () => {
  const text = [
    "table Orders {",
    "  Customer: string(20) distinct 1K",
    "  OrderId: guid",
    "  partitionKey = Customer",
    "  rowKey = OrderId",
    "  entitySize 2KB",
    "  rows 10M",
    "  query All 1/s where OrderId = ?",
    "}",
  ].join("\n");
  const e = estimates(text);
  // A table scan of 10,000,000 entities: 1,000 pages of 10,000 scanned each, one transaction each.
  assert.equal(e["azure-table"].transactionsPerMonth, 1000 * 2_628_000);
  const gb = (10_000_000 * 2048) / 1024 ** 3;
  assert.equal(e["azure-table"].storageGb, Math.round(gb * 100) / 100);
  assert.equal(e["azure-table"].lines.find((l) => l.unit === "GB-months")?.monthlyUsd, Math.round(gb * 0.045 * 100) / 100);
});

test("every profile is priced over one month of 730 hours", () => {
  const e = estimates(design("insert Add 1/s"));
  assert.equal(e["azure-table"].transactionsPerMonth, 730 * 3600);
  const units = e["tablestore"].lines.find((l) => l.item.startsWith("write capacity units"))?.quantity;
  assert.equal(units, 730 * 3600);
});

test("Cosmos DB places logical partitions by hash: a key unique per order makes no hot partition, a day bucket does", () => {
  const orders = (key: string) =>
    [
      "table Orders {",
      "  OrderNo: int64 increasing unique",
      "  PlacedAt: datetime increasing",
      `  partitionKey = ${key}`,
      "  rowKey = pad(OrderNo, 19)",
      "  entitySize 1KB",
      "  rows 100M",
      "  insert Place 2000/s",
      "}",
    ].join("\n");
  // 2,000 orders a second × 5 RU: 10,000 RU/s, each order its own logical partition — placed by hash, spread over every physical one.
  const unique = estimates(orders("pad(OrderNo, 19)"))["cosmos-table"];
  assert.equal(unique.requestUnitsPerSecond, 10_000);
  assert.ok(!unique.notes.some((n) => /hottest logical partition/.test(n)), unique.notes.join("\n"));
  // A day bucket: the moment's writes share one key value, one logical partition takes all 10,000 RU/s.
  const daily = estimates(orders('date(PlacedAt, "yyyyMMdd")'))["cosmos-table"];
  assert.ok(daily.requestUnitsPerSecond! > 10_000, `${daily.requestUnitsPerSecond}`);
  assert.ok(
    daily.notes.some((n) => /the hottest logical partition needs ≈ 10,000 RU\/s/.test(n)),
    daily.notes.join("\n"),
  );
});

test("Tablestore bills a range read by the size it reads, in 4 KiB units, not a unit per row", () => {
  const text = [
    "service tablestore",
    "table Orders {",
    "  Customer: string(20) distinct 1K",
    "  OrderId: guid",
    "  partitionKey = Customer",
    "  rowKey = OrderId",
    "  entitySize 1KB",
    "  rows 100K",
    "  query ByCustomer 1/s where Customer = ?",
    "}",
  ].join("\n");
  const reads = estimates(text)["tablestore"].lines.find((l) => l.item.startsWith("read capacity units"))?.quantity;
  // 100 orders of 1 KiB a call: 100 KiB, 25 units of 4 KiB (a unit a row would be 100).
  assert.equal(reads, 25 * 730 * 3600);
});
