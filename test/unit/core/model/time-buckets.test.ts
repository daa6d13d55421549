import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parse } from "@core/tdl/parser";
import { insertRate, retainedSpan, timeBucket } from "@core/model/time-buckets";
import { propertyInfos } from "@core/model/properties";
import { tableEstimates } from "@core/model/estimates";
import { parseDuration } from "@core/tdl/numbers";
import { formatDuration } from "@core/text/words";
import { fuzz } from "../../../helpers/fuzz";

const DAY = 86400;

test("a bucket is as wide as its finest token; the span divided by the width counts them", () => {
  assert.deepEqual(timeBucket("At", "yyyyMMddHH", 90 * DAY), {
    prop: "At",
    format: "yyyyMMddHH",
    widthSeconds: 3600,
    adjective: "hourly",
    unit: "hour",
    count: 2160,
    countedBy: "span",
  });
  assert.equal(timeBucket("At", "yyyyMMdd", 90 * DAY)?.count, 90);
  assert.equal(timeBucket("At", "yyyy-MM-dd", 30 * DAY)?.count, 30);
  assert.equal(timeBucket("At", "yyyyMM", parseDuration("2y").value)?.count, 24);
  // 23.15 hours touch 24 hourly buckets.
  assert.equal(timeBucket("At", "yyyyMMddHH", 5e8 / 6000)?.count, 24);
  // Shorter than one bucket: still one.
  assert.equal(timeBucket("At", "yyyyMMdd", 60)?.count, 1);
});

test("without a span a bucket with a year is unknown, not guessed; a format without a year cycles", () => {
  assert.equal(timeBucket("At", "yyyyMMddHH", undefined)?.count, undefined);
  assert.deepEqual([timeBucket("At", "HH", undefined)?.count, timeBucket("At", "HH", undefined)?.countedBy], [24, "cycle"]);
  assert.equal(timeBucket("At", "HH", 90 * DAY)?.count, 24, "an hour of the day repeats whatever the span");
  assert.equal(timeBucket("At", "HH", 12 * 3600)?.count, 12, "half a day holds 12 of them");
  assert.equal(timeBucket("At", "mmssfff", undefined)?.count, 3_600_000);
  assert.equal(timeBucket("At", "yyyyHH", 90 * DAY)?.count, 24, "one year's worth of hour-of-day values");
  assert.equal(timeBucket("At", "--", 90 * DAY), undefined, "no token, no bucket");
});

test("the retained span: retention first, else rows over the insert rate (inserts, upserts, transactions' entities), else unknown", () => {
  const table = (members: string) => parse(`table Things {\n  A: int\n  partitionKey = A\n  rowKey = A\n${members}\n}\n`).file.tables[0];
  assert.deepEqual(retainedSpan(table("  rows 1B\n  retention 90d\n  insert W 6K/s"), 1e9), { seconds: 90 * DAY, source: "retention" });
  assert.deepEqual(
    retainedSpan(table("  rows 1B\n  insert W 4K/s\n  upsert U 1K/s\n  transaction T 500/s entities 2 sharing A\n  update X 9K/s"), 1e9),
    { seconds: 1e9 / 6000, source: "rows", rows: 1e9, insertRate: 6000 },
  );
  assert.equal(retainedSpan(table("  rows 1B\n  update X 9K/s\n  delete D 1/s"), 1e9), undefined, "updates and deletes add no entities");
  assert.equal(retainedSpan(table("  insert W 6K/s"), undefined), undefined, "a rate without rows");
  assert.equal(insertRate(table("  insert W 12/min\n  insert V").accesses), 0.2);
});

test("durations read as people write them and print back so", () => {
  assert.deepEqual(
    ["90d", "12h", "2y", "1.5d", "30min", "1w", "45s"].map((d) => parseDuration(d).value),
    [90 * DAY, 12 * 3600, 2 * 365.2425 * DAY, 1.5 * DAY, 1800, 7 * DAY, 45],
  );
  for (const bad of ["90", "90m", "3mo", "d"])
    assert.match(parseDuration(bad).error ?? "", /is not a duration: use a number with a unit s, min, h, d, w or y/, bad);
  assert.match(parseDuration("9".repeat(400) + "y").error ?? "", /is too long a duration/);
  assert.deepEqual([90 * DAY, 5e8 / 6000, 2 * 365.2425 * DAY, 3600, 90].map(formatDuration), [
    "90 days",
    "≈ 23.1 hours",
    "2 years",
    "60 minutes",
    "90 seconds",
  ]);
});

test("a time-bucket partition key never falls back to rows for its partition count", () => {
  const est = (extra: string) => {
    const t = parse(
      `table Readings {\n  Dev: string(4..4) distinct 10\n  At: datetime increasing\n  partitionKey = date(At, "yyyyMMddHH")\n  rowKey = Dev\n${extra}\n}\n`,
    ).file.tables[0];
    return tableEstimates(t, propertyInfos(t));
  };
  assert.equal(est("  rows 5B").partitions, undefined, "5B rows but no rate nor retention: unknown, not 5,000,000,000");
  assert.equal(est("  rows 5B").pk?.unknownBuckets?.adjective, "hourly");
  assert.equal(est("  rows 5B\n  insert W 6K/s").partitions, 232, "5B ÷ 6,000/s ≈ 9.6 days ≈ 232 hours");
  assert.equal(est("  rows 5B\n  retention 90d\n  insert W 6K/s").partitions, 2160);
  // Hashed or bucketed, an unknown number of hours stays unknown.
  const hashed = parse(
    `table Readings {\n  At: datetime increasing\n  partitionKey = hash(date(At, "yyyyMMddHH"), 4)\n  rowKey = date(At, "mmss")\n  rows 5B\n}\n`,
  ).file.tables[0];
  assert.equal(tableEstimates(hashed, propertyInfos(hashed)).partitions, undefined);
});

test("fuzz: bucket counts stay within the span's buckets and the format's cycle, and grow with the span", () => {
  const formats = ["yyyy", "yyyyMM", "yyyyMMdd", "yyyyMMddHH", "yyyyMMddHHmm", "HH", "MMdd", "ddHH", "mmss"];
  fuzz(
    "time-bucket-counts",
    fc.record({
      f: fc.constantFrom(...formats),
      span: fc.double({ min: 1, max: 1e10, noNaN: true }),
      more: fc.double({ min: 1, max: 1e3, noNaN: true }),
    }),
    ({ f, span, more }) => {
      const b = timeBucket("At", f, span)!;
      const count = b.count!;
      assert.ok(Number.isInteger(count) && count >= 1, `${f}: ${count}`);
      assert.ok(count <= Math.ceil(span / b.widthSeconds) + 1, `${f}: ${count} buckets over ${span} s`);
      assert.ok(count <= timeBucket("At", f, span * more)!.count!, `${f}: a longer span never holds fewer buckets`);
    },
    300,
  );
});

test("an absurd but finite retention counts absurdly many buckets, without overflow or a crash", () => {
  const t = parse(
    `table Readings {\n  At: datetime increasing\n  partitionKey = date(At, "yyyyMMddHHmmssfff")\n  rowKey = date(At, "HH")\n  retention ${"9".repeat(44)}y\n  rows 1M\n  insert W 1/s\n}\n`,
  ).file.tables[0];
  const est = tableEstimates(t, propertyInfos(t));
  assert.equal(est.span?.source, "retention");
  assert.equal(est.partitions, 1e6, "capped at the table's rows");
  assert.ok(Number.isFinite(est.pk!.parts[0].timeBucket!.count!));
});
