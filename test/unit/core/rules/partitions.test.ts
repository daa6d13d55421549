import { test } from "node:test";
import assert from "node:assert/strict";
import { checkedFixes, codes, expectCheckedFix, expectFindings, expectFix, expectSaid } from "../../../helpers/analysis";

const T = (body: string, service = "") => `${service}table Orders {\n${body}\n}\n`;

test("partition/append-only on an increasing key, with a hash prefix fix (the separator chosen as every fix chooses it)", () => {
  const [f] = expectFindings(
    T(`  OrderNumber: int64(0..9999999999) increasing
  Device:      int(0..9999)
  partitionKey = «pad(OrderNumber, 10)»‹appendOnly›
  rowKey       = pad(Device, 4)`),
    "partition/append-only",
  );
  expectSaid(f, "appendOnly", { name: "OrderNumber", order: "increasing" });
  expectFix(
    T(`  OrderNumber: int64(0..9999999999) increasing
  Device:      int(0..9999)
  partitionKey = «pad(OrderNumber, 10)»
  rowKey       = pad(Device, 4)`),
    "partition/append-only",
    T(`  OrderNumber: int64(0..9999999999) increasing
  Device:      int(0..9999)
  partitionKey = hash(OrderNumber, 4) + "," + pad(OrderNumber, 10)
  rowKey       = pad(Device, 4)`),
  );
});

test("partition/append-only on a time bucket, hashed or not, with a bucket prefix fix", () => {
  const body = (pk: string) => `  DeviceId: string(12..12) charset "0-9a-f" distinct 5K
  Reading:  double
  At:       datetime increasing
  partitionKey = ${pk}
  rowKey       = DeviceId`;
  expectFindings(T(body('«hash(date(At, "yyyyMMddHH"), 4)»‹timeBucket›')), "partition/append-only");
  expectFindings(T(body('«date(At, "yyyyMMddHH")»‹timeBucket›')), "partition/append-only");
  // No write rate to size it from: the guide's 16 buckets, in front of the time bucket.
  const fix = expectCheckedFix(
    T(body('«date(At, "yyyyMMddHH")»')),
    "partition/append-only",
    T(body('bucket(DeviceId, 16) + "," + date(At, "yyyyMMddHH")')),
  );
  assert.match(
    fix.title,
    /^Prefix bucket\(DeviceId, 16\) \+ ",": spreads the moment's writes over 16 partitions .*; leaves nothing to fix$/,
  );
  // Decreasing keys are prepend-only; reverse() of an increasing time too.
  const [p] = expectFindings(T(body("«reverse(At)»‹appendOnly›")), "partition/append-only");
  expectSaid(p, "appendOnly", { name: "At", order: "decreasing" });
  assert.match(p.message, /^prepend-only partition key/);
  // A leading device id spreads the inserts: silent.
  assert.ok(!codes(T(body('DeviceId + "_" + date(At, "yyyyMMdd")'))).includes("partition/append-only"));
});

test("partition/single-value: warning with estimates, info without; the checked fix appends the best spreading property", () => {
  const body = `  Customer: string(20) distinct 10K
  Region:   enum(EU)
  Seq:      int(0..999) increasing
  Amount:   double
  partitionKey = «"orders" + Region»
  rowKey       = Customer`;
  const [info] = expectFindings(T(body), "partition/single-value");
  assert.equal(info.severity, "info");
  const [warn] = expectFindings(T(body + "\n  rows 1M"), "partition/single-value");
  assert.equal(warn.severity, "warning");
  expectCheckedFix(
    T(body + "\n  rows 1M"),
    "partition/single-value",
    T(body.replace("«", "").replace("»", ' + "," + Customer') + "\n  rows 1M"),
  );
  // Buckets of the customer are on offer too (16 without a write rate); the increasing Seq and the double Amount never are.
  const offered = checkedFixes(T(body + "\n  rows 1M"), "partition/single-value").map((f) => f.title);
  assert.ok(offered.some((t) => t.startsWith('Append "," + bucket(Customer, 16)')));
  assert.ok(!offered.some((t) => /Seq|Amount/.test(t)), offered.join(" | "));
});

