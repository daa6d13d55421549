/**
 * The account tools of `tdl mcp` (issue 36) against a real Azurite started
 * by the test, named to the server by `TDL_CONNECTION_LOCAL` — the
 * connection string stays in the environment and never comes back:
 * list_tables, query_entities (its class, its measured cost, at most 1,000
 * entities), infer_design, and stress_test, which runs on the embedded
 * emulator and refuses any other connection without
 * --allow-account-stress.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { EntityRow } from "@protocol";
import type { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { session, startAzurite, tableName } from "../helpers/azurite";
import { call, startMcp, type McpSession } from "../helpers/mcp";

const TABLE = tableName("mcp");
const ROWS = 1_500;
let emulator: EmbeddedEmulator;
let mcp: McpSession;
let key: string;

before(async () => {
  emulator = await startAzurite();
  const azurite = session(emulator);
  await azurite.createTable(TABLE);
  const rows: EntityRow[] = Array.from({ length: ROWS }, (_, i) => ({
    partitionKey: `device${String(i % 15).padStart(2, "0")}`,
    rowKey: String(i).padStart(6, "0"),
    properties: { Reading: { type: "Int32", value: String(i) } },
  }));
  await azurite.upsertRows(TABLE, rows);
  key = /AccountKey=([^;]+)/.exec(emulator.connectionString)![1];
  mcp = await startMcp(["--workspace", "."], { TDL_CONNECTION_LOCAL: emulator.connectionString });
});

after(async () => {
  await mcp?.close();
  await emulator?.stop();
});

/** No answer and nothing on stderr carries the account's key or connection string. */
function assertNoSecret(text: string): void {
  assert.ok(!text.includes(key), "the account key stays in the environment");
}

test("list_tables names the table; query_entities returns the entities, the filter's class and what the query measured", async () => {
  const tables = await call(mcp.client, "list_tables", { connection: "local" });
  assert.ok((tables.output!.tables as string[]).includes(TABLE));
  const point = await call(mcp.client, "query_entities", {
    connection: "local",
    table: TABLE,
    filter: "PartitionKey eq 'device07' and RowKey eq '000007'",
  });
  assert.equal(point.output!.class, "point");
  const [entity] = point.output!.entities as EntityRow[];
  assert.deepEqual([entity.partitionKey, entity.rowKey, entity.properties.Reading], ["device07", "000007", { type: "Int32", value: "7" }]);
  assert.deepEqual(
    { ...(point.output!.cost as Record<string, number>), elapsedMs: 0 },
    { requests: 1, pages: 1, continuationTokens: 0, entities: 1, elapsedMs: 0 },
  );
  const scan = await call(mcp.client, "query_entities", { connection: "local", table: TABLE, limit: 1000 });
  assert.equal(scan.output!.class, "table-scan");
  assert.equal((scan.output!.entities as unknown[]).length, 1000);
  assert.equal(scan.output!.more, true);
  const tooMany = await call(mcp.client, "query_entities", { connection: "local", table: TABLE, limit: 1001 });
  assert.equal(tooMany.isError, true);
  assert.match(tooMany.text, /input.limit must be at most 1,000/);
  const missing = await call(mcp.client, "query_entities", { connection: "local", table: "nosuchtable", filter: "PartitionKey eq 'a'" });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /cannot query nosuchtable at local: /);
  for (const a of [tables, point, scan, missing]) assertNoSecret(a.text);
});

test("infer_design reads the table and returns a design whose keys rebuild the sampled ones", async () => {
  const inferred = await call(mcp.client, "infer_design", { connection: "local", table: TABLE, sample: 2000 });
  assert.equal(inferred.isError, false, inferred.text);
  assert.equal(inferred.output!.sampled, ROWS);
  assert.equal(inferred.output!.partitions, 15);
  assert.deepEqual(inferred.output!.keys, { partitionKey: ROWS, rowKey: ROWS });
  assert.match(inferred.output!.design as string, new RegExp(`table ${TABLE} \\{`, "i"));
  assertNoSecret(inferred.text);
});

test("stress_test refuses an account connection without --allow-account-stress, and runs a bounded test on the embedded emulator", async () => {
  const refused = await call(mcp.client, "stress_test", { connection: "local", path: "examples/marathon.tdl" });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /local is not it, and the server was not started with --allow-account-stress/);
  const run = await call(mcp.client, "stress_test", {
    path: "examples/marathon.tdl",
    mode: "single-partition",
    seconds: 2,
    concurrency: 4,
  });
  assert.equal(run.isError, false, run.text);
  assert.equal(typeof run.output!.hot, "boolean");
  assert.ok((run.output!.operations as Record<string, { calls: number }>).insert.calls > 0, run.text);
  assert.equal(run.output!.partitions, 1);
  assertNoSecret(run.text);
  assertNoSecret(mcp.stderr());
});
