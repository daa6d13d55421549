import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createConnection } from "node:net";
import { generateTableSas, AzureNamedKeyCredential } from "@azure/data-tables";
import { EmbeddedEmulator, freePort } from "../../client/src/emulator/azurite";
import { AccountSession } from "../../client/src/account/explorer";
import { ConflictError } from "../../client/src/account/errors";
import { ConnectionStringError, DEV_ACCOUNT, DEV_KEY, parseConnectionString } from "../../client/src/account/connection-string";
import { deserialize, serialize } from "../../client/src/account/transfer";
import { EntityRow } from "../../client/src/account/model";
import { session, startAzurite, tableName } from "../helpers/azurite";

let emu: EmbeddedEmulator;
let s: AccountSession;
before(async () => {
  emu = await startAzurite();
  s = session(emu);
});
after(async () => emu?.stop());

const typedRow = (pk: string, rk: string): EntityRow => ({
  partitionKey: pk, rowKey: rk,
  properties: {
    Name: { type: "String", value: "it's, \"quoted\"\nand multi-line" },
    Age: { type: "Int32", value: "42" },
    Big: { type: "Int64", value: "9007199254740993" },
    Ratio: { type: "Double", value: "2.5" },
    Active: { type: "Boolean", value: "true" },
    At: { type: "DateTime", value: "2026-01-02T03:04:05.000Z" },
    Id: { type: "Guid", value: "0f8fad5b-d9cb-469f-a165-70867728950e" },
    Blob: { type: "Binary", value: Buffer.from([0, 1, 2, 255]).toString("base64") },
  },
});

test("tables: create, list, delete; a second create says the table exists", async () => {
  const name = tableName();
  await s.createTable(name);
  assert.ok((await s.listTables()).includes(name));
  await assert.rejects(s.createTable(name), /a table of that name already exists/);
  await assert.rejects(s.createTable("1bad"), /not a valid table name/);
  await s.deleteTable(name);
  assert.ok(!(await s.listTables()).includes(name));
});

test("entities keep their types through insert and read", async () => {
  const t = tableName();
  await s.createTable(t);
  const stored = await s.insertEntity(t, typedRow("p", "r"));
  assert.deepEqual(stored.properties, typedRow("p", "r").properties);
  assert.ok(stored.etag);
  await assert.rejects(s.insertEntity(t, typedRow("p", "r")), /already exists/);
  await assert.rejects(s.insertEntity(t, { partitionKey: "p", rowKey: "x", properties: { Age: { type: "Int32", value: "old" } } }), /Age: 'old' is not a 32-bit integer/);
});

test("an edit with a stale ETag is refused and overwrites nothing", async () => {
  const t = tableName();
  await s.createTable(t);
  const first = await s.insertEntity(t, typedRow("p", "r"));
  const mine = { ...first, properties: { ...first.properties, Age: { type: "Int32" as const, value: "43" } } };
  const theirs = { ...first, properties: { ...first.properties, Age: { type: "Int32" as const, value: "50" } } };
  const afterTheirs = await s.updateEntity(t, theirs, first.etag!);
  await assert.rejects(s.updateEntity(t, mine, first.etag!), (e: unknown) => e instanceof ConflictError && /changed by someone else.*nothing was overwritten/.test((e as Error).message));
  const now = await s.getEntity(t, "p", "r");
  assert.equal(now.properties.Age.value, "50");
  const mineAgain = await s.updateEntity(t, mine, afterTheirs.etag!);
  assert.equal(mineAgain.properties.Age.value, "43");
});

test("paging over 3,200 entities by continuation tokens, and a query's measured cost", async () => {
  const t = tableName();
  await s.createTable(t);
  const rows = Array.from({ length: 3200 }, (_, i) => ({ partitionKey: `p${i % 4}`, rowKey: String(i).padStart(5, "0"), properties: { N: { type: "Int32" as const, value: String(i) } } }));
  assert.equal(await s.upsertRows(t, rows), 3200);
  const first = await s.page(t);
  assert.equal(first.entities.length, 1000);
  assert.ok(first.continuationToken);
  const second = await s.page(t, { continuationToken: first.continuationToken });
  assert.equal(second.entities.length, 1000);
  assert.notEqual(second.entities[0].rowKey + second.entities[0].partitionKey, first.entities[0].rowKey + first.entities[0].partitionKey);
  const all = await s.query(t, "", { limit: 10_000 });
  assert.deepEqual({ ...all.cost, elapsedMs: 0 }, { requests: 4, pages: 4, continuationTokens: 3, entities: 3200, elapsedMs: 0 });
  const one = await s.query(t, "PartitionKey eq 'p1' and RowKey eq '00001'", { select: ["N"] });
  assert.deepEqual(one.entities.map((e) => e.properties), [{ N: { type: "Int32", value: "1" } }]);
  assert.equal(one.cost.requests, 1);
  const limited = await s.query(t, "PartitionKey eq 'p2'", { limit: 10 });
  assert.equal(limited.entities.length, 10);
  assert.ok(limited.continuationToken);
});

