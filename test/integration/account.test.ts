import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createConnection, createServer, Server } from "node:net";
import { spawnSync } from "node:child_process";
import { AccountSasOptions, generateAccountSas, generateTableSas, AzureNamedKeyCredential } from "@azure/data-tables";
import { EmbeddedEmulator, freePort } from "@runtime/emulator/azurite";
import { AccountSession } from "@runtime/account/session";
import { AccountError, ConflictError } from "@runtime/account/errors";
import { DEV_ACCOUNT, DEV_KEY } from "@runtime/account/connection-string";
import { interpretConnectionInput } from "@runtime/account/connection-input";
import { planImport, serialize } from "@runtime/transfer/plan";
import { REFUSE_ALL } from "@protocol/transfer";
import { EntityRow } from "@protocol/entities";
import { session, startAzurite, tableName } from "../helpers/azurite";

let emu: EmbeddedEmulator;
let s: AccountSession;
before(async () => {
  emu = await startAzurite();
  s = session(emu);
});
after(async () => emu?.stop());

const typedRow = (pk: string, rk: string): EntityRow => ({
  partitionKey: pk,
  rowKey: rk,
  properties: {
    Name: { type: "String", value: 'it\'s, "quoted"\nand multi-line' },
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
  await assert.rejects(
    s.insertEntity(t, { partitionKey: "p", rowKey: "x", properties: { Age: { type: "Int32", value: "old" } } }),
    /Age: 'old' is not a 32-bit integer/,
  );
});

test("an edit with a stale ETag is refused and overwrites nothing", async () => {
  const t = tableName();
  await s.createTable(t);
  const first = await s.insertEntity(t, typedRow("p", "r"));
  const mine = { ...first, properties: { ...first.properties, Age: { type: "Int32" as const, value: "43" } } };
  const theirs = { ...first, properties: { ...first.properties, Age: { type: "Int32" as const, value: "50" } } };
  const afterTheirs = await s.updateEntity(t, theirs, first.etag!);
  await assert.rejects(
    s.updateEntity(t, mine, first.etag!),
    (e: unknown) => e instanceof ConflictError && /changed by someone else.*nothing was overwritten/.test((e as Error).message),
  );
  const now = await s.getEntity(t, "p", "r");
  assert.equal(now.properties.Age.value, "50");
  const mineAgain = await s.updateEntity(t, mine, afterTheirs.etag!);
  assert.equal(mineAgain.properties.Age.value, "43");
});

test("paging over 3,200 entities by continuation tokens, and a query's measured cost", async () => {
  const t = tableName();
  await s.createTable(t);
  const rows = Array.from({ length: 3200 }, (_, i) => ({
    partitionKey: `p${i % 4}`,
    rowKey: String(i).padStart(5, "0"),
    properties: { N: { type: "Int32" as const, value: String(i) } },
  }));
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
  assert.deepEqual(
    one.entities.map((e) => e.properties),
    [{ N: { type: "Int32", value: "1" } }],
  );
  assert.equal(one.cost.requests, 1);
  const limited = await s.query(t, "PartitionKey eq 'p2'", { limit: 10 });
  assert.equal(limited.entities.length, 10);
  assert.ok(limited.continuationToken);
});

test("deleting selected entities batches per partition, 100 at most", async () => {
  const t = tableName();
  await s.createTable(t);
  const rows = [
    ...Array.from({ length: 150 }, (_, i) => ({ partitionKey: "a", rowKey: `r${i}`, properties: {} })),
    ...Array.from({ length: 100 }, (_, i) => ({ partitionKey: "b", rowKey: `r${i}`, properties: {} })),
  ];
  await s.upsertRows(t, rows);
  const progress: number[] = [];
  const result = await s.deleteEntities(t, rows.slice(0, 240), (done) => progress.push(done));
  assert.deepEqual(result, { deleted: 240, batches: 3 });
  assert.deepEqual(progress, [100, 150, 240]);
  const left = await s.query(t, "", { limit: 1000 });
  assert.deepEqual(
    left.entities.map((e) => `${e.partitionKey}/${e.rowKey}`).sort(),
    rows
      .slice(240)
      .map((r) => `${r.partitionKey}/${r.rowKey}`)
      .sort(),
  );
});

test("export then import round-trips JSON and CSV with every type", async () => {
  const t = tableName();
  await s.createTable(t);
  await s.upsertRows(t, [
    typedRow("p", "1"),
    typedRow("p", "2"),
    { partitionKey: "q", rowKey: "3", properties: { Only: { type: "Int64", value: "-5" } } },
  ]);
  const exported = (await s.query(t, "", { limit: 100 })).entities;
  for (const format of ["json", "csv"] as const) {
    const text = serialize(exported, format);
    const back = planImport(text, format, REFUSE_ALL).batches.flat();
    assert.deepEqual(
      back.map((r) => ({ ...r })),
      exported.map((r) => ({ partitionKey: r.partitionKey, rowKey: r.rowKey, properties: r.properties })),
      format,
    );
    const target = tableName();
    await s.createTable(target);
    await s.upsertRows(target, back);
    const again = (await s.query(target, "", { limit: 100 })).entities;
    assert.deepEqual(
      again.map((r) => r.properties),
      exported.map((r) => r.properties),
      `${format} import`,
    );
  }
});

test("a wrong key, an unreachable endpoint and missing permissions fail clearly and within the bound", async () => {
  const wrongKey = new AccountSession(
    { id: "x", name: "x", kind: "connection-string", endpoint: emu.endpoint },
    { connectionString: emu.connectionString.replace(DEV_KEY, Buffer.from("not the key").toString("base64")) },
  );
  await assert.rejects(wrongKey.listTables(), /the account key was rejected/);

  const port = await freePort();
  const nowhere = `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};TableEndpoint=http://127.0.0.1:${port}/${DEV_ACCOUNT};`;
  const unreachable = new AccountSession(
    { id: "y", name: "y", kind: "connection-string", endpoint: `http://127.0.0.1:${port}` },
    { connectionString: nowhere },
    { timeoutMs: 3000 },
  );
  const started = Date.now();
  await assert.rejects(unreachable.listTables(), /nothing answers at 127\.0\.0\.1:\d+ \(connection refused\)/);
  assert.ok(Date.now() - started < 5000);

  // A listener that never answers: the bound, not a hang.
  const silent = await new Promise<Server>((resolve) => {
    const srv = createServer(() => undefined);
    srv.listen(0, "127.0.0.1", () => resolve(srv));
  });
  const silentPort = (silent.address() as { port: number }).port;
  const hang = new AccountSession(
    { id: "z", name: "z", kind: "connection-string", endpoint: `http://127.0.0.1:${silentPort}` },
    { connectionString: nowhere.replace(String(port), String(silentPort)) },
    { timeoutMs: 1500 },
  );
  const t0 = Date.now();
  await assert.rejects(hang.listTables(), /no answer from 127\.0\.0\.1:\d+ within 2 s/);
  assert.ok(Date.now() - t0 < 4000, `took ${Date.now() - t0} ms`);
  silent.close();

  const t = tableName();
  await s.createTable(t);
  const sas = generateTableSas(t, new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY), {
    permissions: { query: true },
    expiresOn: new Date(Date.now() + 3600_000),
  });
  const readOnly = new AccountSession({ id: "r", name: "r", kind: "sas", endpoint: emu.endpoint }, { sasToken: sas });
  await readOnly.query(t, "");
  await assert.rejects(
    readOnly.insertEntity(t, typedRow("p", "r")),
    /^Error: the SAS token may not insert an entity: it lacks the permission 'a' \(add\) in sp \(it has sp=r\)/,
  );
});