test("partition/hot states the figures and splits the hot value with the highest-cardinality property", () => {
  const body = `  SellerID: string(8) charset "a-z0-9" distinct 40 hot 25%
  CardID:   int(0..999999) distinct 50K
  DeviceID: int(0..99999) distinct 2K
  Seq:      int64 increasing
  partitionKey = «SellerID»
  rowKey       = pad(DeviceID, 5) + "_" + pad(Seq, 19)
  rows 1B
  insert Purchase 10K/s`;
  const [f] = expectFindings(T(body.replace("«SellerID»", "«SellerID»‹hot›")), "partition/hot");
  expectSaid(f, "hot", { load: 2500, target: 2000, unit: "entities/s", share: 0.25 });
  // The seed's choice: DeviceID, which the row key already holds (an identity of the purchase's device), over CardID.
  expectCheckedFix(T(body), "partition/hot", T(body.replace("«SellerID»", 'SellerID + "," + pad(CardID, 6)')));
  // 2,500 writes a second over 2,000: 4 buckets (the smallest power of two that halves the load below the target).
  expectCheckedFix(T(body), "partition/hot", T(body.replace("«SellerID»", 'SellerID + "," + bucket(CardID, 4)')), /bucket\(CardID, 4\)/);
  // The setting's target replaces the profile's; Tablestore has no per-partition number.
  assert.ok(!codes(T(body.replace(/[«»]/g, "")), { partitionTargetEntitiesPerSecond: 3000 }).includes("partition/hot"));
  assert.ok(!codes(T(body.replace(/[«»]/g, ""), "service tablestore\n")).includes("partition/hot"));
});

test("partition/hot counts index rows and scanned entities, and request units on Cosmos DB", () => {
  const body = `  Shop: string(8) charset "a-z" distinct 10
  Id:   guid
  partitionKey = «Shop»
  rowKey       = Id
  index ById rowKey = "i" + Id
  rows 10M
  entitySize 1KB
  insert Sale 9K/s`;
  // 9,000/s × 2 rows / 10 shops = 1,800 < 2,000: silent; at 10K/s: 2,000 — at the target, still silent; 11K/s: hot.
  assert.ok(!codes(T(body.replace(/[«»]/g, ""))).includes("partition/hot"));
  const [f] = expectFindings(T(body.replace("9K/s", "11K/s")), "partition/hot");
  expectSaid(f, "hot", { load: 2200, unit: "entities/s" });
  // Cosmos DB: 2,200 entities/s written × 5 RU per KiB = 11,000 RU/s; 9K/s gives 9,000 RU/s: silent.
  const [ru] = expectFindings(T(body.replace("9K/s", "11K/s"), "service cosmos-table\n"), "partition/hot");
  expectSaid(ru, "hot", { load: 11000, target: 10000, unit: "RU/s" });
  assert.ok(!codes(T(body.replace(/[«»]/g, ""), "service cosmos-table\n")).includes("partition/hot"));
});

test("partition/too-large: an error on Cosmos DB (20 GB hard), a warning on Tablestore, silent on Azure", () => {
  const body = `  Tenant: string(10) charset "a-z" distinct 100
  Doc:    guid
  Kind:   enum(A, B, C)
  partitionKey = «Tenant»
  rowKey       = Kind + "_" + Doc
  rows 1B
  entitySize 4KB`;
  const [c] = expectFindings(T(body, "service cosmos-table\n"), "partition/too-large");
  assert.equal(c.severity, "error");
  expectSaid(c, "tooLarge", { hard: true, limit: 20 * 2 ** 30 });
  assert.ok(Math.abs((c.data!.bytes as number) / 2 ** 30 - 38.1) < 0.05, c.message);
  const [s] = expectFindings(T(body, "service tablestore\n"), "partition/too-large");
  assert.equal(s.severity, "warning");
  assert.ok(!codes(T(body.replace(/[«»]/g, ""))).includes("partition/too-large"));
  // The fix splits by a row-key property: 38.1 GiB over 20 GiB is 2 splits, so 4 buckets of Doc (or one partition per Doc).
  expectCheckedFix(
    T(body, "service cosmos-table\n"),
    "partition/too-large",
    T(body.replace("«Tenant»", 'Tenant + "," + Doc'), "service cosmos-table\n"),
  );
  expectCheckedFix(
    T(body, "service cosmos-table\n"),
    "partition/too-large",
    T(body.replace("«Tenant»", 'Tenant + "," + bucket(Doc, 4)'), "service cosmos-table\n"),
    /bucket/,
  );
});

const READINGS = (pk: string, members: string) =>
  T(`  DeviceId: string(12..12) charset "0-9a-f" distinct 5K
  Region:   enum(EU, US, AS, AF) hot 50%
  At:       datetime increasing
  Value:    double
  partitionKey = ${pk}
  rowKey       = DeviceId + "_" + reverse(At)
${members}`);

