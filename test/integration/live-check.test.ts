import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { checkLiveData, liveSummary } from "@runtime/account/live-check";
import { session, startAzurite } from "../helpers/azurite";

let emu: EmbeddedEmulator;
before(async () => {
  emu = await startAzurite();
});
after(async () => emu?.stop());

test("a live table whose keys break the design is reported against the design", async () => {
  const s = session(emu);
  await s.createTable("Registrations");
  const good = Array.from({ length: 60 }, (_, i) => ({
    partitionKey: "Berlin__Full",
    rowKey: `BIB:${String(i).padStart(5, "0")}__Ann__F__030`,
    properties: {},
  }));
  const unpadded = { partitionKey: "Berlin__Full", rowKey: "BIB:42__Bob__M__041", properties: {} };
  const long = { partitionKey: "Berlin__Half", rowKey: `BIB:00001__${"x".repeat(80)}__M__041`, properties: {} };
  await s.upsertRows("Registrations", [...good, unpadded, long]);
  const sample = (await s.page("Registrations", { pageSize: 1000 })).entities;
  const design = readFileSync("examples/marathon.tdl", "utf8");
  const { findings, sampled } = checkLiveData(design, "Registrations", sample);
  assert.equal(sampled, 62);
  const rk = design.indexOf('"BIB:" + pad(Bib, 5)');
  assert.deepEqual(
    findings.map((f) => [f.code, f.start]),
    [
      ["live/unpadded-number", rk],
      ["live/too-long", rk],
      ["live/partition-too-large", design.indexOf('Event + "__" + Distance')],
    ],
  );
  assert.match(
    findings[0].message,
    /1 of 62 sampled live RowKeys hold 'Bib' with another number of digits than the design's pad \(e\.g\. 'BIB:42__Bob__M__041'\)/,
  );
  assert.match(findings[2].message, /partition 'Berlin__Full' holds 61 of 62 sampled entities \(98%\)/);
});

test("live data that fits the design reports nothing, and says it fits only on a sample large enough", () => {
  const design = readFileSync("examples/marathon.tdl", "utf8");
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      partitionKey: `E${i}__Full`,
      rowKey: `BIB:${String(i).padStart(5, "0")}__Ann__F__030`,
      properties: {},
    }));
  const small = checkLiveData(design, "Registrations", rows(30));
  assert.deepEqual(small.findings, []);
  assert.equal(
    liveSummary(small, "Registrations"),
    "Sampled 30 entities of 'Registrations': their keys follow the design, but 30 entities say too little to call the table a fit.",
  );
  assert.equal(
    liveSummary(checkLiveData(design, "Registrations", rows(60)), "Registrations"),
    "Sampled 60 entities of 'Registrations': the live data fits the design.",
  );
});

test("keys of another shape altogether are reported with their share, and the check does not say the data fits", () => {
  const design = [
    "table Orders {",
    "  CustomerId: int(1..99999)",
    "  OrderNo: int(0..999999)",
    '  partitionKey = "CUST_" + CustomerId',
    '  rowKey = "ORD_" + pad(OrderNo, 6)',
    "}",
  ].join("\n");
  const rows = Array.from({ length: 200 }, (_, i) => ({
    partitionKey: `${String(i).padStart(8, "0")}eef`,
    rowKey: `${i % 17}|${i}`,
    properties: {},
  }));
  const check = checkLiveData(design, "Orders", rows);
  assert.deepEqual(
    check.findings.map((f) => [f.code, f.severity, design.slice(f.start, f.end)]),
    [
      ["live/key-shape", "warning", '"CUST_" + CustomerId'],
      ["live/too-long", "warning", '"CUST_" + CustomerId'],
      ["live/key-shape", "warning", '"ORD_" + pad(OrderNo, 6)'],
    ],
  );
  assert.match(
    check.findings[0].message,
    /^200 of 200 sampled live PartitionKeys \(100 %\) do not follow the design's expression, e\.g\. '00000000eef'/,
  );
  assert.equal(
    liveSummary(check, "Orders"),
    "Sampled 200 entities of 'Orders': 0 of 200 PartitionKeys follow the design; 0 of 200 RowKeys follow the design; 3 findings in the Problems panel.",
  );
});

test("index rows are judged by their index's expression, not counted against the table's RowKey", () => {
  const design = readFileSync("examples/marathon.tdl", "utf8");
  const rows = Array.from({ length: 60 }, (_, i) => [
    { partitionKey: "Berlin__Full", rowKey: `BIB:${String(i).padStart(5, "0")}__Ann__F__030`, properties: {} },
    { partitionKey: "Berlin__Full", rowKey: `AGE:030__${String(i).padStart(5, "0")}__Ann__F`, properties: {} },
  ]).flat();
  const check = checkLiveData(design, "Registrations", rows);
  assert.deepEqual(
    check.keys.map((k) => [k.label, k.sampled, k.matched]),
    [
      ["PartitionKey", 120, 120],
      ["RowKey", 60, 60],
      ["index ByAge RowKey", 60, 60],
    ],
  );
});
