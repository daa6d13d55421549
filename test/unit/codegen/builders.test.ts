/**
 * The generated builders refuse what the design forbids and the parsers
 * refuse what no builder makes, with a KeyError that says why; hostile
 * input (a megabyte key, NUL, `\r`, lone surrogates) is refused fast. Also
 * the design-side refusals: a design with an error gets no module.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { analyzeTdl } from "@core";
import { generateKeyBuilders } from "@codegen";
import { removeDir, tempDir } from "./examples";

const DESIGN = `service azure-table

table Runs {
  Event:  string(1..40)
  Bib:    int(0..99999)
  Age:    int(0..120)
  Kind:   enum(Full, Half, Ten)
  Big:    int64(0..99999999999)
  At:     datetime
  Id:     guid

  partitionKey = Event + "__" + Kind
  rowKey       = "BIB:" + pad(Bib, 5) + "__" + reverse(At)
  index ByAge rowKey = "AGE:" + pad(Age, 3) + "_" + Id
  index ByBig rowKey = reverse(Big) + "_" + Event

  query ByBib where Event = ? and Kind = ? and Bib = ?
  query Recent where Event = ? and Kind = ? and At > ?
  transaction Enter entities 2 sharing Event, Kind
}
`;

type Fn = (...args: unknown[]) => unknown;
let dir = "";
let m: Record<string, Fn> & { KeyError: new (s: string) => Error };

before(async () => {
  dir = tempDir();
  const result = generateKeyBuilders(analyzeTdl(DESIGN));
  assert.deepEqual(result.problems, []);
  const file = path.join(dir, result.modules[0]!.fileName);
  writeFileSync(file, result.modules[0]!.text);
  m = (await import(pathToFileURL(file).href)) as typeof m;
});
after(() => removeDir(dir));

const AT = new Date("2026-01-02T03:04:05.678Z");
const ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
const entity = { Event: "Berlin", Bib: 42, Age: 30, Kind: "Full", Big: 5n, At: AT, Id: ID };

function refuses(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof m.KeyError && pattern.test((e as Error).message));
}

test("builders render the designed keys", () => {
  assert.equal(m.partitionKey!(entity), "Berlin__Full");
  assert.equal(m.rowKeyByAge!(entity), `AGE:030_${ID}`);
  // An uppercase GUID renders lowercase, as the language says.
  assert.equal(m.rowKeyByAge!({ ...entity, Id: ID.toUpperCase() }), `AGE:030_${ID}`);
  assert.equal(m.rowKeyByBig!(entity), "99999999994_Berlin");
  assert.match(m.rowKey!(entity) as string, /^BIB:00042__[0-9]{19}$/);
});

test("values outside the design's domain are refused, with the property named", () => {
  refuses(() => m.rowKey!({ ...entity, Bib: 100000 }), /Bib = 100000 is not an integer in 0\.\.99999/);
  refuses(() => m.rowKey!({ ...entity, Bib: 4.5 }), /Bib/);
  refuses(() => m.rowKey!({ ...entity, Bib: Number.NaN }), /Bib/);
  refuses(() => m.partitionKey!({ ...entity, Kind: "Marathon" }), /Kind = "Marathon" is not one of Full, Half, Ten/);
  refuses(() => m.partitionKey!({ ...entity, Event: "" }), /Event = "" has 0 characters; the design allows 1 to 40/);
  refuses(() => m.rowKeyByBig!({ ...entity, Big: -1n }), /Big/);
  refuses(() => m.rowKeyByBig!({ ...entity, Big: 5 }), /Big = 5 is not a bigint/);
  refuses(() => m.rowKey!({ ...entity, At: new Date(Number.NaN) }), /At = Invalid Date/);
  refuses(() => m.rowKeyByAge!({ ...entity, Id: "not-a-guid" }), /not a GUID/);
});

test("a separator inside the part before it, a forbidden character and an oversize key are refused", () => {
  refuses(() => m.partitionKey!({ ...entity, Event: "a__b" }), /holds the separator "__"/);
  refuses(() => m.partitionKey!({ ...entity, Event: "a/b" }), /U\+002F at 1 may not appear/);
  refuses(() => m.partitionKey!({ ...entity, Event: "a\u0000b" }), /U\+0000/);
  refuses(() => m.partitionKey!({ ...entity, Event: "a\rb" }), /U\+000D/);
  // Event is 40 characters at most: no PartitionKey of this design exceeds 512; a 1 MB value is refused by its length first, quickly.
  const t0 = process.hrtime.bigint();
  refuses(() => m.partitionKey!({ ...entity, Event: "x".repeat(1 << 20) }), /has 1048576 characters/);
  assert.ok(Number(process.hrtime.bigint() - t0) / 1e6 < 500);
});

test("parsers read back what builders wrote and refuse every other text", () => {
  assert.deepEqual(m.parsePartitionKey!("Berlin__Half"), { Event: "Berlin", Kind: "Half" });
  const rk = m.rowKey!(entity) as string;
  const back = m.parseRowKey!(rk) as { Bib: number; At: Date };
  assert.equal(back.Bib, 42);
  assert.equal(back.At.toISOString(), AT.toISOString());
  for (const bad of [
    "",
    "Berlin",
    "Berlin__",
    "Berlin__Marathon",
    "__Full",
    "Berlin_Full",
    "Berlin__Full ",
    `Berlin\u0000__Full`,
    "Berlin__Full\r",
  ]) {
    refuses(() => m.parsePartitionKey!(bad), /is not a PartitionKey of Runs/);
  }
  // Not canonical: "BIB:" + a Bib over 5 digits, or a reverse() count of the wrong width.
  refuses(() => m.parseRowKey!(rk.replace("00042", "0004x")), /RowKey of Runs/);
  refuses(() => m.parseRowKey!(rk + "0"), /RowKey of Runs/);
  refuses(() => m.parseRowKeyByAge!(`AGE:030_${ID.toUpperCase()}`), /RowKey of index ByAge/);
  refuses(() => m.parseRowKeyByBig!("99999999994_"), /RowKey of index ByBig/);
  refuses(() => m.parsePartitionKey!(42), /a key is a string/);
});

test("a megabyte of text is refused before it is read", () => {
  const t0 = process.hrtime.bigint();
  refuses(() => m.parsePartitionKey!("a".repeat(1 << 20) + "__Full"), /no such key has more than 512/);
  refuses(() => m.parseRowKey!("BIB:" + "9".repeat(1 << 20)), /no such key has more than 512/);
  assert.ok(Number(process.hrtime.bigint() - t0) / 1e6 < 500);
});

test("query helpers return the filter of the declared query, values escaped by the odata tag", () => {
  assert.equal(
    m.queryByBib!({ Event: "O'Hare", Kind: "Full", Bib: 7 }),
    "PartitionKey eq 'O''Hare__Full' and RowKey ge 'BIB:00007__' and RowKey lt 'BIB:00007_`'",
  );
  refuses(() => m.queryByBib!({ Event: "x", Kind: "Full", Bib: -1 }), /Bib/);
  // A newer time has a smaller reverse(): At > t is RowKey below the key of t.
  const recent = m.queryRecent!({ Event: "E", Kind: "Half", At: AT }) as string;
  assert.match(recent, /^PartitionKey eq 'E__Half' and /);
});

test("a transaction refuses entities the design does not put in one batch, before sending", async () => {
  const client = { submitTransaction: () => assert.fail("sent") };
  await assert.rejects(m.transactionEnter!(client, []) as Promise<void>, /takes 1 to 2 entities, not 0/);
  await assert.rejects(m.transactionEnter!(client, [entity, entity, entity]) as Promise<void>, /takes 1 to 2 entities/);
  await assert.rejects(m.transactionEnter!(client, [entity, { ...entity, Event: "Paris" }]) as Promise<void>, /must share Event/);
  await assert.rejects(m.transactionEnter!(client, [entity, { ...entity, Kind: "Half" }]) as Promise<void>, /must share Kind/);
  const sent: unknown[][] = [];
  await m.transactionEnter!({ submitTransaction: async (a: unknown[]) => void sent.push(a) }, [entity, { ...entity, Bib: 43 }]);
  // Two entities, each with its main row and two index rows, in one batch.
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.length, 6);
});

test("a design with an error gets no module, and the error is returned at its place", () => {
  const text = DESIGN.replace('rowKey       = "BIB:"', 'rowKey       = "BIB/"');
  const result = generateKeyBuilders(analyzeTdl(text));
  assert.equal(result.modules.length, 0);
  assert.ok(result.problems.length > 0);
  const p = result.problems[0]!;
  assert.equal(p.table, "Runs");
  assert.ok(text.slice(p.start, p.end).includes("/"), `points at ${JSON.stringify(text.slice(p.start, p.end))}`);
});

test("a property named like a system property is refused by the generator", () => {
  const result = generateKeyBuilders(analyzeTdl(DESIGN.replace("Age:    int", "etag:   int").replace(/pad\(Age, 3\)/g, "pad(etag, 3)")));
  assert.deepEqual(result.modules, []);
  assert.equal(result.problems[0]?.code, "codegen");
  assert.match(result.problems[0]!.message, /system property/);
});

test("readEntity reads a row back as the SDK returns it, and rowFamily tells the main row from the index rows", () => {
  const rows = m.entityRows!(entity) as Array<Record<string, unknown>>;
  assert.deepEqual(
    rows.map((r) => m.rowFamily!(r)),
    ["rowKey", "ByAge", "ByBig"],
  );
  // @azure/data-tables returns a Guid as { value, type }; the rest converted (Int64 as bigint, DateTime as Date).
  const returned = { ...rows[1], Id: { value: ID, type: "Guid" } };
  assert.deepEqual(m.readEntity!(returned), entity);
  assert.equal(m.rowFamily!({ ...rows[0], rowKey: "BIB:00043__" + "0".repeat(19) }), undefined);
  refuses(() => m.readEntity!({ ...rows[0], Big: "12x" }), /the row's Big is "12x", not an Int64/);
  refuses(() => m.readEntity!({ ...rows[0], Kind: "Marathon" }), /Kind = "Marathon" is not one of/);
  assert.equal(m.rowFamily!({ ...rows[0], At: "not a date" }), undefined);
});

test("a key over the profile's size is refused, counted as the profile counts it (UTF-8 bytes on Cosmos DB)", async () => {
  const result = generateKeyBuilders(
    analyzeTdl('service cosmos-table\n\ntable Notes {\n  Owner: string\n  partitionKey = Owner\n  rowKey = "n"\n}\n'),
  );
  const file = path.join(dir, "cosmos-" + result.modules[0]!.fileName);
  writeFileSync(file, result.modules[0]!.text);
  const notes = (await import(pathToFileURL(file).href)) as Record<string, Fn> & { KeyError: new (s: string) => Error };
  const refused = (owner: string) =>
    assert.throws(
      () => notes.partitionKey!({ Owner: owner }),
      (e: unknown) => e instanceof notes.KeyError && /takes \d+ bytes; Azure Cosmos DB for Table allows 1024/.test((e as Error).message),
    );
  assert.equal(notes.partitionKey!({ Owner: "é".repeat(512) }), "é".repeat(512)); // 1,024 bytes
  refused("é".repeat(512) + "a");
  refused("\u{1F600}".repeat(256) + "a"); // 4 bytes a pair
  refused("\ud800".repeat(342)); // a lone surrogate goes out as U+FFFD: 3 bytes
  assert.equal((notes.partitionKey!({ Owner: "a".repeat(1024) }) as string).length, 1024);
});
