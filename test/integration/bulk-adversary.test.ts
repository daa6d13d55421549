/**
 * Inputs of issue #33 tried again as an adversary would, through the CLI
 * against a real Azurite: keys holding half of a character (a lone
 * surrogate the service took in a body), Int32's lowest value, an empty
 * delete filter and a delete log on a full disk. Each is carried exactly or
 * refused with a sentence that names the file, the line or the key — never
 * an internal failure, never half a job that ends with exit 0.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TableClient } from "@azure/data-tables";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { AccountSession } from "@runtime/account/session";
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
  const d = mkdtempSync(path.join(os.tmpdir(), "tdl-bulk-adversary-"));
  dirs.push(d);
  return d;
};

function tdl(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args, "--connection-string-env", "TDL_ACCOUNT"], {
    env: { ...process.env, TDL_ACCOUNT: emu.connectionString },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function keys(table: string): Promise<string[]> {
  const out: string[] = [];
  let token: string | undefined;
  do {
    const page = await s.page(table, { continuationToken: token });
    for (const e of page.entities) out.push(JSON.stringify([e.partitionKey, e.rowKey]));
    token = page.continuationToken;
  } while (token);
  return out;
}

test("keys holding a lone surrogate: the export carries them (a split never lands on one), the import names each by file, line and position, a delete refuses before the first request", async () => {
  const table = tableName("lone");
  const client = TableClient.fromConnectionString(emu.connectionString, table, { allowInsecureConnection: true });
  await client.createTable();
  // The service takes them in a body; no URL can carry them.
  for (const [pk, rk] of [
    ["a", "r"],
    ["p\ud800", "r"],
    ["q", "r\udc00x"],
    ["z", "r"],
  ])
    await client.createEntity({ partitionKey: pk, rowKey: rk, v: 1 });
  const dir = folder();
  const exported = tdl(["export", "--table", table, "--out", dir, "--concurrency", "4"]);
  assert.equal(exported.status, 0, exported.stderr);
  assert.equal(JSON.parse(exported.stdout).entities, 4);
  const imported = tdl(["import", dir, "--table", tableName("copy")]);
  assert.equal(imported.status, 1, imported.stderr);
  assert.match(
    imported.stderr,
    /tdl: skipped range-\d+\.jsonl:\d+: PartitionKey holds a lone surrogate \(U\+D800\) at character 2: no request can address it/,
  );
  assert.match(
    imported.stderr,
    /tdl: skipped range-\d+\.jsonl:\d+: RowKey holds a lone surrogate \(U\+DC00\) at character 2: no request can address it/,
  );
  const deleted = tdl(["delete", "--table", table, "--filter", "RowKey ge ''", "--yes", "--log", path.join(dir, "deleted.jsonl")]);
  assert.equal(deleted.status, 2, deleted.stderr);
  assert.equal(
    deleted.stderr
      .split("\n")
      .filter((l) => l.startsWith("tdl:"))
      .join("\n"),
    'tdl: 2 of the 4 entities cannot be deleted by any request: the PartitionKey "p\\ud800" holds a lone surrogate (U+D800) at character 2; nothing was deleted (narrow the selection to leave them out)',
  );
  assert.equal((await keys(table)).length, 4, "nothing deleted");
});

test("Int32's lowest value comes back an Int32 of that value, and --verify compares it", async () => {
  const table = tableName("edge");
  await s.createTable(table);
  await s.upsertRows(table, [
    {
      partitionKey: "p",
      rowKey: "min",
      properties: { n: { type: "Int32", value: "-2147483648" }, l: { type: "Int64", value: "-9223372036854775808" } },
    },
  ]);
  const dir = folder();
  assert.equal(tdl(["export", "--table", table, "--out", dir]).status, 0);
  const line = JSON.parse(readFileSync(path.join(dir, "range-0000.jsonl"), "utf8").trim()) as Record<string, unknown>;
  assert.deepEqual([line.n, line["n@odata.type"]], [-2147483648, "Edm.Int32"]);
  const target = tableName("edgecopy");
  const imported = tdl(["import", dir, "--table", target, "--verify"]);
  assert.equal(imported.status, 0, imported.stderr);
  const back = await s.getEntity(target, "p", "min");
  assert.deepEqual(back.properties.n, { type: "Int32", value: "-2147483648" });
  assert.deepEqual(back.properties.l, { type: "Int64", value: "-9223372036854775808" });
});

test("delete --filter '' is a sentence with exit 2; a delete log on a full disk stops before the next delete and says how many went unlogged", async () => {
  const table = tableName("full");
  await s.createTable(table);
  await s.upsertRows(
    table,
    [0, 1, 2].flatMap((p) => [0, 1].map((r) => ({ partitionKey: `z${p}`, rowKey: `r${r}`, properties: {} }))),
  );
  const empty = tdl(["delete", "--table", table, "--filter", "", "--yes"]);
  assert.equal(empty.status, 2, empty.stderr);
  assert.match(
    empty.stderr,
    /^tdl: the filter does not parse at character 1: the filter is empty: write a condition such as PartitionKey eq 'a'\n/,
  );
  if (!existsSync("/dev/full")) return;
  const full = tdl(["delete", "--table", table, "--filter", "PartitionKey ge 'z'", "--yes", "--log", "/dev/full"]);
  assert.equal(full.status, 1, full.stderr);
  assert.match(
    full.stderr,
    /tdl: the delete log \/dev\/full could not be written \(ENOSPC[^)]*\): stopped before the next delete; 2 entities were deleted, the last 2 of them not logged\n/,
  );
  assert.equal((await keys(table)).length, 4, "one partition's batch went; the job stopped before the next");
});
