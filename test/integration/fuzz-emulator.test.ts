import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { AzureNamedKeyCredential, generateAccountSas, TableClient } from "@azure/data-tables";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { DEV_ACCOUNT, DEV_KEY } from "@runtime/account/connection-string";
import { fuzzAsync, fuzzRuns } from "../helpers/fuzz";
import { rawRequest } from "../helpers/raw-http";

let emu: FidelityEmulator;
const warnings: string[] = [];
before(async () => {
  emu = await FidelityEmulator.start({ warn: (l) => warnings.push(l) });
  await TableClient.fromConnectionString(emu.connectionString, "Fuzz", { allowInsecureConnection: true }).createTable();
});
after(async () => emu?.stop());

const sas = generateAccountSas(new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY), {
  permissions: { add: true, write: true, list: true, delete: true, update: true, query: true },
  expiresOn: new Date(Date.now() + 3600_000),
  resourceTypes: "sco",
});

/** Mostly the given pieces, now and then anything: most requests reach the layer's handlers, some only the HTTP parser. */
const text = (pieces: string[], max = 20, rare: string[] = []) =>
  fc
    .array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...pieces), weight: 150 },
        { arbitrary: fc.oneof(fc.string({ maxLength: 6 }), ...rare.map((r) => fc.constant(r))), weight: 1 },
      ),
      { maxLength: max },
    )
    .map((a) => a.join(""));

const TARGET = [
  "/",
  "//",
  `/${DEV_ACCOUNT}`,
  "/Fuzz",
  "/Fuzz()",
  "/Tables",
  "/$batch",
  "(PartitionKey='",
  "',RowKey='",
  "')",
  "''",
  "%",
  "%zz",
  "%2F",
  "%00",
  "?",
  "$filter=",
  "-.",
  "-.5",
  "(",
  ")",
  "((((((((((",
  "%20eq%20",
  "not%20",
  "&",
  "$top=",
  "1001",
  "-1",
  "abc",
  "#",
  "http://h",
  "%E9",
  "%C3%A9",
  "%FF",
];
/** Bytes HTTP does not allow in a request target (the parser refuses them before any handler). */
const TARGET_RARE = ["é", "\u0000", " ", "\t"];
const NAMES = ["V", "1st", "a-b", "_ok", "n".repeat(256), "PartitionKey", "RowKey", "odata.etag", "V@odata.type", "D@odata.type", "", "é"];
const VALUES: unknown[] = [
  "s",
  1,
  -1.5,
  2 ** 31,
  true,
  null,
  [],
  {},
  "Edm.DateTime",
  "Edm.Int64",
  "Edm.Int32",
  "1600-01-01T00:00:00Z",
  "99999999999999999999",
  "x".repeat(70_000),
];

const entity = fc.dictionary(fc.constantFrom(...NAMES), fc.constantFrom(...VALUES), { maxKeys: 6 }).map((e) => JSON.stringify(e));
const op = fc
  .tuple(fc.constantFrom("POST", "PUT", "MERGE", "DELETE", "GET", "BOGUS"), text(TARGET, 6), entity)
  .map(([m, t, body]) =>
    [
      "--cs",
      "Content-Type: application/http",
      "",
      `${m} http://127.0.0.1/${DEV_ACCOUNT}/Fuzz${t} HTTP/1.1`,
      "Content-Type: application/json",
      "",
      body,
    ].join("\r\n"),
  );
const batchBody = fc.tuple(fc.array(op, { maxLength: 5 }), fc.boolean(), fc.nat(400)).map(([ops, close, cut]) => {
  const whole = ["--b", "Content-Type: multipart/mixed; boundary=cs", "", ...ops, ...(close ? ["--cs--", "--b--"] : [])].join("\r\n");
  return cut > 300 ? whole.slice(0, cut) : whole;
});
const body = fc.oneof(
  fc.constant(""),
  entity,
  batchBody,
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString("latin1")),
);

