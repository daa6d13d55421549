import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { RestError } from "@azure/data-tables";
import type { ExtensionContext } from "vscode";
import { redact } from "@runtime/account/redact";
import { isLoopbackHost } from "@runtime/account/loopback";
import { parseSas, sasTimeProblem } from "@runtime/account/sas";
import { missingGrant, operationOf } from "@runtime/account/sas-grants";
import { cleanConnection, interpretConnectionInput, readSasToken } from "@runtime/account/connection-input";
import { toAccountError } from "@runtime/account/errors";
import { VsCodeConnectionStore } from "@client/vscode/connection-store";
import { ConnectionInfo } from "@protocol/entities";

const KEY = createHash("sha512").update("secrets.test key").digest("base64");
const SIG = encodeURIComponent(createHash("sha256").update("secrets.test sig").digest("base64"));
const SAS = `sv=2020-08-04&ss=t&srt=sco&sp=rl&se=2099-01-01T00%3A00%3A00Z&sig=${SIG}`;

function assertNoPiece(text: string, secret: string, context = ""): void {
  for (let i = 0; i + 8 <= secret.length; i++)
    assert.ok(!text.includes(secret.slice(i, i + 8)), `${context}: '${text}' holds a piece of the secret at ${i}`);
}

test("redact removes keys, SAS tokens and bearer tokens in every shape the SDK or a user produces", () => {
  const shapes = [
    `DefaultEndpointsProtocol=https;AccountName=a;AccountKey=${KEY};EndpointSuffix=core.windows.net`,
    `AccountKey ${KEY}`,
    `accountkey: "${KEY}"`,
    `{"AccountKey":"${KEY}"}`,
    `the key ${KEY} was rejected`,
    `AccountKey=${KEY.slice(0, 20)}`,
    `AccountKey ${KEY.slice(0, 20)}`,
    `SharedAccessSignature=${SAS};TableEndpoint=https://a.table.core.windows.net`,
    `GET https://a.table.core.windows.net/Tables?${SAS} failed`,
    `request to "https://a.table.core.windows.net/t()?${SAS}"`,
    `token ?${SAS}`,
    `token ${SAS}`,
    `https://x/y?sp=r&SIG=${SIG}&se=1`,
    `url=https%3A%2F%2Fa%2F%3Fsv%3D1%26sig%3D${SIG}`,
    `Authorization: Bearer ${KEY.replace(/[+/=]/g, "")}.${KEY.slice(3, 40).replace(/[+/=]/g, "")}`,
  ];
  for (const text of shapes) {
    const out = redact(text);
    assertNoPiece(out, KEY, text);
    assertNoPiece(out, SIG, text);
    assert.equal(redact(out), out, `idempotent: ${text}`);
  }
  assert.equal(redact(`GET https://a.table.core.windows.net/Tables?${SAS} failed`), "GET https://a.table.core.windows.net/Tables?… failed");
  assert.equal(redact(`AccountName=a;AccountKey=${KEY};EndpointSuffix=x`), "AccountName=a;AccountKey=…;EndpointSuffix=x");
});

test("redact leaves messages without secrets as they are", () => {
  const plain = [
    "the account key was rejected (the request signature does not match): copy the key again from the portal's Access keys",
    "AccountKey (segment 3) needs '=' between the name and the value: write AccountKey=…, not a space or a colon",
    "the connection string has no AccountKey and no SharedAccessSignature: add one of them",
    "the SAS token may not insert an entity: it lacks the permission 'a' (add) in sp (it has sp=rl); create a token that grants it",
    "nothing answers at 127.0.0.1:10002 (connection refused): is the emulator or the endpoint up?",
    "partition 'p1' holds 40 of 50 entities",
    "Age: 'old' is not a 32-bit integer",
    "stress0a1b2c3d4e",
    "https://myaccount.table.core.windows.net/Tables('Registrations')",
  ];
  for (const text of plain) assert.equal(redact(text), text);
});

test("redact runs in linear time on a 1 MB line", () => {
  const started = performance.now();
  for (const line of [
    "a".repeat(1_000_000),
    "sig".repeat(333_333),
    "AccountKey ".repeat(90_000),
    "?a=b&".repeat(200_000),
    `${KEY}x`.repeat(11_000),
  ])
    redact(line);
  assert.ok(performance.now() - started < 5000, `took ${Math.round(performance.now() - started)} ms`);
});

