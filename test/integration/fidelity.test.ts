import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createRequire } from "node:module";
import {
  AzureNamedKeyCredential,
  generateAccountSas,
  RestError,
  TableClient,
  TableTransaction,
  TransactionAction,
} from "@azure/data-tables";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { DEV_ACCOUNT, DEV_KEY } from "@runtime/account/connection-string";
import { tableName } from "../helpers/azurite";

/**
 * The SDK's own reader of batch responses (not exported by its package: loaded
 * by file), so a raw batch's answer is judged exactly as `submitTransaction` judges it.
 */
const { parseTransactionResponse } = createRequire(__filename)(
  path.resolve("node_modules/@azure/data-tables/dist/commonjs/TableTransaction.js"),
) as { parseTransactionResponse: (r: { status: number; bodyAsText: string }) => unknown };

let emu: FidelityEmulator;
let recordFile: string;
before(async () => {
  recordFile = path.join(mkdtempSync(path.join(tmpdir(), "tdl-record-")), "traffic.jsonl");
  emu = await FidelityEmulator.start({ scale: 0.1, record: recordFile });
});
after(async () => emu?.stop());

const client = (t: string, via: "proxy" | "direct" = "proxy") =>
  TableClient.fromConnectionString(via === "proxy" ? emu.connectionString : emu.azurite.connectionString, t, {
    allowInsecureConnection: true,
    retryOptions: { maxRetries: 0 },
  });

async function status(p: Promise<unknown>): Promise<{ status: number; code?: string }> {
  try {
    await p;
    return { status: 200 };
  } catch (e) {
    const err = e as { statusCode?: number; details?: { errorCode?: string }; code?: string };
    return { status: err.statusCode ?? 0, code: err.details?.errorCode ?? err.code };
  }
}

async function count(t: string): Promise<number> {
  let n = 0;
  for await (const _ of client(t, "direct").listEntities()) n++;
  return n;
}

const sas = () =>
  generateAccountSas(new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY), {
    permissions: { add: true, write: true, list: true, delete: true, update: true, query: true },
    expiresOn: new Date(Date.now() + 3600_000),
    resourceTypes: "sco",
  });

/** A raw `$batch` whose two inserts name different partitions (the SDK refuses to send one). */
function rawBatch(endpoint: string, t: string): { url: string; init: RequestInit } {
  const b = "batch_" + Date.now();
  const cs = "changeset_" + Date.now();
  const part = (pk: string, rk: string) =>
    [
      `--${cs}`,
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "",
      `POST ${endpoint}/${t} HTTP/1.1`,
      "Content-Type: application/json",
      "Accept: application/json;odata=minimalmetadata",
      "Prefer: return-no-content",
      "DataServiceVersion: 3.0",
      "",
      JSON.stringify({ PartitionKey: pk, RowKey: rk, V: 1 }),
    ].join("\r\n");
  const body = [
    `--${b}`,
    `Content-Type: multipart/mixed; boundary=${cs}`,
    "",
    part("a", "1"),
    part("b", "2"),
    `--${cs}--`,
    `--${b}--`,
    "",
  ].join("\r\n");
  return {
    url: `${endpoint}/$batch?${sas()}`,
    init: {
      method: "POST",
      body,
      headers: {
        "content-type": `multipart/mixed; boundary=${b}`,
        "x-ms-version": "2019-02-02",
        DataServiceVersion: "3.0",
        accept: "application/json",
      },
    },
  };
}

