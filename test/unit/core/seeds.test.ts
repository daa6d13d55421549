import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl } from "@core";
import { codes, expectSaid } from "../../helpers/analysis";

const above = (file: string) =>
  analyzeTdl(readFileSync(`examples/${file}`, "utf8"))
    .findings.filter((f) => f.severity !== "info" && f.severity !== "hint")
    .map((f) => f.code);

test("Tablestore's best practices: SellerID and OrderNumber are flagged, CardID and DeviceID are clean", () => {
  assert.deepEqual(above("student-cards/by-seller.tdl"), ["partition/hot"]);
  // Load is temporal: every current purchase lands at the end of the key order, 10,000/s on one partition.
  assert.deepEqual(above("student-cards/by-order-number.tdl"), ["partition/append-only", "partition/hot"]);
  assert.deepEqual(above("student-cards/by-card.tdl"), []);
  assert.deepEqual(above("student-cards/by-device.tdl"), []);
  assert.deepEqual(above("student-cards/hash-prefixed.tdl"), []);
});

test("Tablestore's best practices: ':' after SellerID is flagged, ',' is accepted", () => {
  assert.deepEqual(above("student-cards/composite-colon.tdl"), ["key/separator-order"]);
  assert.deepEqual(above("student-cards/composite.tdl"), []);
});

test("the partitioning guide: the ledger keyed by account cannot commit a transfer; keyed by transfer it can", () => {
  const findings = analyzeTdl(readFileSync("examples/ledger.tdl", "utf8")).findings.filter(
    (f) => f.severity !== "info" && f.severity !== "hint",
  );
  assert.deepEqual(
    findings.map((f) => f.code),
    ["transaction/cross-partition"],
  );
  const text = readFileSync("examples/ledger.tdl", "utf8");
  assert.ok(findings[0].start > text.indexOf("table LedgerByAccount") && findings[0].start < text.indexOf("table Ledger {"));
});

test("seeds 001/002: hour partitions of telemetry under 6,000 inserts/s are append-only and hot; device partitions are sound", () => {
  const text = readFileSync("examples/telemetry.tdl", "utf8");
  const findings = analyzeTdl(text).findings.filter((f) => f.severity !== "info" && f.severity !== "hint");
  assert.deepEqual(
    findings.map((f) => [f.code, text.slice(f.start, f.end)]),
    [
      ["partition/append-only", 'date(At, "yyyyMMddHH")'],
      ["partition/hot", 'date(At, "yyyyMMddHH")'],
    ],
  );
  const hot = findings[1];
  expectSaid(hot, "temporal", {
    load: 6000,
    target: 2000,
    unit: "entities/s",
    example: "2026010203",
    moving: { name: "At", monotonic: "bucket", adjective: "hourly", writeShare: 1 },
  });
});

test("a sound design reports nothing above info", () => {
  assert.deepEqual(above("marathon.tdl"), []);
});

test("every example design parses", () => {
  for (const f of ["marathon", "ledger", "telemetry", "student-cards/by-card", "student-cards/composite-colon"]) {
    const text = readFileSync(`examples/${f}.tdl`, "utf8");
    assert.deepEqual(
      codes(text).filter((c) => c === "syntax" || c === "unknown-property" || c === "invalid-argument"),
      [],
      f,
    );
  }
});
