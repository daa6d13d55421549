/**
 * Inference round trip without a service: entities generated from every
 * example design (and the extra designs for inverted ticks, hash prefixes,
 * time buckets, GUIDs and index rows) are inferred back into a design. The
 * acceptance of issue 14: the key expressions equal the originals for at
 * least 9 of 10 tables and the load findings are the same. The emulator
 * version of this test is test/integration/infer.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";
import { inferDesign } from "@runtime/infer/infer";
import type { EntityRow } from "@protocol/entities";
import { generatedRows } from "../../../helpers/generated-tables";
import { keyExpressions, loadFindings, roundTripDesigns, withOriginalLoad } from "../../../helpers/infer-round-trip";

test("at least 9 of 10 designs come back with the same key expressions and the same load findings", () => {
  const designs = roundTripDesigns();
  assert.ok(designs.length >= 14, `${designs.length} designs`);
  const misses: string[] = [];
  for (const d of designs) {
    const table = d.model.table.name.text;
    const r = inferDesign(generatedRows(d.model, 1500), { table });
    assert.equal(r.check.parsed, true, `${table}: the inferred design parses\n${r.text}`);
    const inferred = analyzeTdl(r.text).tables[0];
    const want = keyExpressions(d.text, d.model);
    const got = keyExpressions(r.text, inferred);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      misses.push(`${table}: ${got.join(" | ")} instead of ${want.join(" | ")}`);
      continue;
    }
    // Same keys must rebuild every sampled key with the core's evaluator.
    assert.equal(r.check.partitionKey, r.check.total, table);
    assert.equal(r.check.anyRowKey, r.check.total, table);
    assert.deepEqual(loadFindings(withOriginalLoad(r.text, d), table), loadFindings(d.text, table), `${table}: load findings`);
  }
  assert.ok(misses.length <= designs.length / 10, `key expressions differ:\n${misses.join("\n")}`);
});

test("the load comparison sees findings: the append-only and hot designs keep them after the round trip", () => {
  const d = roundTripDesigns().find((x) => x.model.table.name.text === "TelemetryByHour")!;
  const r = inferDesign(generatedRows(d.model, 1000), { table: "TelemetryByHour" });
  assert.deepEqual(loadFindings(withOriginalLoad(r.text, d), "TelemetryByHour"), ["partition/append-only", "partition/hot"]);
});

/**
 * Regression: a date property whose seconds and milliseconds are zero
 * matched the zeros of every padded number, and those chance matches
 * crowded the hash prefix's free explanation out of the search, so the
 * PartitionKey came back as one row's literal ("cfcd_") and matched 1 key.
 */
test("a hash prefix is found when other properties match the key's zeros by chance", () => {
  const d = roundTripDesigns().find((x) => x.model.table.name.text === "PurchasesHashed")!;
  const start = Date.UTC(2026, 0, 1);
  const rows: EntityRow[] = generatedRows(d.model, 1000).map((e, i) => ({
    ...e,
    properties: { ...e.properties, PurchasedAt: { type: "DateTime", value: new Date(start + i * 60_000).toISOString() } },
  }));
  const r = inferDesign(rows, { table: "PurchasesHashed" });
  assert.match(r.text, /partitionKey = hash\(OrderNumber, 4\) \+ "_" \+ pad\(OrderNumber, 10\)/);
  assert.equal(r.check.partitionKey, 1000);
});

/**
 * Regression: a sample read in pages cuts partitions, and the `AGE:` rows of
 * a partition sort before its `BIB:` rows, so a sample of a live table held
 * 52% AGE rows; the larger shape was taken as the main row and BIB became
 * the index. Shapes within a fifth of each other are now told apart by their
 * leading property instead.
 */
test("dual rows sampled unevenly still keep the entity's own key as the main row", () => {
  const d = roundTripDesigns().find((x) => x.model.table.name.text === "Registrations")!;
  const all = generatedRows(d.model, 1000);
  // Drop every seventh BIB row: 1,000 AGE rows against 857 BIB rows.
  let bib = 0;
  const rows = all.filter((e) => !e.rowKey.startsWith("BIB:") || bib++ % 7 !== 0);
  const r = inferDesign(rows, { table: "Registrations" });
  assert.match(r.text, /\n {2}rowKey {7}= "BIB:" \+ pad\(Bib, 5\)/);
  assert.match(r.text, /\n {2}index ByAge rowKey = "AGE:" \+ pad\(Age, 3\)/);
});
