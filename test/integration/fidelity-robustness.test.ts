import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { AzureNamedKeyCredential, generateAccountSas, TableClient } from "@azure/data-tables";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { DEV_ACCOUNT, DEV_KEY } from "@runtime/account/connection-string";
import { tableName } from "../helpers/azurite";
import { RawAnswer, rawRequest } from "../helpers/raw-http";

let emu: FidelityEmulator;
const warnings: string[] = [];
before(async () => {
  emu = await FidelityEmulator.start({ warn: (l) => warnings.push(l) });
});
after(async () => emu?.stop());

const A = DEV_ACCOUNT;
const sas = () =>
  generateAccountSas(new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY), {
    permissions: { add: true, write: true, list: true, delete: true, update: true, query: true },
    expiresOn: new Date(Date.now() + 3600_000),
    resourceTypes: "sco",
  });
const client = (t: string) =>
  TableClient.fromConnectionString(emu.connectionString, t, { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } });
const get = (target: string, headers: Record<string, string> = {}) =>
  rawRequest(
    emu.port,
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json;odata=nometadata\r\nConnection: close\r\n${Object.entries(
      headers,
    )
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}\r\n`,
  );
const send = (method: string, target: string, body: string, headers: Record<string, string> = {}) => {
  const all = { "Content-Type": "application/json", ...headers };
  return rawRequest(
    emu.port,
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json;odata=nometadata\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${Object.entries(
      all,
    )
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}\r\n${body}`,
  );
};

/** An error answer in the service's shape: a status, an x-ms-error-code, and a body naming the same code. */
function assertServiceError(a: RawAnswer, status: number, code?: string): void {
  assert.equal(a.status, status, `${a.status} ${a.body.slice(0, 200)}`);
  assert.ok(a.headers["x-ms-error-code"], `x-ms-error-code on ${a.status}`);
  if (code) assert.equal(a.headers["x-ms-error-code"], code);
  if (/json/.test(a.headers["content-type"] ?? ""))
    assert.equal((JSON.parse(a.body) as { "odata.error": { code: string } })["odata.error"].code, a.headers["x-ms-error-code"]);
  else assert.match(a.body, new RegExp(`<[Cc]ode>${a.headers["x-ms-error-code"]}</[Cc]ode>`));
}

/** The emulator still serves a normal client. */
async function stillServes(): Promise<void> {
  const t = tableName("rob");
  await client(t).createTable();
  await client(t).createEntity({ partitionKey: "p", rowKey: "r", V: 1 });
  assert.equal((await client(t).getEntity("p", "r")).V, 1);
}

test("filters that threw in the parser (`-.`, deep nesting) are answered, signed or not, and the emulator goes on (it exited before)", async () => {
  const t = tableName("rob");
  await client(t).createTable();
  for (const filter of [
    "X eq -.",
    "PartitionKey eq 'a' and X eq -.5 or Y eq -.",
    "(".repeat(1800) + "X eq 1" + ")".repeat(1800),
    "not ".repeat(1500) + "X",
  ]) {
    const unsigned = await get(`/${A}/${t}()?$filter=${encodeURIComponent(filter)}`);
    assertServiceError(unsigned, 403);
    const signed = await get(`/${A}/${t}()?$filter=${encodeURIComponent(filter)}&${sas()}`);
    assert.ok(signed.status === 200 || signed.status === 400, `${signed.status}`);
    if (signed.status === 400) assertServiceError(signed, 400);
  }
  await stillServes();
});

