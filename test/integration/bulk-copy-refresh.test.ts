/**
 * `tdl copy` run again after the source changed reads the source again: new,
 * changed and deleted entities all reach the target, and the run says it
 * re-read and from when the last copy was. A refresh stopped half-way and
 * run again ends with the same table (against a real Azurite).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { AccountSession } from "@runtime/account/session";
import { copyTable } from "@runtime/bulk/copy";
import type { EntityRow } from "@protocol/entities";
import { session, startAzurite, tableName } from "../helpers/azurite";

const CLI = path.resolve("dist/cli.js");
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
  const d = mkdtempSync(path.join(os.tmpdir(), "tdl-copy-refresh-"));
  dirs.push(d);
  return d;
};

const row = (p: number, r: number, v: string): EntityRow => ({
  partitionKey: `p${p}`,
  rowKey: `r${r}`,
  properties: { v: { type: "String", value: v } },
});

/** The table as [PartitionKey, RowKey, v] rows, in key order. */
async function contents(table: string): Promise<string[][]> {
  const out: string[][] = [];
  let token: string | undefined;
  do {
    const page = await s.page(table, { continuationToken: token });
    for (const e of page.entities) out.push([e.partitionKey, e.rowKey, String(e.properties.v?.value)]);
    token = page.continuationToken;
  } while (token);
  return out;
}

/** Changes the source: one entity added, one changed, one deleted. */
async function change(table: string): Promise<void> {
  await s.upsertRows(table, [row(9, 9, "new"), row(1, 1, "changed")]);
  await s.deleteEntities(table, [{ partitionKey: "p2", rowKey: "r2" }]);
}

test("tdl copy again after the source changed: the new, the changed and the deleted entity all reach the target, and it says it read the source again", async () => {
  const source = tableName("src");
  const target = tableName("dst");
  await s.createTable(source);
  await s.upsertRows(
    source,
    [0, 1, 2, 3].flatMap((p) => [0, 1, 2].map((r) => row(p, r, "first"))),
  );
  const dir = folder();
  const copy = () =>
    spawnSync(
      process.execPath,
      [CLI, "copy", "--table", source, "--to-table", target, "--dir", dir, "--connection-string-env", "TDL_ACCOUNT"],
      { env: { ...process.env, TDL_ACCOUNT: emu.connectionString }, encoding: "utf8", timeout: 120_000 },
    );
  const first = copy();
  assert.equal(first.status, 0, first.stderr);
  await change(source);
  const again = copy();
  assert.equal(again.status, 0, again.stderr);
  assert.deepEqual(await contents(target), await contents(source));
  assert.match(
    again.stderr,
    new RegExp(
      `held a finished copy \\(its export read \\S+ at \\d{4}-\\d\\d-\\d\\dT[^)]+\\): ${source} was read again; 1 entities it no longer holds were deleted from ${target}`,
    ),
  );
  const aside = JSON.parse(readFileSync(path.join(dir, "copy-previous.json"), "utf8")) as { done?: boolean; keys: unknown[] };
  assert.deepEqual([aside.done, aside.keys.length], [true, 0], "the refresh finished: its list aside is marked done");
  // Nothing changed since: a third run reads again and finds nothing to delete.
  const third = copy();
  assert.equal(third.status, 0, third.stderr);
  assert.match(third.stderr, new RegExp(`${source} was read again\\n`));
  assert.deepEqual(await contents(target), await contents(source));
});

test("a refresh stopped in its export, its import or its deletions resumes to the source's table", async () => {
  for (const phase of ["export", "import", "delete"] as const) {
    const source = tableName("src");
    const target = tableName("dst");
    await s.createTable(source);
    await s.upsertRows(
      source,
      [0, 1, 2, 3].flatMap((p) => [0, 1, 2].map((r) => row(p, r, "first"))),
    );
    const dir = folder();
    const o = { source: s, sourceTable: source, target: s, targetTable: target, targetService: "azure-table" as const, dir };
    await copyTable(o);
    await change(source);
    const stop = new AbortController();
    if (phase === "delete") {
      // Stopped as the refresh's deletions begin: the first delete is cut off.
      const r = await copyTable({
        ...o,
        signal: stop.signal,
        onRetry: () => undefined,
        onProgress: (p) => p.phase === "import" && p.done === p.total && stop.abort(),
      });
      assert.equal(r.imported?.cancelled ?? true, true, phase);
    } else {
      const r = await copyTable({ ...o, signal: stop.signal, onProgress: (p) => p.phase === phase && stop.abort() });
      assert.ok(r.exported.cancelled || r.imported?.cancelled, phase);
    }
    const resumed = await copyTable(o);
    assert.equal(resumed.refreshed?.from !== undefined, true, phase);
    assert.deepEqual(await contents(target), await contents(source), phase);
  }
});