test("the emulator stops by its PID and frees its port", async () => {
  const other = await EmbeddedEmulator.start();
  const { port, pid } = other;
  assert.ok(pid > 0);
  await other.stop();
  assert.throws(() => process.kill(pid, 0));
  await new Promise<void>((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      reject(new Error("port still open"));
    });
    socket.once("error", () => resolve());
  });
});

const devKey = new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY);
const hour = 3600_000;
function accountSas(o: Partial<AccountSasOptions> & { permissions: AccountSasOptions["permissions"] }): string {
  return generateAccountSas(devKey, { resourceTypes: "sco", expiresOn: new Date(Date.now() + hour), ...o });
}
function sasSession(token: string, endpoint = emu.endpoint, timeoutMs?: number): AccountSession {
  return new AccountSession({ id: "sas", name: "sas", kind: "sas", endpoint }, { sasToken: token }, { timeoutMs });
}
async function refusal(p: Promise<unknown>): Promise<AccountError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof AccountError, String(e));
    return e;
  }
  assert.fail("the call succeeded");
}

test("an expired or not-yet-valid SAS says so, before the call when clearly outside its window and from the service's 403 otherwise", async () => {
  // Issue 10: an expired SAS was reported as "the credential is valid but may not do this".
  const port = await freePort();
  const closed = `http://127.0.0.1:${port}/${DEV_ACCOUNT}`;
  const expired = accountSas({ permissions: { list: true }, expiresOn: new Date(Date.now() - hour) });
  const early = await refusal(sasSession(expired).listTables());
  assert.match(early.message, /^the SAS token expired on \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: create a new one/);
  assert.equal(early.code, "SasExpired");
  // No request was sent: against a closed port the answer is the same, not "connection refused".
  assert.equal((await refusal(sasSession(expired, closed, 2000).listTables())).code, "SasExpired");

  // Expired a minute ago: inside the clock-skew margin, so the call is made and Azurite's 403 is read.
  const justExpired = accountSas({ permissions: { list: true }, expiresOn: new Date(Date.now() - 60_000) });
  assert.match((await refusal(sasSession(justExpired, closed, 2000).listTables())).message, /connection refused/);
  const served = await refusal(sasSession(justExpired).listTables());
  assert.deepEqual([served.code, served.status], ["SasExpired", 403]);
  assert.match(served.message, /^the SAS token expired on /);

  const future = accountSas({
    permissions: { list: true },
    startsOn: new Date(Date.now() + hour),
    expiresOn: new Date(Date.now() + 2 * hour),
  });
  assert.match(
    (await refusal(sasSession(future).listTables())).message,
    /^the SAS token is not valid before \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: wait until then/,
  );
  const soon = accountSas({ permissions: { list: true }, startsOn: new Date(Date.now() + 120_000) });
  const servedSoon = await refusal(sasSession(soon).listTables());
  assert.deepEqual([servedSoon.code, servedSoon.status], ["SasNotYetValid", 403]);
});

