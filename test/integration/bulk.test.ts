/**
 * Bulk export and import on a real Azurite: a table read in parallel ranges
 * into JSON lines with a manifest, written into a new table, and the
 * checksums equal; a job cancelled in the middle and run again loses nothing
 * and writes nothing twice; a range file changed after the export is
 * refused by name before anything is written.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { AccountSession } from "@runtime/account/session";
import { exportTable } from "@runtime/bulk/export";
import { importTable } from "@runtime/bulk/import";
import { verifyTable } from "@runtime/bulk/verify";
import { planDelete, runDelete } from "@runtime/bulk/delete";
import { copyTable } from "@runtime/bulk/copy";
import type { EntityRow } from "@protocol/entities";
import { session, startAzurite, tableName } from "../helpers/azurite";

let emu: EmbeddedEmulator;
let s: AccountSession;
const dirs: string[] = [];
before(async () => {
  emu = await startAzurite();
  s = session(emu);
});
after(async () => {
  await emu?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const folder = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "tdl-bulk-"));
  dirs.push(d);
  return d;
};

/** `n` entities over `partitions` partitions, with a few types. */
function rows(n: number, partitions: number): EntityRow[] {
  return Array.from({ length: n }, (_, i) => ({
    partitionKey: `p${String(i % partitions).padStart(4, "0")}`,
    rowKey: String(i).padStart(8, "0"),
    properties: {
      N: { type: "Int32", value: String(i) },
      Big: { type: "Int64", value: String(9007199254740993n + BigInt(i)) },
      At: { type: "DateTime", value: `2024-03-01T10:00:00.${String(i % 10_000_000).padStart(7, "0")}Z` },
      Name: { type: "String", value: `name ${i}` },
    },
  }));
}

async function seeded(n: number, partitions: number): Promise<string> {
  const t = tableName();
  await s.createTable(t);
  await s.upsertRows(t, rows(n, partitions));
  return t;
}

test("export in parallel ranges, import into a new table: same count and checksum, range by range", async () => {
  const source = await seeded(3000, 100);
  const dir = folder();
  const exported = await exportTable({ session: s, table: source, dir, concurrency: 3, ranges: 8 });
  assert.equal(exported.cancelled, false);
  assert.equal(exported.manifest.count, 3000);
  assert.ok(exported.manifest.ranges.length > 1, "read in more than one range");
  const lines = readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .reduce((n, f) => n + readFileSync(path.join(dir, f), "utf8").split("\n").filter(Boolean).length, 0);
  assert.equal(lines, 3000);
  // Ranges split while reading (a reader with nothing left takes half of another's rest): still no partition in two files.
  const fileOf = new Map<string, string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".jsonl")))
    for (const line of readFileSync(path.join(dir, f), "utf8").split("\n").filter(Boolean)) {
      const pk = (JSON.parse(line) as { PartitionKey: string }).PartitionKey;
      assert.equal(fileOf.get(pk) ?? f, f, `partition ${pk} in ${fileOf.get(pk)} and ${f}`);
      fileOf.set(pk, f);
    }
  assert.equal(fileOf.size, 100);
  const target = tableName();
  const imported = await importTable({ session: s, table: target, dir });
  assert.deepEqual([imported.written, imported.skipped, imported.cancelled], [3000, [], false]);
  const check = await verifyTable({ session: s, table: target, dir });
  assert.deepEqual(check.differ, []);
  assert.equal(check.checksum, exported.manifest.checksum);
  // A rerun of a finished import changes nothing.
  const again = await importTable({ session: s, table: target, dir });
  assert.equal(again.written, 3000);
  assert.equal((await verifyTable({ session: s, table: target, dir })).checksum, exported.manifest.checksum);
});