test("local means a loopback address parsed as one, not a name that starts with 127", () => {
  const cases: Array<[string, boolean]> = [
    ["127", false],
    ["127.table.core.windows.net", false],
    ["127.0.0.1.nip.io", false],
    ["localhost.example.com", false],
    ["a.localhost", false],
    ["128.0.0.1", false],
    ["0.0.0.0", false],
    ["::2", false],
    ["::ffff:10.0.0.1", false],
    ["", false],
    ["127.256.0.1", false],
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["127.255.255.255", true],
    ["[::1]", true],
    ["::1", true],
    ["localhost", true],
    ["LOCALHOST.", true],
    // What a URL reads as 127.0.0.1 is where the request goes: these are loopback too.
    ["0x7f.1", true],
    ["127.1", true],
    ["2130706433", true],
    ["0177.0.0.1", true],
    ["::ffff:127.0.0.1", true],
  ];
  for (const [host, expected] of cases) assert.equal(isLoopbackHost(host), expected, host);
});

test("SAS tokens: times and grants read from the token; expired and not-yet-valid get their own message", () => {
  const sas = parseSas(`?sv=2020-08-04&ss=t&srt=sco&sp=rl&st=2026-01-01&se=2026-02-01T10%3A00%3A00Z&sig=${SIG}`)!;
  assert.deepEqual(
    { ...sas, expiresOn: sas.expiresOn?.toISOString(), startsOn: sas.startsOn?.toISOString() },
    {
      expiresOn: "2026-02-01T10:00:00.000Z",
      startsOn: "2026-01-01T00:00:00.000Z",
      permissions: "rl",
      resourceTypes: "sco",
      services: "t",
      table: undefined,
    },
  );
  assert.equal(parseSas("sv=2020&sp=r"), undefined);
  assert.match(sasTimeProblem(sas, new Date("2026-03-01"))!.message, /^the SAS token expired on 2026-02-01T10:00:00Z: create a new one/);
  assert.match(sasTimeProblem(sas, new Date("2025-12-31"))!.message, /^the SAS token is not valid before 2026-01-01T00:00:00Z/);
  assert.equal(sasTimeProblem(sas, new Date("2026-01-15")), undefined);
  assert.equal(sasTimeProblem(sas, new Date("2026-02-01T10:04:00Z"), 5 * 60_000), undefined, "within the clock-skew margin");

  assert.match(missingGrant(sas, "insertEntity")!, /may not insert an entity: it lacks the permission 'a' \(add\) in sp \(it has sp=rl\)/);
  assert.match(missingGrant(sas, "upsertEntity")!, /lacks the permission 'a' \(add\) and 'u' \(update\)/);
  assert.match(missingGrant(sas, "createTable")!, /'c' \(create\) or 'w' \(write\) or 'a' \(add\)/);
  assert.equal(missingGrant(sas, "listTables"), undefined);
  assert.match(
    missingGrant({ ...sas, resourceTypes: "s" }, "queryEntities")!,
    /lacks the resource type 'o' \(object, i\.e\. entities\) in srt \(it has srt=s\)/,
  );
  assert.match(missingGrant({ ...sas, services: "bq" }, "queryEntities")!, /not for the Table service/);
  assert.match(
    missingGrant({ permissions: "r", table: "Orders" }, "listTables")!,
    /a table SAS for 'Orders' only, which cannot list tables/,
  );

  const url = "https://a.table.core.windows.net";
  assert.deepEqual(
    [
      ["GET", `${url}/Tables`],
      ["POST", `${url}/Tables`],
      ["DELETE", `${url}/Tables('t')`],
      ["GET", `${url}/t()`],
      ["GET", `${url}/t(PartitionKey='a',RowKey='b')`],
      ["POST", `${url}/t`],
      ["DELETE", `${url}/t(PartitionKey='a',RowKey='b')`],
      ["PUT", `${url}/t(PartitionKey='a',RowKey='b')`],
      ["POST", `${url}/$batch`],
    ].map(([m, u]) => operationOf(m, u, false)),
    ["listTables", "createTable", "deleteTable", "queryEntities", "getEntity", "insertEntity", "deleteEntity", "upsertEntity", "batch"],
  );
  assert.equal(operationOf("PUT", `${url}/t(PartitionKey='a',RowKey='b')`, true), "updateEntity");
});

test("toAccountError strips the SAS the SDK echoes and names what a refused SAS lacks", () => {
  const request = { url: `https://a.table.core.windows.net/t?${SAS}`, method: "POST", headers: { get: () => undefined } };
  const headers = { get: (n: string) => (n === "x-ms-error-code" ? "AuthorizationPermissionMismatch" : undefined) };
  const refused = new RestError(`This request is not authorized. ${request.url}`, {
    statusCode: 403,
    request: request as never,
    response: { headers, status: 403, request } as never,
  });
  const message = toAccountError(refused, "https://a.table.core.windows.net", 1000).message;
  assert.match(message, /^the SAS token may not insert an entity: it lacks the permission 'a' \(add\)/);
  const other = new RestError(`Bad request to ${request.url} with AccountKey=${KEY}`, { statusCode: 400, request: request as never });
  const text = toAccountError(other, "https://a.table.core.windows.net", 1000).message;
  assertNoPiece(text, SIG, "400");
  assertNoPiece(text, KEY, "400");
  assert.match(text, /^the service answered 400: Bad request to https:\/\/a\.table\.core\.windows\.net\/t\?… with AccountKey=…$/);
});