test("a raw $batch across partitions: Azurite writes it; the layer answers as Azure does (202, the failing index inside) and writes nothing", async () => {
  const t = tableName("fid");
  await client(t).createTable();
  const direct = rawBatch(emu.azurite.endpoint, t);
  const d = await fetch(direct.url, direct.init);
  assert.equal(d.status, 202);
  const writtenDirectly = await count(t);
  assert.ok(writtenDirectly >= 1, "Azurite accepted a cross-partition batch");
  const viaProxy = rawBatch(emu.endpoint, t);
  const p = await fetch(viaProxy.url, viaProxy.init);
  assert.equal(p.status, 202);
  assert.match(p.headers.get("content-type") ?? "", /^multipart\/mixed; boundary=batchresponse_/);
  const text = await p.text();
  assert.match(text, /HTTP\/1\.1 400 Bad Request/);
  // What the SDK makes of it, with the SDK's own reader of batch responses.
  assert.throws(
    () => parseTransactionResponse({ status: p.status, bodyAsText: text }),
    (e: RestError) =>
      e.name === "RestError" &&
      e.statusCode === 400 &&
      e.code === "CommandsInBatchActOnDifferentPartitions" &&
      /^1:All commands in a batch must operate on same entity group\./.test(e.message),
  );
  assert.equal(await count(t), writtenDirectly, "nothing more was written");
});

/** What `submitTransaction` rejected with: the SDK's error class, status, code and the failing index its message starts with. */
async function transactionFailure(p: Promise<unknown>): Promise<{ name: string; status?: number; code?: string; index?: number } | "ok"> {
  try {
    await p;
    return "ok";
  } catch (e) {
    const err = e as RestError;
    const index = /^(\d+):/.exec(err.message)?.[1];
    return { name: err.name, status: err.statusCode, code: err.code, index: index === undefined ? undefined : Number(index) };
  }
}

test("submitTransaction through the layer rejects with the SDK's RestError, the failing operation's index and Azure's code; nothing is written", async () => {
  const t = tableName("fid");
  await client(t).createTable();
  await client(t).createEntity({ partitionKey: "x", rowKey: "exists" });
  const c = (rk: string, extra: Record<string, unknown> = {}): TransactionAction => ["create", { partitionKey: "x", rowKey: rk, ...extra }];
  const cases: [string, TransactionAction[], number, string][] = [
    ["forbidden key character", [c("1"), c("a#b")], 1, "OutOfRangeInput"],
    ["property over 64 KiB", [c("1", { S: "s".repeat(40_000) })], 0, "PropertyValueTooLarge"],
    [
      "entity over 1 MiB",
      [c("1"), c("2"), c("3", Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`P${i}`, "x".repeat(31_000)])))],
      2,
      "EntityTooLarge",
    ],
    ["property name starting with a digit", [c("1"), c("2"), c("3", { "1st": 1 })], 2, "PropertyNameInvalid"],
    ["property name with a hyphen", [c("1", { "a-b": 1 })], 0, "PropertyNameInvalid"],
    ["property name of 256 characters", [c("1"), c("2", { ["n".repeat(256)]: 1 })], 1, "PropertyNameTooLong"],
    ["DateTime before 1601", [c("1"), c("2", { D: new Date("1600-06-01T00:00:00Z") })], 1, "OutOfRangeInput"],
    ["Int32 out of range", [c("1", { I: { value: 2 ** 31, type: "Int32" } })], 0, "InvalidInput"],
    ["Int64 out of range", [c("1"), c("2", { L: { value: "9223372036854775808", type: "Int64" } })], 1, "InvalidInput"],
    ["the same entity twice", [c("1"), ["delete", { partitionKey: "x", rowKey: "1" }]], 1, "InvalidDuplicateRow"],
    ["over 100 operations", Array.from({ length: 101 }, (_, i) => c(`m${i}`)), 0, "InvalidInput"],
    ["an entity that exists (Azurite's own refusal, passed through)", [c("1"), c("exists")], 1, "EntityAlreadyExists"],
  ];
  for (const [name, actions, index, code] of cases) {
    const f = await transactionFailure(client(t).submitTransaction(actions));
    assert.notEqual(f, "ok", name);
    assert.deepEqual(f, { name: "RestError", status: code === "EntityAlreadyExists" ? 409 : 400, code, index }, name);
  }
  assert.equal(await count(t), 1, "only the entity written before");
  assert.equal(
    await transactionFailure(
      client(t).submitTransaction([
        c("ok1"),
        c("ok2", { When: new Date("1601-01-01T00:00:00Z"), N: { value: "-9223372036854775808", type: "Int64" } }),
      ]),
    ),
    "ok",
  );
});