/** Header names that would change how much body the server waits for: the generator leaves framing to the request builder. */
const FRAMING = /content-length|transfer-encoding|expect|connection/i;
const headerText = fc
  .array(
    fc.tuple(
      fc.oneof(
        {
          arbitrary: fc.constantFrom(
            "Accept",
            "X-Ms-Version",
            "Content-Type",
            "If-Match",
            "X-HTTP-Method",
            "Prefer",
            "Host",
            "DataServiceVersion",
          ),
          weight: 30,
        },
        { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
      ),
      fc.oneof(
        {
          arbitrary: fc.constantFrom(
            "application/json;odata=nometadata",
            "application/json",
            "application/xml",
            "multipart/mixed; boundary=b",
            "*",
            "MERGE",
            "2019-02-02",
            "3.0",
          ),
          weight: 16,
        },
        { arbitrary: fc.oneof(fc.string({ maxLength: 12 }), fc.constant("x".repeat(5000))), weight: 1 },
      ),
    ),
    { maxLength: 5 },
  )
  .map((hs) =>
    hs
      .filter(([n]) => !FRAMING.test(n))
      .map(([n, v]) => `${n.replace(/[\r\n]/g, "")}: ${v.replace(/[\r\n]/g, "")}\r\n`)
      .join(""),
  );

const malformedRequest = fc.record({
  method: fc.oneof(
    { arbitrary: fc.constantFrom("GET", "POST", "PUT", "MERGE", "PATCH", "DELETE", "HEAD", "OPTIONS", "PROPFIND", "TRACE"), weight: 20 },
    { arbitrary: fc.oneof(fc.constantFrom("get", "FOO"), fc.string({ maxLength: 5 })), weight: 1 },
  ),
  // Origin-form mostly (a path from the account on), so that most requests get past the HTTP parser.
  target: fc
    .tuple(
      fc.oneof(
        {
          arbitrary: fc.constantFrom(
            `/${DEV_ACCOUNT}/Fuzz`,
            `/${DEV_ACCOUNT}/Fuzz()`,
            `/${DEV_ACCOUNT}/$batch`,
            `/${DEV_ACCOUNT}/Tables`,
            `/${DEV_ACCOUNT}/Fuzz(PartitionKey='p',RowKey='`,
            `/${DEV_ACCOUNT}/Fuzz()?$filter=`,
            "/",
          ),
          weight: 9,
        },
        { arbitrary: fc.constant(""), weight: 1 },
      ),
      text(TARGET, 20, TARGET_RARE),
    )
    .map(([a, b]) => a + b),
  signed: fc.boolean(),
  version: fc.oneof(
    { arbitrary: fc.constant("HTTP/1.1"), weight: 10 },
    { arbitrary: fc.constantFrom("HTTP/1.0", "HTTP/9.9", ""), weight: 1 },
  ),
  host: fc.oneof({ arbitrary: fc.constant(true), weight: 10 }, { arbitrary: fc.constant(false), weight: 1 }),
  headers: headerText,
  body,
  chunked: fc.boolean(),
});
type MalformedRequest = typeof malformedRequest extends fc.Arbitrary<infer T> ? T : never;

/** The request's bytes: framing always consistent with the body, so every request can be answered without waiting for more. */
function build(r: MalformedRequest): Buffer {
  const target = r.signed ? `${r.target}${r.target.includes("?") ? "&" : "?"}${sas}` : r.target;
  const bodyBytes = Buffer.from(r.body, "latin1");
  const framing = r.chunked ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${bodyBytes.length}\r\n`;
  const payload = r.chunked
    ? Buffer.concat([
        Buffer.from(bodyBytes.length ? `${bodyBytes.length.toString(16)}\r\n` : ""),
        bodyBytes,
        Buffer.from(bodyBytes.length ? "\r\n0\r\n\r\n" : "0\r\n\r\n"),
      ])
    : bodyBytes;
  const head = `${r.method} ${target} ${r.version}\r\n${r.host ? "Host: 127.0.0.1\r\n" : ""}${r.headers}${framing}Connection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), payload]);
}

test("fuzz: hundreds of malformed requests over real HTTP; each gets a status (errors with a code), and the emulator still serves", async (t) => {
  let sent = 0;
  const statuses = new Map<number, number>();
  await fuzzAsync(
    "fuzz-emulator",
    malformedRequest,
    async (r) => {
      const a = await rawRequest(emu.port, build(r), { timeoutMs: 10_000 });
      sent++;
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      if (a.status === 0) throw new Error(`no answer to ${JSON.stringify(build(r).toString("latin1").slice(0, 300))}`);
      if (a.status >= 400 && !a.headers["x-ms-error-code"]) throw new Error(`${a.status} without x-ms-error-code: ${a.body.slice(0, 200)}`);
    },
    300,
  );
  const c = TableClient.fromConnectionString(emu.connectionString, "Fuzz", {
    allowInsecureConnection: true,
    retryOptions: { maxRetries: 0 },
  });
  await c.upsertEntity({ partitionKey: "after", rowKey: "fuzz", V: 1 });
  assert.equal((await c.getEntity("after", "fuzz")).V, 1);
  assert.equal(emu.stats.internalErrors, 0, warnings.join("\n"));
  assert.ok(sent >= Math.min(300, fuzzRuns(300)));
  t.diagnostic(
    `${sent} malformed requests survived (${emu.stats.malformed} refused by the HTTP parser); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)))}`,
  );
});