test("a SAS pasted as a URL, in a connection string or on its own is split off; what is shown has no query", () => {
  const pasted = interpretConnectionInput(`https://acct.table.core.windows.net/?${SAS}`, "entra-id");
  assert.deepEqual(pasted, {
    kind: "sas",
    endpoint: "https://acct.table.core.windows.net",
    accountName: "acct",
    secret: { sasToken: SAS },
  });
  const tableUrl = interpretConnectionInput(`https://acct.table.core.windows.net/Orders?${SAS}`);
  assert.deepEqual([tableUrl.kind, tableUrl.endpoint], ["sas", "https://acct.table.core.windows.net"]);
  assert.deepEqual(interpretConnectionInput(" https://acct.table.core.windows.net/ ", "entra-id"), {
    kind: "entra-id",
    endpoint: "https://acct.table.core.windows.net",
    accountName: "acct",
    secret: {},
  });
  const cs = `TableEndpoint=https://acct.table.core.windows.net/?${SAS}`;
  assert.deepEqual(interpretConnectionInput(cs), {
    kind: "connection-string",
    endpoint: "https://acct.table.core.windows.net",
    accountName: "acct",
    secret: { connectionString: cs },
  });
  assert.throws(() => interpretConnectionInput("https://acct.table.core.windows.net/?code=1"), /query string that is not a SAS token/);
  assert.equal(readSasToken(`?${SAS}`), SAS);
  assert.equal(readSasToken(`https://acct.table.core.windows.net/?${SAS}`), SAS);
  assert.throws(() => readSasToken("sv=2020&sp=r"), /not a SAS token/);
  assert.throws(() => readSasToken(SAS.replace("2099", "2001")), /the SAS token expired on 2001-01-01T00:00:00Z/);
  assert.deepEqual(cleanConnection({ id: "1", name: "n", kind: "entra-id", endpoint: `https://acct.table.core.windows.net?${SAS}` }), {
    info: { id: "1", name: "n", kind: "entra-id", endpoint: "https://acct.table.core.windows.net" },
    sas: SAS,
  });
});

/** VS Code's global state and secret storage, in memory (the store under test is the real one). */
function memoryContext(initial: ConnectionInfo[]) {
  const state = new Map<string, unknown>([["tableDesign.connections", initial]]);
  const secrets = new Map<string, string>();
  const context = {
    globalState: {
      get: (k: string, d?: unknown) => (state.has(k) ? state.get(k) : d),
      update: async (k: string, v: unknown) => void state.set(k, v),
    },
    secrets: {
      get: async (k: string) => secrets.get(k),
      store: async (k: string, v: string) => void secrets.set(k, v),
      delete: async (k: string) => void secrets.delete(k),
    },
  };
  return { context: context as unknown as ExtensionContext, state, secrets };
}

test("the VS Code store keeps endpoints without their SAS, moves a pasted or previously stored SAS into secret storage", async () => {
  // Issue 10: a SAS pasted into the "Table endpoint" box was stored verbatim in global state and shown.
  const old: ConnectionInfo = { id: "old", name: "Old", kind: "entra-id", endpoint: `https://acct.table.core.windows.net/?${SAS}` };
  const { context, state, secrets } = memoryContext([old]);
  const store = new VsCodeConnectionStore(context);
  assert.deepEqual(store.list(), [{ ...old, endpoint: "https://acct.table.core.windows.net" }]);
  await store.ready();
  assert.deepEqual(state.get("tableDesign.connections"), [{ ...old, kind: "sas", endpoint: "https://acct.table.core.windows.net" }]);
  assert.deepEqual(await store.secret("old"), { sasToken: SAS });

  await store.save({ id: "new", name: "New", kind: "sas", endpoint: `https://other.table.core.windows.net?${SAS}` }, { sasToken: SAS });
  assert.deepEqual(
    store.list().map((c) => c.endpoint),
    ["https://acct.table.core.windows.net", "https://other.table.core.windows.net"],
  );
  const visible = JSON.stringify(state.get("tableDesign.connections"));
  assertNoPiece(visible, SIG, "global state");
  assert.ok([...secrets.values()].every((v) => v.includes(SIG)));
  await store.remove("old");
  assert.deepEqual([...secrets.keys()], ["tableDesign.connections.new"]);
});
