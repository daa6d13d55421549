/**
 * Keys and values Azurite's `$batch` reads otherwise than Azure does, sent
 * by the SDK's own submitTransaction (any client, not only our batch
 * writer): a raw U+2028/U+2029 in a value lost the operation's body (an
 * insert refused, an upsert written without its properties) and is now
 * carried exactly; a RowKey holding `',` or starting with a comma was
 * written under another PartitionKey, and a key with a line separator was
 * deleted as nothing — now refused with Azure's batch shape (the index, 400)
 * and a message that says what the emulator cannot carry, with nothing
 * written. The same keys go through a request of their own, and `tdl
 * import` carries them that way.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RestError, TableClient, TransactionAction } from "@azure/data-tables";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { AccountSession } from "@runtime/account/session";
import { exportTable } from "@runtime/bulk/export";
import { importTable } from "@runtime/bulk/import";
import { verifyTable } from "@runtime/bulk/verify";
import { tableName } from "../helpers/azurite";

let emu: FidelityEmulator;
const dirs: string[] = [];
before(async () => {
  emu = await FidelityEmulator.start({ scale: 1 });
});
after(async () => {
  await emu?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const client = (t: string, via: "proxy" | "direct" = "proxy") =>
  TableClient.fromConnectionString(via === "proxy" ? emu.connectionString : emu.azurite.connectionString, t, {
    allowInsecureConnection: true,
    retryOptions: { maxRetries: 0 },
  });

async function rows(t: string): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for await (const e of client(t, "direct").listEntities()) {
    const { etag: _etag, timestamp: _timestamp, ...rest } = e as Record<string, unknown>;
    out.push(rest);
  }
  return out;
}

test("a value with U+2028 or U+2029 in a $batch is written whole, by insert and by upsert (Azurite dropped the body)", async () => {
  for (const action of ["create", "upsert"] as const) {
    const t = tableName("sep");
    await client(t).createTable();
    const s = "line\u2028separator\u2029paragraph";
    await client(t).submitTransaction([[action, { partitionKey: "p", rowKey: "r", s, n: 7 }]]);
    assert.deepEqual(await rows(t), [{ partitionKey: "p", rowKey: "r", s, n: 7 }], action);
  }
});

test("keys Azurite's $batch misreads are refused by index with nothing written; alone they are written exactly", async () => {
  const cases: Array<[string, string, "upsert" | "delete"]> = [
    ["a", ",", "upsert"],
    ["a", "x',y", "upsert"],
    ["a", "=',RowKey='", "upsert"],
    ["a\u2028b", "r", "delete"],
  ];
  for (const [pk, rk, kind] of cases) {
    const t = tableName("key");
    await client(t).createTable();
    if (kind === "delete") await client(t).upsertEntity({ partitionKey: pk, rowKey: rk });
    const action: TransactionAction =
      kind === "upsert" ? ["upsert", { partitionKey: pk, rowKey: rk, v: 1 }] : ["delete", { partitionKey: pk, rowKey: rk }];
    const before = await rows(t);
    const failure = await client(t)
      .submitTransaction([["upsert", { partitionKey: pk, rowKey: "first" }], action])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(failure instanceof RestError, `${JSON.stringify([pk, rk])}: refused`);
    assert.equal(failure.statusCode, 400);
    assert.match(
      failure.message,
      /^1:One of the request inputs is not valid: the emulator cannot carry the keys of operation 1 in a \$batch/,
    );
    assert.deepEqual(await rows(t), before, `${JSON.stringify([pk, rk])}: nothing written, nothing deleted, under no other key`);
    // In a request of its own the emulator reads the keys right.
    if (kind === "upsert") {
      await client(t).upsertEntity({ partitionKey: pk, rowKey: rk, v: 1 });
      assert.deepEqual(await rows(t), [{ partitionKey: pk, rowKey: rk, v: 1 }]);
    } else {
      await client(t).deleteEntity(pk, rk);
      assert.deepEqual(await rows(t), []);
    }
  }
  // Quotes and commas Azurite reads right still go through in a batch.
  const t = tableName("key");
  await client(t).createTable();
  await client(t).submitTransaction([
    ["upsert", { partitionKey: "a',", rowKey: "r)" }],
    ["upsert", { partitionKey: "a',", rowKey: "'" }],
  ]);
  assert.deepEqual(
    (await rows(t)).map((e) => [e.partitionKey, e.rowKey]),
    [
      ["a',", "'"],
      ["a',", "r)"],
    ],
  );
});

test("tdl's import carries those keys and values on the emulator: each refused batch's entities go alone, --verify finds the table equal", async () => {
  const s = new AccountSession(
    { id: "e", name: "E", kind: "emulator", endpoint: emu.endpoint },
    { connectionString: emu.connectionString },
    { sdkRetries: 0 },
  );
  const source = tableName("src");
  await client(source).createTable();
  const keys: Array<[string, string]> = [
    ["a", ","],
    ["a", "x',y"],
    ["a", "plain"],
    ["a\u2028b", "r"],
    ["b", "=',RowKey='"],
  ];
  for (const [pk, rk] of keys) await client(source).upsertEntity({ partitionKey: pk, rowKey: rk, s: "x\u2028y\u2029z" });
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-batch-keys-"));
  dirs.push(dir);
  const exported = await exportTable({ session: s, table: source, dir, rate: Infinity });
  assert.equal(exported.manifest.count, keys.length);
  const target = tableName("dst");
  const imported = await importTable({ session: s, table: target, dir, rate: Infinity });
  assert.deepEqual({ written: imported.written, skipped: imported.skipped }, { written: keys.length, skipped: [] });
  const verified = await verifyTable({ session: s, table: target, dir });
  assert.deepEqual(verified.differ, [], JSON.stringify(verified));
  assert.deepEqual(await rows(target), await rows(source));
});