test("partition/hot: load is temporal — an hourly bucket under 6,000 inserts/s is hot as well as append-only (the seed's telemetry case)", () => {
  const text = READINGS(`«date(At, "yyyyMMddHH")»`, "  rows 500M\n  insert Reading 6K/s");
  const [f] = expectFindings(text, "partition/hot");
  assert.equal(
    f.message,
    "≈ 6,000 entities/s on the current partition (such as '2026010203'): the partition key is an hourly time bucket of 'At', " +
      "so every write of the current moment lands in one partition, however many partitions pile up over time (Reading 6,000/s); " +
      "the target is 2,000 entities/s per partition. Spread the moment's writes with another property in front of it.",
  );
  expectFindings(text, "partition/append-only");
  // However long the table keeps readings: 24 partitions (rows ÷ rate) or 2,160 (retention 90d), the current one takes them all.
  expectFindings(READINGS(`«date(At, "yyyyMMddHH")»`, "  rows 500M\n  retention 90d\n  insert Reading 6K/s"), "partition/hot");
  expectFindings(READINGS(`«hash(date(At, "yyyyMMddHH"), 4)»`, "  insert Reading 6K/s"), "partition/hot");
  // Under the target: append-only, not hot.
  const calm = READINGS(`date(At, "yyyyMMddHH")`, "  rows 500M\n  insert Reading 1500/s");
  assert.ok(codes(calm).includes("partition/append-only") && !codes(calm).includes("partition/hot"));
});

test("partition/hot on a moving key counts the other parts' hottest share and the reads of the current bucket", () => {
  const [region] = expectFindings(
    READINGS(`«Region + "_" + date(At, "yyyyMMdd")»‹temporal›`, "  rows 1B\n  insert Reading 6K/s"),
    "partition/hot",
  );
  expectSaid(region, "temporal", {
    load: 3000,
    example: "EU_20260102",
    moving: { name: "At", monotonic: "bucket", adjective: "daily", writeShare: 0.5 },
  });
  // A device in front spreads the moment's writes over 5,000 partitions: 1.2/s each.
  assert.ok(!codes(READINGS(`DeviceId + "_" + date(At, "yyyyMMdd")`, "  rows 1B\n  insert Reading 6K/s")).includes("partition/hot"));
  // 1,600 inserts alone are under the target; with 500 point reads of the current hour they are over it.
  const [reads] = expectFindings(
    READINGS(
      `«date(At, "yyyyMMddHH")»`,
      "  retention 10d\n  rows 5B\n  insert Reading 1600/s\n  query Now 500/s where At = ? and DeviceId = ?",
    ),
    "partition/hot",
  );
  expectSaid(reads, "temporal", {
    load: 2100,
    patterns: [
      { name: "Reading", perSecond: 1600 },
      { name: "Now", perSecond: 500 },
    ],
  });
  // An increasing order number: the newest partition, at the end of the key order.
  const [inc] = expectFindings(
    T(`  OrderNumber: int64(0..9999999999) increasing
  Device:      int(0..9999) distinct 2K
  partitionKey = «pad(OrderNumber, 10)»
  rowKey       = pad(Device, 4)
  rows 1B
  insert Purchase 10K/s`),
    "partition/hot",
  );
  expectSaid(inc, "temporal", {
    load: 10000,
    example: "0000000042",
    moving: { name: "OrderNumber", monotonic: "increasing", writeShare: 1 },
  });
});

test("partition/hot on a moving key: the preferred fix puts a bucket in front, which ends both hot and append-only", () => {
  const before = READINGS(`«date(At, "yyyyMMddHH")»`, "  rows 500M\n  insert Reading 6K/s");
  const after = READINGS(`bucket(DeviceId, 8) + "," + date(At, "yyyyMMddHH")`, "  rows 500M\n  insert Reading 6K/s");
  // 6,000 writes a second over 2,000: 8 buckets (the smallest power of two that halves the load below the target).
  const fix = expectCheckedFix(before, "partition/hot", after);
  assert.equal(
    fix.title,
    'Prefix bucket(DeviceId, 8) + ",": spreads the moment\'s writes over 8 partitions (DeviceId is part of the row key, so it never changes); leaves nothing to fix',
  );
  assert.ok(!codes(after).includes("partition/append-only"));
  // The composite fix stays on offer: behind the bucket it splits the current hour by device, and leaves append-only.
  const composite = expectCheckedFix(
    before,
    "partition/hot",
    READINGS(`date(At, "yyyyMMddHH") + "," + DeviceId`, "  rows 500M\n  insert Reading 6K/s"),
    /composite/,
  );
  assert.match(composite.title, /leaves partition\/append-only \(partitionKey\)$/);
});