test("cancelled in the middle and run again, export and import lose nothing and write nothing twice", async () => {
  const source = await seeded(2500, 40);
  const dir = folder();
  // Cancel after the first checkpoint, resume; three times for each job.
  let result;
  for (let round = 0; ; round++) {
    const stop = new AbortController();
    result = await exportTable({
      session: s,
      table: source,
      dir,
      concurrency: 2,
      ranges: 6,
      signal: stop.signal,
      onProgress: () => round < 3 && stop.abort(),
    });
    if (!result.cancelled) break;
    assert.ok(round < 10, "the export ends");
  }
  assert.equal(result.manifest.count, 2500);
  const target = tableName();
  for (let round = 0; ; round++) {
    const stop = new AbortController();
    const r = await importTable({ session: s, table: target, dir, signal: stop.signal, onProgress: () => round < 3 && stop.abort() });
    if (!r.cancelled) break;
    assert.ok(round < 10, "the import ends");
  }
  const check = await verifyTable({ session: s, table: target, dir });
  assert.deepEqual(check.differ, []);
  assert.equal(check.count, 2500);
});

test("lines added to a range file after the export are refused before anything is written, naming the file", async () => {
  const source = await seeded(30, 3);
  const dir = folder();
  const { manifest } = await exportTable({ session: s, table: source, dir, ranges: 1 });
  const file = manifest.ranges[0].file;
  appendFileSync(
    path.join(dir, file),
    '{"PartitionKey":"p9","RowKey":"x","N":"not a number","N@odata.type":"Edm.Int32"}\n{"PartitionKey":\n',
  );
  const target = tableName();
  await assert.rejects(importTable({ session: s, table: target, dir }), (e: Error) =>
    e.message.startsWith(`${path.join(dir, file)} is longer than the manifest says`),
  );
  assert.ok(!(await s.listTables()).includes(target), "nothing was written, not even the table");
});

test("delete by partition: a dry run counts, the batches delete only what the dry run saw, a changed entity is kept and named", async () => {
  const t = await seeded(450, 3);
  const plan = await planDelete(s, { table: t, partition: "p0001" });
  assert.deepEqual([plan.entities.length, plan.partitions], [150, 1]);
  // Changed after the dry run: its ETag no longer matches.
  const changed = await s.getEntity(t, "p0001", "00000004");
  await s.updateEntity(t, { ...changed, properties: { ...changed.properties, Name: { type: "String", value: "changed" } } }, changed.etag!);
  const log = path.join(folder(), "deleted.jsonl");
  const report = await runDelete(s, plan, log);
  assert.deepEqual([report.deleted, report.changed.map((e) => e.rowKey), report.gone, report.notAttempted], [149, ["00000004"], 0, 0]);
  const logged = readFileSync(log, "utf8").trim().split("\n");
  assert.equal(logged.length, 149);
  assert.deepEqual(JSON.parse(logged[0]), { PartitionKey: "p0001", RowKey: "00000001" });
  assert.deepEqual(
    (await s.query(t, "PartitionKey eq 'p0001'")).entities.map((e) => e.rowKey),
    ["00000004"],
  );
  assert.equal((await s.query(t, "PartitionKey ne 'p0001'", { limit: 1000 })).entities.length, 300, "the other partitions are untouched");
});

test("a copy to a Cosmos DB for Table profile lists every entity whose RowKey is over 255 bytes before writing anything", async () => {
  const source = tableName();
  await s.createTable(source);
  const long = "r".repeat(200) + "é".repeat(40); // 240 characters, 280 bytes in UTF-8
  await s.upsertRows(source, [...rows(20, 2), { partitionKey: "p0000", rowKey: long, properties: {} }]);
  const target = tableName();
  const dir = folder();
  const r = await copyTable({ source: s, sourceTable: source, target: s, targetTable: target, targetService: "cosmos-table", dir });
  assert.equal(r.preflight.count, 1);
  assert.match(r.preflight.failing[0].message, /the RowKey is 280 bytes; Azure Cosmos DB for Table allows 255/);
  assert.equal(r.imported, undefined, "nothing written");
  assert.ok(!(await s.listTables()).includes(target), "not even the table");
  const skipped = await copyTable({
    source: s,
    sourceTable: source,
    target: s,
    targetTable: target,
    targetService: "cosmos-table",
    dir,
    skipInvalid: true,
  });
  assert.equal(skipped.imported?.written, 20);
  assert.equal(skipped.imported?.skipped.length, 1);
});
