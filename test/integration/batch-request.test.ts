/**
 * Transactions written as the service's `$batch` body straight from rows,
 * against the SDK's own writes on a real Azurite: any entity reads back the
 * same as when the SDK wrote it, and a refused operation fails the whole
 * transaction with the service's status, code and the operation's index.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { submitBatch } from "@runtime/account/batch-request";
import { toEntity } from "@runtime/account/values";
import type { EntityRow } from "@protocol/entities";
import { azuriteForFile, tableName } from "../helpers/azurite";
import { fuzzAsync } from "../helpers/fuzz";
import { entityKey, entityProperties } from "../helpers/entity-arbitraries";

const azurite = azuriteForFile();

test("any entities of a partition: written as one transaction, they read back as the SDK's writes of them do", async () => {
  await fuzzAsync(
    "batch-request",
    fc.record({
      pk: entityKey,
      rows: fc.uniqueArray(fc.record({ rowKey: entityKey, properties: entityProperties }), {
        selector: (r) => r.rowKey,
        minLength: 1,
        maxLength: 10,
      }),
    }),
    async ({ pk, rows }) => {
      const [ours, theirs] = [tableName(), tableName()];
      await Promise.all([azurite.session.createTable(ours), azurite.session.createTable(theirs)]);
      const entities: EntityRow[] = rows.map((r) => ({ partitionKey: pk, ...r }));
      await submitBatch(
        azurite.session.clients.table(ours),
        ours,
        entities.map((row) => ({ kind: "upsert", row })),
      );
      for (const e of entities) await azurite.session.clients.table(theirs).upsertEntity(toEntity(e), "Replace");
      const read = async (t: string) =>
        (await azurite.session.query(t, "", { limit: 100 })).entities.map(({ partitionKey, rowKey, properties }) => ({
          partitionKey,
          rowKey,
          properties,
        }));
      assert.deepEqual(await read(ours), await read(theirs));
      // Deleted again in one transaction, unconditionally.
      await submitBatch(
        azurite.session.clients.table(ours),
        ours,
        entities.map((e) => ({ kind: "delete", partitionKey: e.partitionKey, rowKey: e.rowKey })),
      );
      assert.equal((await azurite.session.query(ours, "", { limit: 100 })).entities.length, 0);
      await Promise.all([azurite.session.deleteTable(ours), azurite.session.deleteTable(theirs)]);
    },
    20,
  );
});

test("one refused operation: nothing is written, and the error has the service's status and the operation's index", async () => {
  const t = tableName();
  await azurite.session.createTable(t);
  const row = (rk: string): EntityRow => ({ partitionKey: "p", rowKey: rk, properties: { N: { type: "Int32", value: "1" } } });
  await azurite.session.upsertRows(t, [row("a"), row("b")]);
  const [a] = (await azurite.session.query(t, "RowKey eq 'a'")).entities;
  await azurite.session.updateEntity(t, { ...a, properties: { N: { type: "Int32", value: "2" } } }, a.etag!);
  const stale = { kind: "delete" as const, partitionKey: "p", rowKey: "a", etag: a.etag };
  await assert.rejects(
    submitBatch(azurite.session.clients.table(t), t, [{ kind: "delete", partitionKey: "p", rowKey: "b" }, stale]),
    (e: { statusCode?: number; message: string }) => e.statusCode === 412 && /^1:/.test(e.message),
  );
  assert.deepEqual(
    (await azurite.session.query(t, "")).entities.map((e) => e.rowKey),
    ["a", "b"],
  );
  await assert.rejects(
    submitBatch(azurite.session.clients.table("nosuchtable2"), "nosuchtable2", [{ kind: "upsert", row: row("c") }]),
    (e: { statusCode?: number }) => e.statusCode === 404,
  );
});
