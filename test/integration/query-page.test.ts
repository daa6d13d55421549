/**
 * The session's page of a query, read from the service's JSON through the
 * table client's pipeline, against what the SDK's `listEntities` (typed
 * values, `disableTypeConversion`) reads from the same real Azurite: the
 * same rows with the same Edm types, continuation tokens that pass between
 * the two, and the service's errors as the session names them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { toRow } from "@runtime/account/values";
import type { EntityRow } from "@protocol/entities";
import { azuriteForFile, tableName } from "../helpers/azurite";
import { fuzzAsync } from "../helpers/fuzz";
import { entityKey, entityProperties } from "../helpers/entity-arbitraries";

const azurite = azuriteForFile();

/** What the SDK reads: one page of `listEntities` with typed values, as rows. */
async function sdkPage(table: string, filter: string | undefined, pageSize: number, continuationToken?: string) {
  const it = azurite.session.clients
    .table(table)
    .listEntities<Record<string, unknown>>({ disableTypeConversion: true, queryOptions: { filter } })
    .byPage({ maxPageSize: pageSize, continuationToken });
  const { value } = await it.next();
  const page = (value ?? []) as Array<Record<string, unknown>> & { continuationToken?: string };
  return { entities: page.map((e) => toRow(e as never)), continuationToken: page.continuationToken };
}

const entity: fc.Arbitrary<EntityRow> = fc.record({ partitionKey: entityKey, rowKey: entityKey, properties: entityProperties });

test("any entities: the session's pages hold what the SDK's pages hold, with the same types, page after page", async () => {
  await fuzzAsync(
    "query-page",
    fc.record({
      rows: fc.uniqueArray(entity, { selector: (e) => `${e.partitionKey}\u0000${e.rowKey}`, maxLength: 12 }),
      size: fc.integer({ min: 1, max: 5 }),
    }),
    async ({ rows, size }) => {
      const t = tableName();
      await azurite.session.createTable(t);
      if (rows.length) await azurite.session.upsertRows(t, rows);
      const ours: EntityRow[] = [];
      const theirs: EntityRow[] = [];
      let a: string | undefined;
      let b: string | undefined;
      do {
        const [mine, sdk] = await Promise.all([
          azurite.session.page(t, { pageSize: size, continuationToken: a }),
          sdkPage(t, undefined, size, b),
        ]);
        ours.push(...mine.entities);
        theirs.push(...sdk.entities);
        assert.equal(!!mine.continuationToken, !!sdk.continuationToken);
        [a, b] = [mine.continuationToken, sdk.continuationToken];
      } while (a);
      assert.deepEqual(ours, theirs);
      assert.equal(ours.length, rows.length);
      await azurite.session.deleteTable(t);
    },
    25,
  );
});

test("a continuation token passes between the two readers, with a filter and a $select", async () => {
  const t = tableName();
  await azurite.session.createTable(t);
  await azurite.session.upsertRows(
    t,
    Array.from({ length: 30 }, (_, i) => ({
      partitionKey: `p${i % 3}`,
      rowKey: String(i).padStart(3, "0"),
      properties: { N: { type: "Int32", value: String(i) }, Big: { type: "Int64", value: String(2n ** 40n + BigInt(i)) } },
    })),
  );
  const filter = "PartitionKey ge 'p1'";
  const first = await azurite.session.page(t, { filter, pageSize: 7, select: ["PartitionKey", "RowKey", "Big"] });
  assert.deepEqual(Object.keys(first.entities[0].properties), ["Big"]);
  assert.equal(first.entities[0].properties.Big.type, "Int64");
  const next = await sdkPage(t, filter, 7, first.continuationToken);
  const again = await azurite.session.page(t, { filter, pageSize: 7, continuationToken: next.continuationToken });
  const all = (await azurite.session.query(t, filter, { limit: 100 })).entities.map((e) => e.rowKey);
  assert.deepEqual(
    [...first.entities, ...next.entities, ...again.entities].map((e) => e.rowKey),
    all.slice(0, 21),
  );
});

test("a missing table and a filter the service refuses are the session's errors, with the service's words", async () => {
  await assert.rejects(azurite.session.page("nosuchtable1"), /the table does not exist/);
  const t = tableName();
  await azurite.session.createTable(t);
  await assert.rejects(
    azurite.session.page(t, { filter: "PartitionKey eq" }),
    (e: Error) => e.message.length > 0 && !/undefined/.test(e.message),
  );
});