test("a SAS without a needed permission or resource type names what it lacks", async () => {
  const t = tableName();
  await s.createTable(t);
  const readOnly = sasSession(accountSas({ permissions: { list: true, query: true } }));
  assert.deepEqual(await readOnly.listTables().then((names) => names.includes(t)), true);
  assert.match(
    (await refusal(readOnly.insertEntity(t, typedRow("p", "r")))).message,
    /^the SAS token may not insert an entity: it lacks the permission 'a' \(add\) in sp \(it has sp=rl\)/,
  );
  assert.match(
    (await refusal(readOnly.createTable(tableName()))).message,
    /^the SAS token may not create a table: it lacks the permission 'c' \(create\) or 'w' \(write\) or 'a' \(add\)/,
  );
  assert.match(
    (await refusal(readOnly.deleteTable(t))).message,
    /^the SAS token may not delete a table: it lacks the permission 'd' \(delete\)/,
  );

  const serviceOnly = sasSession(
    accountSas({ permissions: { list: true, query: true, add: true, update: true, delete: true, write: true }, resourceTypes: "s" }),
  );
  assert.match(
    (await refusal(serviceOnly.listTables())).message,
    /^the SAS token may not list tables: it lacks the resource type 'c' \(container, i\.e\. tables\) in srt \(it has srt=s\)/,
  );
  const noObjects = sasSession(accountSas({ permissions: { list: true, query: true, add: true, update: true }, resourceTypes: "sc" }));
  assert.match(
    (await refusal(noObjects.insertEntity(t, typedRow("p", "r")))).message,
    /^the SAS token may not insert an entity: it lacks the resource type 'o' \(object, i\.e\. entities\)/,
  );

  const tableSas = sasSession(
    generateTableSas(t, devKey, { permissions: { query: true, add: true }, expiresOn: new Date(Date.now() + hour) }),
  );
  await tableSas.insertEntity(t, typedRow("p", "r"));
  assert.match(
    (await refusal(tableSas.deleteEntities(t, [{ partitionKey: "p", rowKey: "r" }]))).message,
    /^the SAS token may not delete entities: it lacks the permission 'd' \(delete\) in sp \(it has sp=ra\)/,
  );
});

