/**
 * The generated modules against a real Azurite: entities written with
 * `writeEntity` (main and index rows in one transaction), then every
 * declared query's helper run with random parameters — its filter must
 * return exactly the entities the query's conditions select, each once
 * from the row family the classifier chose (after `rowFamily()` where the
 * helper's documentation says it is needed), and nothing else.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { TableClient } from "@azure/data-tables";
import { analyzeTdl, PropertyInfo, TableModel, tableFacts } from "@core";
import { generateKeyBuilders } from "@codegen";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { startAzurite, tableName } from "../helpers/azurite";
import { FUZZ_SEED } from "../helpers/fuzz";
import { removeDir, ROOT, tempDir } from "../unit/codegen/examples";
import { same, Value, valueArb } from "../unit/codegen/values";

/** Ranges and prefixes over fixed and variable-width parts (last or not), strict and inclusive ends, index rows without a literal prefix, int64. */
const SHAPES = `service azure-table

table Shapes {
  Shop:  string(1..2) charset "a-b"
  Day:   datetime
  No:    int(0..999)
  Code:  string(1..3) charset "A-C"
  Grade: enum(A, B, C)
  Big:   int64(-500..500)

  partitionKey = Shop
  rowKey       = date(Day, "yyyyMMdd") + "-" + pad(No, 3) + "-" + Code
  index ByCode rowKey = Code + "|" + Grade + "|" + pad(No, 3)
  index ByBig rowKey = "B" + reverse(Big) + "." + Code

  query ByDay where Shop = ? and Day between ?
  query After where Shop = ? and No > ?
  query CodePrefix where Shop = ? and Code prefix ?
  query CodeFrom where Shop = ? and Code >= ?
  query Graded where Shop = ? and Grade = "B" and Code = ?
  query Below where Shop = ? and Code < ?
  query BigBelow where Shop = ? and Big <= ?
  query BigAbove where Shop = ? and Big > 7
  query Anywhere where No <= ?
}

table Counters {
  Shop: string(1..2) charset "a-b"
  Tag:  string(1..3) charset "x-z"
  No:   int(0..999)

  partitionKey = Shop
  rowKey       = Tag + "," + pad(No, 3)

  query NoBelow where Shop = ? and Tag = ? and No < ?
  query NoAbove where Shop = ? and Tag = ? and No > ?
  query NoUpTo where Shop = ? and Tag = ? and No <= ?
  query TagBelow where Shop = ? and Tag < ?
  query TagAbove where Shop = ? and Tag > ?
  query TagFrom where Shop = ? and Tag >= ?
}
`;

const DESIGNS: Array<[string, string]> = [
  ["marathon", readFileSync(path.join(ROOT, "examples", "marathon.tdl"), "utf8")],
  ["telemetry", readFileSync(path.join(ROOT, "examples", "telemetry.tdl"), "utf8")],
  ["ledger", readFileSync(path.join(ROOT, "examples", "ledger.tdl"), "utf8")],
  ["shapes", SHAPES],
];

const ENTITIES = 150;
const TRIALS = 25;

type Mod = Record<string, (...a: unknown[]) => unknown>;
type Entity = Record<string, Value>;
type Query = Extract<TableModel["table"]["accesses"][number], { kind: "query" }>;

let emu: EmbeddedEmulator;
let dir = "";
before(async () => {
  emu = await startAzurite();
  dir = tempDir();
});
after(async () => {
  await emu?.stop();
  removeDir(dir);
});

/** Values that repeat (so equalities find several entities) over a few days, in printable ASCII. */
function propArb(info: PropertyInfo): fc.Arbitrary<Value> {
  let arb: fc.Arbitrary<Value>;
  if (info.type === "datetime")
    arb = fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2026-01-04T00:00:00Z"), noInvalidDate: true });
  else if (info.type === "string" && !info.decl.modifiers.some((m) => m.kind === "charset")) {
    arb = fc.string({
      unit: fc.constantFrom(..."abcXYZ019 -_"),
      minLength: Math.max(1, info.decl.type.min?.value ?? 0),
      maxLength: Math.min(info.maxChars, 8),
    });
  } else arb = valueArb(info);
  const pool = fc.sample(arb, { seed: FUZZ_SEED, numRuns: 4 });
  return fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 3 }, { arbitrary: arb, weight: 1 });
}

/** A literal of the design in the property's type. */
function literal(info: PropertyInfo, text: string): Value {
  if (info.type === "int" || info.type === "double") return Number(text);
  if (info.type === "int64") return BigInt(text);
  if (info.type === "datetime") return new Date(text);
  return text;
}

