/**
 * The migration's plan and re-keying (core/migrate/): the rows each old
 * entity becomes, where each key component comes from, the refusal of a
 * component with no source (named), the figures, and an entity re-keyed —
 * from its properties, or from its old keys read back when it lacks one.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { analyzeTdl, mapTables, planMigration, readKey, recoverable, rekey, renderKey, SERVICES, type NewRow } from "@core";
import { NEW_DESIGN, NO_SOURCE_DESIGN, OLD_DESIGN } from "../../../helpers/migrate-designs";

const old = analyzeTdl(OLD_DESIGN);
const next = analyzeTdl(NEW_DESIGN);

test("the plan: three rows per entity, each key's expression, each component's source, the figures at the share", () => {
  const plan = planMigration(old, next, { share: 0.5 });
  assert.deepEqual(plan.refused, []);
  const [t] = plan.tables;
  assert.equal(t.table, "Readings");
  assert.deepEqual(
    t.rows.map((r) => [r.table, r.label, r.partitionKey, r.rowKey]),
    [
      ["Readings", "rowKey", "DeviceId", 'reverse(At) + "_" + Metric'],
      ["Readings", "index ByMetric", "DeviceId", 'Metric + "_" + reverse(At)'],
      ["ReadingsByMetric", "rowKey", 'Metric + "_" + date(At, "yyyyMMdd")', 'DeviceId + "_" + reverse(At)'],
    ],
  );
  assert.deepEqual(
    t.components.map((c) => [c.prop, c.from]),
    [
      ["DeviceId", "the entity's property DeviceId (else the old RowKey read back)"],
      ["At", "the entity's property At"],
      ["Metric", "the entity's property Metric"],
    ],
  );
  assert.equal(t.amplification, 3);
  assert.equal(t.entities, 100_000);
  assert.equal(t.writes, 300_000);
  // Two reads per page: the page, and the key-only re-read after its rows are written.
  assert.equal(t.reads, 200);
  assert.equal(t.transactions, 300_200);
  assert.equal(t.rate, 10_000);
  assert.equal(t.seconds, 30);
  assert.equal(t.requestUnits, undefined);
  assert.equal(plan.steps.length, 7);
  assert.match(plan.steps[6], /^Delete the old table \(Readings\) with `tdl delete`/);
});

test("on a Cosmos DB for Table target the plan counts request units (5 per KiB written, 1 per KiB read, twice)", () => {
  const plan = planMigration(old, next, { share: 0.5, target: SERVICES["cosmos-table"], entities: 1000 });
  assert.equal(plan.targetService, "cosmos-table");
  assert.equal(plan.tables[0].requestUnits, 3000 * 5 + 1000 * 2);
});

test("a new key component with no source is refused, naming it and the keys that render it", () => {
  const plan = planMigration(old, analyzeTdl(NO_SOURCE_DESIGN), { share: 0.8 });
  assert.deepEqual(
    plan.refused.map((r) => [r.table, r.prop, r.usedBy]),
    [["Readings", "Site", ["Readings.partitionKey"]]],
  );
  assert.match(plan.refused[0].reason, /renders Site, which Readings in the old design neither declares nor renders in a key/);
});

test("the old keys give back what their parts keep: DeviceId from the RowKey, not At (each key holds half its date)", () => {
  const t = old.tables[0];
  assert.deepEqual(recoverable(t.table.rowKey!.expr, t.props), ["DeviceId"]);
  assert.deepEqual(recoverable(t.table.partitionKey!.expr, t.props), []);
  const values = readKey(t.table.rowKey!.expr, t.props, "00ab12cd34ef_0405006");
  assert.equal(values?.get("DeviceId"), "00ab12cd34ef");
  assert.equal(readKey(t.table.rowKey!.expr, t.props, "00ab12cd34ef-0405006"), undefined);
});

const entity = (props: Record<string, { type: string; value: string }>) => ({
  partitionKey: "2026010203",
  rowKey: "00ab12cd34ef_0405006",
  properties: props,
});

test("an entity re-keyed: every new row rendered as the new design renders it, carrying the old properties", () => {
  const [m] = mapTables(old.tables, next.tables);
  const e = entity({
    DeviceId: { type: "String", value: "00ab12cd34ef" },
    At: { type: "DateTime", value: "2026-01-02T03:04:05.006Z" },
    Metric: { type: "String", value: "humidity" },
    Value: { type: "Double", value: "21.5" },
  });
  const r = rekey(m, e);
  assert.ok("rows" in r);
  assert.deepEqual(
    r.rows.map((x: NewRow) => [x.table, x.partitionKey, x.rowKey]),
    [
      ["Readings", "00ab12cd34ef", "2516349777549939999_humidity"],
      ["Readings", "00ab12cd34ef", "humidity_2516349777549939999"],
      ["ReadingsByMetric", "humidity_20260102", "00ab12cd34ef_2516349777549939999"],
    ],
  );
  assert.deepEqual(r.rows[0].properties, e.properties);
});

test("an entity without DeviceId gets it back from its old RowKey, and keeps it as a property; one without At is refused by name", () => {
  const [m] = mapTables(old.tables, next.tables);
  const r = rekey(
    m,
    entity({ At: { type: "DateTime", value: "2026-01-02T03:04:05.006Z" }, Metric: { type: "String", value: "pressure" } }),
  );
  assert.ok("rows" in r);
  assert.equal(r.rows[0].partitionKey, "00ab12cd34ef");
  assert.deepEqual(r.rows[0].properties.DeviceId, { type: "String", value: "00ab12cd34ef" });
  const refused = rekey(m, entity({ DeviceId: { type: "String", value: "00ab12cd34ef" }, Metric: { type: "String", value: "pressure" } }));
  assert.deepEqual(refused, {
    problem: "2026010203 / 00ab12cd34ef_0405006: At is neither a property of the entity nor read back from its keys",
  });
});

test("property: a key read back renders again to the same text (pad, reverse of an integer, date with every field, a fixed-width string)", () => {
  const design = analyzeTdl(`table T {
  A: string(1..10) charset "a-z"
  N: int(0..99999)
  R: int(0..999)
  D: datetime
  F: string(4..4) charset "a-z"
  partitionKey = A
  rowKey = F + pad(N, 5) + "-" + A + "~" + reverse(R) + "." + date(D, "yyyyMMddHHmmssfff")
}
`);
  const t = design.tables[0];
  const expr = t.table.rowKey!.expr;
  assert.deepEqual(recoverable(expr, t.props), ["F", "N", "A", "R", "D"]);
  fc.assert(
    fc.property(
      fc.stringMatching(/^[a-z]{1,10}$/),
      fc.integer({ min: 0, max: 99999 }),
      fc.integer({ min: 0, max: 999 }),
      fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }),
      fc.stringMatching(/^[a-z]{4}$/),
      (A, N, R, ms, F) => {
        const values = new Map<string, string | number | Date>([
          ["A", A],
          ["N", N],
          ["R", R],
          ["D", new Date(ms)],
          ["F", F],
        ]);
        const key = renderKey(expr, { props: t.props, values });
        const back = readKey(expr, t.props, key);
        assert.ok(back, key);
        assert.deepEqual([back.get("A"), back.get("N"), back.get("R"), (back.get("D") as Date).getTime(), back.get("F")], [A, N, R, ms, F]);
      },
    ),
    { seed: 35, numRuns: 200 },
  );
});