test("the same entities one by one: Azure's codes on the layer, accepted by Azurite", async () => {
  const t = tableName("fid");
  await client(t).createTable();
  const cases: [Record<string, unknown>, string][] = [
    [{ "9lives": 1 }, "PropertyNameInvalid"],
    [{ "kebab-case": 1 }, "PropertyNameInvalid"],
    [{ ["n".repeat(256)]: 1 }, "PropertyNameTooLong"],
    [{ D: new Date("1600-12-31T23:59:59Z") }, "OutOfRangeInput"],
    [{ I: { value: -(2 ** 31) - 1, type: "Int32" } }, "InvalidInput"],
    [{ L: { value: "99999999999999999999", type: "Int64" } }, "InvalidInput"],
  ];
  for (const [i, [props, code]] of cases.entries()) {
    assert.deepEqual(await status(client(t).createEntity({ partitionKey: "p", rowKey: `r${i}`, ...props })), { status: 400, code }, code);
    assert.deepEqual(
      await status(client(t, "direct").createEntity({ partitionKey: "p", rowKey: `r${i}`, ...props })),
      { status: 200 },
      `Azurite takes ${code}`,
    );
    assert.deepEqual(
      await status(client(t).upsertEntity({ partitionKey: "p", rowKey: `r${i}`, ...props })),
      { status: 400, code },
      `upsert: ${code}`,
    );
  }
});

test("entities over 1 MiB, over 252 properties, forbidden key characters and pages over 1,000 are rejected before writing", async () => {
  const t = tableName("fid");
  await client(t).createTable();
  const big = Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`P${i}`, "x".repeat(31_000)]));
  assert.deepEqual(
    await status(client(t, "direct").createEntity({ partitionKey: "p", rowKey: "direct-big", ...big })),
    { status: 200 },
    "Azurite accepts an entity over 1 MiB",
  );
  assert.deepEqual(await status(client(t).createEntity({ partitionKey: "p", rowKey: "big", ...big })), {
    status: 400,
    code: "EntityTooLarge",
  });
  const wide = Object.fromEntries(Array.from({ length: 253 }, (_, i) => [`P${i}`, i]));
  assert.deepEqual(await status(client(t).createEntity({ partitionKey: "p", rowKey: "wide", ...wide })), {
    status: 400,
    code: "TooManyProperties",
  });
  assert.deepEqual(await status(client(t).createEntity({ partitionKey: "a/b", rowKey: "slash" })), {
    status: 400,
    code: "OutOfRangeInput",
  });
  assert.deepEqual(await status(client(t).createEntity({ partitionKey: "p", rowKey: "tab\there" })), {
    status: 400,
    code: "OutOfRangeInput",
  });
  assert.deepEqual(await status(client(t).listEntities().byPage({ maxPageSize: 2000 }).next()), { status: 400, code: "InvalidInput" });
  const left: string[] = [];
  for await (const e of client(t, "direct").listEntities()) left.push(e.rowKey!);
  assert.deepEqual(left, ["direct-big"]);
  assert.deepEqual(
    await status(client(t).createEntity({ partitionKey: "p", rowKey: "fine", V: 1 })),
    { status: 200 },
    "a valid entity passes unchanged",
  );
});

test("signed requests pass through unchanged: the SDK and a raw HTTP client get what Azurite answers", async () => {
  const t = tableName("fid");
  await client(t).createTable();
  await client(t).createEntity({ partitionKey: "p", rowKey: "r", Name: "it's", Count: 3 });
  const path = `/${t}(PartitionKey='p',RowKey='r')?${sas()}`;
  const headers = { accept: "application/json;odata=nometadata", "x-ms-version": "2019-02-02" };
  const [direct, proxied] = await Promise.all([fetch(emu.azurite.endpoint + path, { headers }), fetch(emu.endpoint + path, { headers })]);
  assert.equal(proxied.status, 200);
  const strip = (o: Record<string, unknown>) => {
    delete o.Timestamp;
    return o;
  };
  assert.deepEqual(strip((await proxied.json()) as Record<string, unknown>), strip((await direct.json()) as Record<string, unknown>));
  assert.deepEqual(
    await client(t)
      .getEntity("p", "r")
      .then((e) => [e.Name, e.Count]),
    ["it's", 3],
  );
});