test("a SAS URL pasted as the endpoint, or a SAS in a connection string, connects; what is shown holds no query", async () => {
  const t = tableName();
  await s.createTable(t);
  const token = accountSas({ permissions: { list: true, query: true, add: true } });
  const pasted = interpretConnectionInput(`${emu.endpoint}/?${token}`, "entra-id");
  assert.deepEqual([pasted.kind, pasted.endpoint], ["sas", emu.endpoint]);
  const fromUrl = new AccountSession({ id: "u", name: "u", kind: pasted.kind, endpoint: pasted.endpoint }, pasted.secret);
  assert.ok((await fromUrl.listTables()).includes(t));
  for (const cs of [`TableEndpoint=${emu.endpoint};SharedAccessSignature=${token}`, `TableEndpoint=${emu.endpoint}?${token}`]) {
    const made = interpretConnectionInput(cs);
    assert.equal(made.endpoint, emu.endpoint);
    const viaCs = new AccountSession({ id: "c", name: "c", kind: made.kind, endpoint: made.endpoint }, made.secret);
    await viaCs.insertEntity(t, typedRow("p", cs.length.toString()));
  }
  // A refusal of a SAS-signed request (the SDK's error carries the URL with the token) shows no part of the signature.
  const sig = new URLSearchParams(token).get("sig")!;
  const refused = await refusal(fromUrl.deleteTable(t));
  for (let i = 0; i + 8 <= sig.length; i++)
    assert.ok(
      !refused.message.includes(sig.slice(i, i + 8)) && !refused.message.includes(encodeURIComponent(sig).slice(i, i + 8)),
      refused.message,
    );
});

test("tdl stress prints no part of a key from a connection string with 'AccountKey <key>'", () => {
  // Issue 10: `unknown setting '<most of the key>'` was printed on stderr.
  const key = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256)).toString("base64");
  for (const cs of [
    `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey ${key};EndpointSuffix=core.windows.net`,
    `AccountName=acct;${key}`,
  ]) {
    const r = spawnSync(
      process.execPath,
      [
        "dist/cli.js",
        "stress",
        "--design",
        "examples/marathon.tdl",
        "--table",
        "Registrations",
        "--connection-string-env",
        "TDL_SECRET_TEST",
        "--duration",
        "1s",
      ],
      { encoding: "utf8", env: { ...process.env, TDL_SECRET_TEST: cs }, timeout: 60_000 },
    );
    const out = r.stdout + r.stderr;
    assert.match(out, /AccountKey|segment 2/, out);
    for (let i = 0; i + 8 <= key.length; i++) assert.ok(!out.includes(key.slice(i, i + 8)), `printed a piece of the key: ${out}`);
  }
});