function compare(a: Value, b: Value): number {
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether an entity meets a condition, evaluated here on its values. */
function meets(e: Entity, cond: NonNullable<Query["where"]>[number], p: Record<string, unknown>, info: PropertyInfo): boolean {
  const v = e[cond.property.text]!;
  const param = p[cond.property.text];
  const x = cond.value.kind === "param" ? (param as Value) : literal(info, cond.value.text);
  switch (cond.op) {
    case "=":
      return same(v, x);
    case "<":
      return compare(v, x) < 0;
    case "<=":
      return compare(v, x) <= 0;
    case ">":
      return compare(v, x) > 0;
    case ">=":
      return compare(v, x) >= 0;
    case "prefix":
      return String(v).startsWith(String(x));
    case "between": {
      const r = param as { from: Value; to: Value };
      return compare(v, r.from) >= 0 && compare(v, r.to) <= 0;
    }
  }
  return false;
}

/** Parameters for a query: equalities from a stored entity, ends from stored entities or fresh values (boundaries included). */
function paramsArb(q: Query, entities: Entity[], props: ReadonlyMap<string, PropertyInfo>): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(fc.constantFrom(...entities), fc.constantFrom(...entities), fc.nat(8)).chain(([base, other, cut]) => {
    const rec: Record<string, fc.Arbitrary<unknown>> = {};
    for (const cond of q.where ?? []) {
      const name = cond.property.text;
      const info = props.get(name)!;
      if (cond.op === "between") {
        rec[name] = fc
          .tuple(fc.constantFrom(base[name]!, other[name]!), fc.constantFrom(base[name]!, other[name]!, ...fc.sample(propArb(info), 1)))
          .map(([a, b]) => (compare(a, b) <= 0 ? { from: a, to: b } : { from: b, to: a }));
      } else if (cond.value.kind !== "param") continue;
      else if (cond.op === "prefix") rec[name] = fc.constant(String(base[name]).slice(0, cut));
      else if (cond.op === "=") rec[name] = fc.constant(base[name]);
      else rec[name] = fc.oneof(fc.constant(base[name]), fc.constant(other[name]), propArb(info));
    }
    return fc.record(rec);
  });
}

async function listAll(client: TableClient, filter: string): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for await (const row of client.listEntities({ queryOptions: { filter } })) out.push(row as Record<string, unknown>);
  return out;
}

for (const [name, text] of DESIGNS) {
  test(`queries of ${name}: the helpers' filters select exactly the entities the design's queries ask for`, async (t) => {
    const analysis = analyzeTdl(text);
    const result = generateKeyBuilders(analysis, { source: `${name}.tdl` });
    for (const m of result.modules) {
      const tm = analysis.tables.find((x) => x.table.name.text === m.table)!;
      const queries = tm.table.accesses.filter((a): a is Query => a.kind === "query" && !!a.where);
      if (!queries.length) continue;
      const file = path.join(dir, `${name}-${m.fileName}`);
      writeFileSync(file, m.text);
      const mod = (await import(pathToFileURL(file).href)) as Mod;
      const client = TableClient.fromConnectionString(emu.connectionString, tableName("cg"), { allowInsecureConnection: true });
      await client.createTable();

      // Entities whose keys build, one per row key: a second entity on a key would leave the first one's index rows behind.
      const rec: Record<string, fc.Arbitrary<Value>> = {};
      for (const info of tm.props.values()) rec[info.name] = propArb(info);
      const seen = new Set<string>();
      const entities: Entity[] = [];
      for (const e of fc.sample(fc.record(rec), { seed: FUZZ_SEED, numRuns: ENTITIES })) {
        let rows: Array<{ partitionKey: string; rowKey: string }>;
        try {
          rows = mod.entityRows!(e) as typeof rows;
        } catch {
          continue;
        }
        const keys = rows.map((r) => `${r.partitionKey}\n${r.rowKey}`);
        if (keys.some((k) => seen.has(k))) continue;
        for (const k of keys) seen.add(k);
        entities.push(e);
      }
      assert.ok(entities.length >= ENTITIES / 3, `${m.table}: ${entities.length} entities`);
      for (let i = 0; i < entities.length; i += 10)
        await Promise.all(entities.slice(i, i + 10).map((e) => mod.writeEntity!(client, e, "create")));

      const identity = (e: Entity) => `${mod.partitionKey!(e) as string}\n${mod.rowKey!(e) as string}`;
      const facts = tableFacts(tm.table, tm.props);
      for (const q of queries) {
        const family = facts.queries.find((f) => f.query === q)?.classification?.via ?? "rowKey";
        const doc = m.text.slice(0, m.text.indexOf(`export function query${q.name.text}(`));
        const needsFamily = doc.slice(doc.lastIndexOf("/**")).includes("rowFamily(row)");
        let found = 0;
        for (const p of fc.sample(paramsArb(q, entities, tm.props), { seed: FUZZ_SEED, numRuns: TRIALS })) {
          const filter = mod[`query${q.name.text}`]!(p) as string;
          const rows = await listAll(client, filter);
          const kept = needsFamily ? rows.filter((r) => mod.rowFamily!(r) === family) : rows;
          if (!needsFamily)
            assert.deepEqual(
              rows.map((r) => mod.rowFamily!(r)).filter((f) => f !== family),
              [],
              `${q.name.text}: rows of another family`,
            );
          const got = kept.map((r) => identity(mod.readEntity!(r) as Entity)).sort();
          const expected = entities
            .filter((e) => (q.where ?? []).every((c) => meets(e, c, p, tm.props.get(c.property.text)!)))
            .map(identity)
            .sort();
          assert.deepEqual(got, expected, `${m.table}.${q.name.text} ${filter}`);
          found += expected.length;
        }
        t.diagnostic(`${m.table}.${q.name.text}: ${found} entities found over ${TRIALS} runs${needsFamily ? " (with rowFamily)" : ""}`);
        assert.ok(found > 0, `${m.table}.${q.name.text}: no run found anything, so nothing was checked`);
      }
      await client.deleteTable();
    }
  });
}