test("a hot partition is throttled at a small scale; the same rate over many partitions is not", async () => {
  const t = tableName("fid");
  await client(t).createTable();
  const run = async (pk: (i: number) => string) => {
    const results = await Promise.all(
      Array.from({ length: 600 }, (_, i) => status(client(t).createEntity({ partitionKey: pk(i), rowKey: `r${i}` }))),
    );
    return results.filter((r) => r.status === 503 && r.code === "ServerBusy").length;
  };
  // A target of 50/s (scale 0.025): a loaded machine that sends fewer than 200 inserts a second still overruns it.
  emu.setThrottle({ scale: 0.025, burstSeconds: 1 });
  const started = Date.now();
  const hot = await run(() => "hot").finally(() => emu.setThrottle("default"));
  const admitted = 600 - hot;
  const seconds = (Date.now() - started) / 1000;
  // A full bucket (50) plus what refills at 50/s while the requests arrive.
  assert.ok(
    hot > 100 && admitted <= 50 + 50 * seconds + 5,
    `${hot} of 600 inserts on one partition throttled in ${seconds} s (target 50/s at scale 0.025)`,
  );
  await new Promise((r) => setTimeout(r, 1100));
  const spread = await run((i) => `p${i % 60}`);
  assert.equal(spread, 0);
});

test("a batch counts its entities and a query the entities it scans", async () => {
  const t = tableName("fid");
  await client(t).createTable();
  await new Promise((r) => setTimeout(r, 1100));
  const batch = (from: number) => {
    const tx = new TableTransaction();
    for (let i = 0; i < 100; i++) tx.createEntity({ partitionKey: "q", rowKey: String(from + i).padStart(4, "0") });
    return status(client(t).submitTransaction(tx.actions));
  };
  assert.deepEqual(await batch(0), { status: 200 });
  assert.deepEqual(await batch(100), { status: 200 }, "200 tokens: two batches of 100 pass");
  assert.deepEqual(await batch(200), { status: 503, code: "ServerBusy" }, "the third finds the partition's bucket empty");
  await new Promise((r) => setTimeout(r, 1100));
  const query = () =>
    status(
      client(t)
        .listEntities({ queryOptions: { filter: "PartitionKey eq 'q'" } })
        .byPage()
        .next(),
    );
  assert.deepEqual(await query(), { status: 200 }, "a scan of the 200 entities written fits a refilled bucket");
  assert.deepEqual(await query(), { status: 503, code: "ServerBusy" }, "a second scan right after does not");
});

test("traffic is recorded one JSON line per second, per partition key", async () => {
  await new Promise((r) => setTimeout(r, 1200));
  const lines = readFileSync(recordFile, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { t: number; partitions: Record<string, { reads: number; writes: number; throttled: number }> });
  assert.ok(lines.length >= 3);
  for (const l of lines) {
    assert.equal(l.t % 1000, 0);
    for (const p of Object.values(l.partitions)) assert.deepEqual(Object.keys(p), ["reads", "writes", "throttled"]);
  }
  assert.ok(
    lines.every((l, i) => i === 0 || l.t > lines[i - 1].t),
    "one line per second, in order",
  );
  const hot = lines.flatMap((l) => Object.entries(l.partitions)).filter(([k]) => k.endsWith("/hot"));
  assert.ok(hot.reduce((s, [, p]) => s + p.throttled, 0) > 100);
  assert.ok(hot.reduce((s, [, p]) => s + p.writes, 0) >= 50);
});

test("the emulator starts and stops cleanly: Azurite stopped, both ports freed", async () => {
  const other = await FidelityEmulator.start();
  const ports = [other.port, other.azurite.port];
  const pid = other.pid;
  await other.stop();
  assert.throws(() => process.kill(pid, 0));
  for (const port of ports) {
    await new Promise<void>((resolve, reject) => {
      const s = createConnection({ host: "127.0.0.1", port });
      s.once("connect", () => {
        s.destroy();
        reject(new Error(`port ${port} still open`));
      });
      s.once("error", () => resolve());
    });
  }
});