test("deleting selected entities batches per partition, 100 at most", async () => {
  const t = tableName();
  await s.createTable(t);
  const rows = [...Array.from({ length: 150 }, (_, i) => ({ partitionKey: "a", rowKey: `r${i}`, properties: {} })),
    ...Array.from({ length: 100 }, (_, i) => ({ partitionKey: "b", rowKey: `r${i}`, properties: {} }))];
  await s.upsertRows(t, rows);
  const progress: number[] = [];
  const result = await s.deleteEntities(t, rows.slice(0, 240), (done) => progress.push(done));
  assert.deepEqual(result, { deleted: 240, batches: 3 });
  assert.deepEqual(progress, [100, 150, 240]);
  const left = await s.query(t, "", { limit: 1000 });
  assert.deepEqual(left.entities.map((e) => `${e.partitionKey}/${e.rowKey}`).sort(), rows.slice(240).map((r) => `${r.partitionKey}/${r.rowKey}`).sort());
});

test("export then import round-trips JSON and CSV with every type", async () => {
  const t = tableName();
  await s.createTable(t);
  await s.upsertRows(t, [typedRow("p", "1"), typedRow("p", "2"), { partitionKey: "q", rowKey: "3", properties: { Only: { type: "Int64", value: "-5" } } }]);
  const exported = (await s.query(t, "", { limit: 100 })).entities;
  for (const format of ["json", "csv"] as const) {
    const text = serialize(exported, format);
    const back = deserialize(text, format);
    assert.deepEqual(back.map((r) => ({ ...r })), exported.map((r) => ({ partitionKey: r.partitionKey, rowKey: r.rowKey, properties: r.properties })), format);
    const target = tableName();
    await s.createTable(target);
    await s.upsertRows(target, back);
    const again = (await s.query(target, "", { limit: 100 })).entities;
    assert.deepEqual(again.map((r) => r.properties), exported.map((r) => r.properties), `${format} import`);
  }
});

test("a wrong key, an unreachable endpoint and missing permissions fail clearly and within the bound", async () => {
  const wrongKey = new AccountSession({ id: "x", name: "x", kind: "connection-string", endpoint: emu.endpoint },
    { connectionString: emu.connectionString.replace(DEV_KEY, Buffer.from("not the key").toString("base64")) });
  await assert.rejects(wrongKey.listTables(), /the account key was rejected/);

  const port = await freePort();
  const nowhere = `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};TableEndpoint=http://127.0.0.1:${port}/${DEV_ACCOUNT};`;
  const unreachable = new AccountSession({ id: "y", name: "y", kind: "connection-string", endpoint: `http://127.0.0.1:${port}` }, { connectionString: nowhere }, { timeoutMs: 3000 });
  const started = Date.now();
  await assert.rejects(unreachable.listTables(), /nothing answers at 127\.0\.0\.1:\d+ \(connection refused\)/);
  assert.ok(Date.now() - started < 5000);

  // A listener that never answers: the bound, not a hang.
  const silent = await new Promise<import("node:net").Server>((resolve) => { const srv = require("node:net").createServer(() => undefined); srv.listen(0, "127.0.0.1", () => resolve(srv)); });
  const silentPort = (silent.address() as { port: number }).port;
  const hang = new AccountSession({ id: "z", name: "z", kind: "connection-string", endpoint: `http://127.0.0.1:${silentPort}` },
    { connectionString: nowhere.replace(String(port), String(silentPort)) }, { timeoutMs: 1500 });
  const t0 = Date.now();
  await assert.rejects(hang.listTables(), /no answer from 127\.0\.0\.1:\d+ within 2 s/);
  assert.ok(Date.now() - t0 < 4000, `took ${Date.now() - t0} ms`);
  silent.close();

  const t = tableName();
  await s.createTable(t);
  const sas = generateTableSas(t, new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY), { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600_000) });
  const readOnly = new AccountSession({ id: "r", name: "r", kind: "sas", endpoint: emu.endpoint }, { sasToken: sas });
  await readOnly.query(t, "");
  await assert.rejects(readOnly.insertEntity(t, typedRow("p", "r")), /missing permissions|access denied/);
});

test("malformed connection strings say what is wrong", () => {
  const cases: Array<[string, RegExp]> = [
    ["", /empty/],
    ["AccountName=a;AccountKey", /'AccountKey' is not a Name=value pair/],
    ["AccountName=a;Secret=b", /unknown setting 'Secret'/],
    ["DefaultEndpointsProtocol=https;AccountName=acct", /no AccountKey and no SharedAccessSignature/],
    ["AccountName=acct;AccountKey=not base64!", /AccountKey is not base64/],
    ["TableEndpoint=ftp://x;AccountName=a;AccountKey=abc=", /must use https/],
    ["TableEndpoint=::nope::;AccountName=a;AccountKey=abc=", /is not a URL/],
  ];
  for (const [cs, message] of cases) assert.throws(() => parseConnectionString(cs), (e: unknown) => e instanceof ConnectionStringError && message.test((e as Error).message), cs);
  assert.equal(parseConnectionString("UseDevelopmentStorage=true").endpoint, "http://127.0.0.1:10002/devstoreaccount1");
  assert.equal(parseConnectionString("DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc=;EndpointSuffix=core.windows.net").endpoint, "https://acct.table.core.windows.net");
});

test("the emulator stops by its PID and frees its port", async () => {
  const other = await EmbeddedEmulator.start();
  const { port, pid } = other;
  assert.ok(pid > 0);
  await other.stop();
  assert.throws(() => process.kill(pid, 0));
  await new Promise<void>((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => { socket.destroy(); reject(new Error("port still open")); });
    socket.once("error", () => resolve());
  });
});