test("malformed URLs: bad percent-encoding is 400 InvalidUri; `//` and absurd query strings get a coded error", async () => {
  assertServiceError(await get("/%zz"), 400, "InvalidUri");
  assertServiceError(await get(`/${A}/T(PartitionKey='%E0%A4%A',RowKey='b')?${sas()}`), 400, "InvalidUri");
  const slashes = await get("//");
  assert.ok(slashes.status >= 400 && slashes.headers["x-ms-error-code"], `// → ${slashes.status}`);
  assertServiceError(await get(`/${A}/T()?${"&".repeat(4000)}$top=abc&${sas()}`), 400, "InvalidInput");
  assertServiceError(await get(`/${A}/T()?$top=-1&${sas()}`), 400, "InvalidInput");
  const xml = await rawRequest(emu.port, "GET /%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  assert.equal(xml.headers["content-type"], "application/xml;charset=utf-8", "without a JSON Accept, the error is XML");
  assertServiceError(xml, 400, "InvalidUri");
  await stillServes();
});

test("requests the HTTP parser refuses, unknown methods and a missing Host are answered in the service's shape", async () => {
  assertServiceError(await rawRequest(emu.port, `FOO /${A}/T() HTTP/1.1\r\nHost: x\r\n\r\n`), 400, "InvalidHttpVerb");
  assertServiceError(
    await rawRequest(emu.port, `PROPFIND /${A}/T() HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    405,
    "UnsupportedHttpVerb",
  );
  assertServiceError(
    await rawRequest(emu.port, `GET /${A}/Tables HTTP/1.1\r\nConnection: close\r\n\r\n`),
    400,
    "HostInformationNotPresent",
  );
  assertServiceError(
    await rawRequest(emu.port, `GET /${A}/Tables HTTP/1.1\r\nHost: x\r\nX-Huge: ${"h".repeat(20_000)}\r\n\r\n`),
    400,
    "InvalidInput",
  );
  assertServiceError(await rawRequest(emu.port, `GET /${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 400, "InvalidInput");
  assertServiceError(await rawRequest(emu.port, "\u0000\u0001\u0002 garbage\r\n\r\n"), 400, "InvalidHttpVerb");
  assertServiceError(await rawRequest(emu.port, "GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n"), 400, "InvalidInput");
  assertServiceError(await rawRequest(emu.port, `POST /${A}/T HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`), 400, "InvalidInput");
  await stillServes();
});

test("bodies: broken JSON is 400 InvalidInput and nothing is written; a body over 4 MiB is 413, declared or not", async () => {
  const t = tableName("rob");
  await client(t).createTable();
  for (const body of ['{"PartitionKey":', "", "[1,2]", "\u0000"])
    assertServiceError(await send("POST", `/${A}/${t}?${sas()}`, body), 400, "InvalidInput");
  assertServiceError(await send("POST", `/${A}/${t}?${sas()}`, "x".repeat(4 * 1024 * 1024 + 1)), 413, "RequestBodyTooLarge");
  const chunk = "x".repeat(1024 * 1024);
  const chunked =
    `POST /${A}/${t}?${sas()} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
    `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(5) +
    "0\r\n\r\n";
  assertServiceError(await rawRequest(emu.port, chunked), 413, "RequestBodyTooLarge");
  let n = 0;
  for await (const _ of client(t).listEntities()) n++;
  assert.equal(n, 0);
  await stillServes();
});

test("batches that are not one get a coded error, never a hang or an exit", async () => {
  const h = (ct: string) => ({ "Content-Type": ct, "x-ms-version": "2019-02-02" });
  const cases: [string, string][] = [
    ["multipart/mixed", "garbage"],
    ["multipart/mixed; boundary=batch_1", ""],
    ["multipart/mixed; boundary=batch_1", "\u0000\u0001junk--batch_1--"],
    ["application/json", "{}"],
  ];
  for (const [ct, body] of cases) assertServiceError(await send("POST", `/${A}/$batch?${sas()}`, body, h(ct)), 400, "InvalidInput");
  // Truncated midway through an operation: 202 with the operation's error inside, as the service answers a bad operation.
  const truncated = [
    "--batch_1",
    "Content-Type: multipart/mixed; boundary=changeset_1",
    "",
    "--changeset_1",
    "Content-Type: application/http",
    "",
    `POST http://x/${A}/T HTTP/1.1`,
    "Content-Type: application/json",
    "",
    '{"PartitionKey":"p","Row',
  ].join("\r\n");
  const a = await send("POST", `/${A}/$batch?${sas()}`, truncated, h("multipart/mixed; boundary=batch_1"));
  assert.equal(a.status, 202);
  assert.match(a.body, /HTTP\/1\.1 400 Bad Request[\s\S]*"code":"InvalidInput"[\s\S]*"value":"0:/);
  await stillServes();
});

test("a client that leaves midway — while sending, or while the upstream answers — leaves the emulator serving", async () => {
  const t = tableName("rob");
  await client(t).createTable();
  const body = JSON.stringify({ PartitionKey: "p", RowKey: "half", S: "x".repeat(100_000) });
  const head = `POST /${A}/${t}?${sas()} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  await rawRequest(emu.port, head + body, { abortAfterBytes: head.length + 1000 });
  // A query whose answer is large: the client reads the status line, then goes.
  for (let i = 0; i < 5; i++) await client(t).createEntity({ partitionKey: "p", rowKey: `r${i}`, S: "y".repeat(30_000) });
  await new Promise<void>((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: emu.port,
        path: `/${A}/${t}()?${sas()}`,
        headers: { accept: "application/json;odata=nometadata", "x-ms-version": "2019-02-02" },
      },
      (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      },
    );
    req.on("error", () => resolve());
    req.end();
  });
  await Promise.all(
    Array.from({ length: 20 }, () => rawRequest(emu.port, `GET /${A}/${t}() HTTP/1.1\r\nHost: x\r\n\r\n`, { abortAfterBytes: 10 })),
  );
  await stillServes();
  assert.deepEqual(warnings, [], "no internal error was logged");
});

test("Azurite gone: every request is a 500 InternalError in the service's shape, the layer stays up", async () => {
  const other = await FidelityEmulator.start();
  try {
    await other.azurite.stop();
    const a = await rawRequest(
      other.port,
      `GET /${A}/Tables?${sas()} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
    );
    assertServiceError(a, 500, "InternalError");
    assert.match(JSON.parse(a.body)["odata.error"].message.value, /did not answer: ECONNREFUSED/);
    const c = TableClient.fromConnectionString(other.connectionString, "gone", {
      allowInsecureConnection: true,
      retryOptions: { maxRetries: 0 },
    });
    await assert.rejects(c.createEntity({ partitionKey: "p", rowKey: "r" }), (e: { statusCode?: number }) => e.statusCode === 500);
    assert.deepEqual(other.stats, { requests: 2, malformed: 0, internalErrors: 0 }, "answered, not failed");
  } finally {
    await other.stop();
  }
});
