/**
 * Every Edm type with its edge values through what the explorer does with an
 * entity — insert, edit one property, export, import into a new table — on a
 * real Azurite: what comes back is what went in, types and digits included
 * (seven fractional digits of a DateTime, an Int64 past 2^53, NaN and the
 * infinities, a whole-number Double, empty strings and binaries). And an
 * import writes whole batches or none of a batch, and says which.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { AccountSession } from "@runtime/account/session";
import { planImport, serialize } from "@runtime/transfer/plan";
import { REFUSE_ALL } from "@protocol/transfer";
import type { EntityRow, TypedValue } from "@protocol/entities";
import { session, startAzurite, tableName } from "../helpers/azurite";

let emu: EmbeddedEmulator;
let s: AccountSession;
before(async () => {
  emu = await startAzurite();
  s = session(emu);
});
after(() => emu?.stop());

const EDGES: Record<string, TypedValue> = {
  Empty: { type: "String", value: "" },
  Text: { type: "String", value: 'naïve — 文字 \u{1F600} "quoted", a,b\r\nnext line' },
  Int32Min: { type: "Int32", value: "-2147483648" },
  Int32Max: { type: "Int32", value: "2147483647" },
  Int64Big: { type: "Int64", value: "9007199254740993" },
  Int64Min: { type: "Int64", value: "-9223372036854775808" },
  Whole: { type: "Double", value: "5" },
  Fraction: { type: "Double", value: "0.1" },
  Large: { type: "Double", value: "1e+300" },
  NotANumber: { type: "Double", value: "NaN" },
  PlusInfinity: { type: "Double", value: "Infinity" },
  MinusInfinity: { type: "Double", value: "-Infinity" },
  Yes: { type: "Boolean", value: "true" },
  No: { type: "Boolean", value: "false" },
  Ticks: { type: "DateTime", value: "2024-03-01T10:00:00.1234567Z" },
  Earliest: { type: "DateTime", value: "1601-01-01T00:00:00Z" },
  Id: { type: "Guid", value: "6f9619ff-8b86-d011-b42d-00c04fc964ff" },
  NoBytes: { type: "Binary", value: "" },
  Bytes: { type: "Binary", value: "AAEC/w==" },
};

const row = (pk: string, rk: string, properties = EDGES): EntityRow => ({ partitionKey: pk, rowKey: rk, properties });
const plain = (r: EntityRow) => ({ partitionKey: r.partitionKey, rowKey: r.rowKey, properties: r.properties });
const all = async (t: string) => (await s.query(t, "", { limit: 1000 })).entities.map(plain);

test("insert: every type's edge values are stored and read back as they were sent", async () => {
  const t = tableName();
  await s.createTable(t);
  const back = await s.insertEntity(t, row("p", "1"));
  assert.deepEqual(back.properties, EDGES);
});

test("edit: changing one property keeps every other value exactly, the 7-digit DateTime included", async () => {
  const t = tableName();
  await s.createTable(t);
  const read = await s.insertEntity(t, row("p", "1"));
  const edited = { ...read, properties: { ...read.properties, Text: { type: "String", value: "changed" } as TypedValue } };
  const back = await s.updateEntity(t, edited, read.etag!);
  assert.deepEqual(back.properties, { ...EDGES, Text: { type: "String", value: "changed" } });
});

test("export then import into a new table gives back the same entities, types included (JSON and CSV)", async () => {
  const source = tableName();
  await s.createTable(source);
  await s.upsertRows(source, [row("p", "1"), row("p", "2"), row("q", "3", { Only: { type: "Int64", value: "-5" } })]);
  const exported = await all(source);
  for (const format of ["json", "csv"] as const) {
    const plan = planImport(serialize(exported, format), format, REFUSE_ALL);
    assert.deepEqual(plan.summary.problems, [], format);
    const target = tableName();
    await s.createTable(target);
    const report = await s.writeBatches(target, plan.batches);
    assert.deepEqual(report, { written: 3, batchesWritten: 2, failed: [], notAttempted: 0 }, format);
    assert.deepEqual(await all(target), exported, `${format} import`);
  }
});

test("a batch the service refuses is written not at all, the others whole, and the report says which", async () => {
  const t = tableName();
  await s.createTable(t);
  const good = Array.from({ length: 3 }, (_, i) => row("good", String(i), { N: { type: "Int32", value: String(i) } }));
  const doomed = [
    row("doomed", "1", { N: { type: "Int32", value: "1" } }),
    row("doomed", "2", { Big: { type: "String", value: "x".repeat(70_000) } }),
  ];
  const plan = planImport(serialize([...good, ...doomed], "json"), "json", REFUSE_ALL);
  const report = await s.writeBatches(t, plan.batches);
  assert.equal(report.written, 3);
  assert.equal(report.batchesWritten, 1);
  assert.deepEqual(
    report.failed.map((f) => [f.partitionKey, f.entities]),
    [["doomed", 2]],
  );
  assert.match(report.failed[0].reason, /PropertyValueTooLarge/);
  assert.deepEqual(
    (await all(t)).map((r) => `${r.partitionKey}/${r.rowKey}`),
    ["good/0", "good/1", "good/2"],
    "nothing of the refused batch, not even its valid entity",
  );
});
