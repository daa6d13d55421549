import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { checkLiveData } from "@runtime/account/live-check";
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

test("live data that fits the design reports nothing", () => {
  const design = readFileSync("examples/marathon.tdl", "utf8");
  const rows = Array.from({ length: 30 }, (_, i) => ({
    partitionKey: `E${i}__Full`,
    rowKey: `BIB:${String(i).padStart(5, "0")}__Ann__F__030`,
    properties: {},
  }));
  assert.deepEqual(checkLiveData(design, "Registrations", rows).findings, []);
});
