/**
 * Choices instead of silence, on the emulator with fidelity on at --scale
 * 0.1: an import into a table that holds some of the export's keys counts
 * them in a dry run, refuses by default and otherwise skips, replaces or
 * merges as asked; an entity the service refuses is named by file and line
 * and stops the import, or is skipped with --on-error skip while the rest of
 * its range is written.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { AccountSession } from "@runtime/account/session";
import { exportTable } from "@runtime/bulk/export";
import { importTable } from "@runtime/bulk/import";
import type { EntityRow } from "@protocol/entities";

let emu: FidelityEmulator;
let s: AccountSession;
let upstream: AccountSession;
let dir: string;
const dirs: string[] = [];

const row = (p: number, r: number, extra: Record<string, string> = {}): EntityRow => ({
  partitionKey: `p${p}`,
  rowKey: `r${String(r).padStart(2, "0")}`,
  properties: {
    n: { type: "Int32", value: String(r) },
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { type: "String" as const, value: v }])),
  },
});

before(async () => {
  emu = await FidelityEmulator.start({ scale: 0.1 });
  const at = (endpoint: string, connectionString: string) =>
    new AccountSession({ id: "e", name: "E", kind: "emulator", endpoint }, { connectionString }, { sdkRetries: 0 });
  s = at(emu.endpoint, emu.connectionString);
  upstream = at(emu.azurite.endpoint, emu.azurite.connectionString);
  await s.createTable("Source");
  await s.upsertRows(
    "Source",
    [0, 1, 2].flatMap((p) => Array.from({ length: 20 }, (_, r) => row(p, r))),
  );
  dir = folder();
  const e = await exportTable({ session: s, table: "Source", dir, rate: Infinity });
  assert.equal(e.manifest.count, 60);
});
after(async () => {
  await emu?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), "tdl-bulk-choices-"));
  dirs.push(d);
  return d;
}

/** A table holding 10 of the export's keys, each with a value and a property of its own. */
async function occupied(name: string): Promise<void> {
  await s.createTable(name);
  await s.upsertRows(
    name,
    Array.from({ length: 10 }, (_, r) => ({
      ...row(1, r, { own: "theirs" }),
      properties: { n: { type: "Int32", value: "-1" }, own: { type: "String", value: "theirs" } },
    })),
  );
}

const props = async (table: string, rk: string) => (await s.getEntity(table, "p1", rk)).properties;

test("an occupied table: the dry run counts the keys there and writes nothing; the default refuses before the first write", async () => {
  await occupied("Dry");
  const dry = await importTable({ session: s, table: "Dry", dir, dryRun: true, rate: Infinity });
  assert.deepEqual([dry.existing, dry.written], [10, 0]);
  await assert.rejects(importTable({ session: s, table: "Dry", dir, rate: Infinity }), (e: Error) =>
    e.message.startsWith("10 of the export's 60 keys already exist in Dry: nothing is written (--if-exists skip keeps them"),
  );
  assert.equal((await s.query("Dry", "PartitionKey ge 'p'")).entities.length, 10, "nothing was written");
});

test("--if-exists skip keeps the entities there, replace writes the export's whole, merge merges into them", async () => {
  for (const [mode, expectN, expectOwn] of [
    ["skip", "-1", "theirs"],
    ["replace", "3", undefined],
    ["merge", "3", "theirs"],
  ] as const) {
    const table = `If${mode}`;
    await occupied(table);
    const r = await importTable({ session: s, table, dir, ifExists: mode, rate: Infinity });
    assert.equal(r.existing, mode === "replace" ? undefined : 10);
    assert.equal((await s.query(table, "PartitionKey ge 'p'")).entities.length, 60, mode);
    const p = await props(table, "r03");
    assert.deepEqual([p.n?.value, p.own?.value], [expectN, expectOwn], mode);
  }
});

test("an entity the service refuses is named by file and line: the import stops, or with --on-error skip writes the rest of its range", async () => {
  // Azurite takes a property name of 300 characters; Azure (and the fidelity layer) refuse it: PropertyNameTooLong.
  await upstream.createTable("Odd");
  await upstream.upsertRows("Odd", [row(0, 1), row(0, 2, { ["x".repeat(300)]: "long name" }), row(0, 3)]);
  const odd = folder();
  await exportTable({ session: s, table: "Odd", dir: odd, rate: Infinity, ranges: 1 });
  await assert.rejects(importTable({ session: s, table: "OddStop", dir: odd, rate: Infinity }), (e: Error) =>
    new RegExp(
      `^${path.join(odd, "range-0000.jsonl").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:2: the service refused p0 / r02: .*--on-error skip writes the others`,
    ).test(e.message),
  );
  const r = await importTable({ session: s, table: "OddSkip", dir: odd, rate: Infinity, onError: "skip" });
  assert.equal(r.written, 2);
  assert.deepEqual(
    r.skipped.map((x) => [x.file, x.line]),
    [["range-0000.jsonl", 2]],
  );
  assert.deepEqual(
    (await s.query("OddSkip", "PartitionKey eq 'p0'")).entities.map((e) => e.rowKey),
    ["r01", "r03"],
  );
});
