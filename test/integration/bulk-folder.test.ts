/**
 * A job folder that proves itself, on the emulator with fidelity on at
 * --scale 0.1: an import of a folder whose range file was cut, removed or
 * dropped from the manifest refuses before writing and names the file; a
 * resume over a cut file or against another source is refused; a folder
 * another living job holds is refused with its PID, and a killed job's
 * lock is taken over.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { AccountSession } from "@runtime/account/session";
import { exportTable } from "@runtime/bulk/export";
import { importTable } from "@runtime/bulk/import";
import { DamagedFolderError } from "@runtime/bulk/folder";
import { sealed, type Manifest } from "@runtime/bulk/manifest";
import type { EntityRow } from "@protocol/entities";

let emu: FidelityEmulator;
let s: AccountSession;
const dirs: string[] = [];
before(async () => {
  emu = await FidelityEmulator.start({ scale: 0.1 });
  s = sessionAt(emu.endpoint, emu.connectionString);
  await s.createTable("Source");
  const rows: EntityRow[] = [];
  for (let p = 0; p < 12; p++)
    for (let r = 0; r < 50; r++)
      rows.push({
        partitionKey: `p${String(p).padStart(2, "0")}`,
        rowKey: `r${r}`,
        properties: { n: { type: "Int32", value: String(r) } },
      });
  // Through the upstream Azurite: the seed is not what this file tests.
  await sessionAt(emu.azurite.endpoint, emu.azurite.connectionString).upsertRows("Source", rows);
});
after(async () => {
  await emu?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function sessionAt(endpoint: string, connectionString: string): AccountSession {
  return new AccountSession({ id: "e", name: "E", kind: "emulator", endpoint }, { connectionString }, { sdkRetries: 0 });
}

const folder = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "tdl-bulk-folder-"));
  dirs.push(d);
  return d;
};

async function exported(): Promise<{ dir: string; manifest: Manifest }> {
  const dir = folder();
  const r = await exportTable({ session: s, table: "Source", dir, rate: Infinity, ranges: 4, concurrency: 2 });
  assert.equal(r.manifest.count, 600);
  return { dir, manifest: r.manifest };
}

async function refusal(p: Promise<unknown>): Promise<DamagedFolderError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.ok(e instanceof DamagedFolderError, `refused as a damaged folder: ${String(e)}`);
  return e;
}

test("an import of a folder with a cut range file refuses, names the file, and writes nothing", async () => {
  const { dir, manifest } = await exported();
  const victim = manifest.ranges.find((r) => r.count > 0)!;
  truncateSync(path.join(dir, victim.file), Math.floor(victim.bytes / 2));
  const e = await refusal(importTable({ session: s, table: "CutTarget", dir, rate: Infinity }));
  assert.equal(e.file, path.join(dir, victim.file));
  assert.match(e.message, /is shorter than the manifest says/);
  assert.ok(!(await s.listTables()).includes("CutTarget"), "nothing written, not even the table");
});

test("a range file whose lines were changed, a missing one and a range dropped from the manifest are each refused by name", async () => {
  const { dir, manifest } = await exported();
  const [a, b] = manifest.ranges.filter((r) => r.count > 0);
  const text = readFileSync(path.join(dir, a.file), "utf8");
  writeFileSync(path.join(dir, a.file), text.replace('"r1"', '"r9"'));
  let e = await refusal(importTable({ session: s, table: "T2", dir, rate: Infinity }));
  assert.equal(e.file, path.join(dir, a.file));
  assert.ok(
    e.message.includes(`holds ${a.count} entities (checksum `) && e.message.includes(`manifest.json says ${a.count} (${a.checksum})`),
    e.message,
  );
  writeFileSync(path.join(dir, a.file), text);
  unlinkSync(path.join(dir, b.file));
  e = await refusal(importTable({ session: s, table: "T2", dir, rate: Infinity }));
  assert.equal(e.file, path.join(dir, b.file));
  assert.match(e.message, /is missing/);

  const other = await exported();
  const m = JSON.parse(readFileSync(path.join(other.dir, "manifest.json"), "utf8")) as Manifest;
  m.ranges.splice(1, 1);
  // Sealed again, as a careful hand would: the ranges left no longer cover the keys.
  writeFileSync(path.join(other.dir, "manifest.json"), sealed(m));
  e = await refusal(importTable({ session: s, table: "T3", dir: other.dir, rate: Infinity }));
  assert.equal(e.file, path.join(other.dir, "manifest.json"));
  assert.match(e.message, /a range is missing from it/);
  // Not sealed again: any change to the manifest is refused by name.
  writeFileSync(path.join(other.dir, "manifest.json"), JSON.stringify({ ...m, seal: "0" }));
  await assert.rejects(importTable({ session: s, table: "T3", dir: other.dir, rate: Infinity }), (x: Error) =>
    x.message.startsWith(`${path.join(other.dir, "manifest.json")} does not match its seal`),
  );
});

test("a resume over a cut file, or against another account, is refused; a finished export is checked before it is handed on", async () => {
  const { dir, manifest } = await exported();
  // Unfinished again, as a crash would leave it (sealed as the job seals it).
  const m = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest;
  delete m.finished;
  writeFileSync(path.join(dir, "manifest.json"), sealed({ ...m, seal: undefined }));
  await assert.rejects(
    exportTable({ session: sessionAt(emu.azurite.endpoint, emu.azurite.connectionString), table: "Source", dir, rate: Infinity }),
    (e: Error) =>
      /names the source 127\.0\.0\.1:\d+, not 127\.0\.0\.1:\d+: an export is resumed from the account it started on/.test(e.message),
  );
  const victim = manifest.ranges.find((r) => r.count > 0)!;
  truncateSync(path.join(dir, victim.file), 10);
  const e = await refusal(exportTable({ session: s, table: "Source", dir, rate: Infinity }));
  assert.equal(e.file, path.join(dir, victim.file));
});

test("a folder another living job holds is refused with its PID; a killed job's lock is stale and taken over", async () => {
  const dir = folder();
  writeFileSync(
    path.join(dir, ".tdl-lock"),
    JSON.stringify({ pid: process.ppid, host: os.hostname(), job: "tdl export of Source", since: "then" }),
  );
  await assert.rejects(exportTable({ session: s, table: "Source", dir, rate: Infinity }), (e: Error) =>
    e.message.includes(`is in use by another job (tdl export of Source, pid ${process.ppid}`),
  );
  const gone = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
  writeFileSync(path.join(dir, ".tdl-lock"), JSON.stringify({ pid: gone, host: os.hostname(), job: "tdl export of Source" }));
  const r = await exportTable({ session: s, table: "Source", dir, rate: Infinity });
  assert.equal(r.manifest.count, 600);
  assert.throws(() => readFileSync(path.join(dir, ".tdl-lock")), /ENOENT/, "released when the job ends");
});
