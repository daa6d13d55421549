/**
 * The conformance table of docs/emulator-conformance.md, measured: each
 * behaviour's request goes to Azurite directly and through the fidelity
 * layer, and the doc's "Azurite" and "Fidelity layer" columns must say what
 * came back. (Azure's column is from the service's documentation and cannot
 * be measured here.)
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { AzureNamedKeyCredential, generateAccountSas, TableClient } from "@azure/data-tables";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { DEV_ACCOUNT, DEV_KEY } from "@runtime/account/connection-string";
import { RawAnswer, rawRequest } from "../helpers/raw-http";

const A = DEV_ACCOUNT;
let emu: FidelityEmulator;
before(async () => {
  emu = await FidelityEmulator.start({ scale: 0.1 });
  for (const t of ["Conf", "Conf2", "Paging"])
    await TableClient.fromConnectionString(emu.azurite.connectionString, t, { allowInsecureConnection: true }).createTable();
});
after(async () => emu?.stop());

const sas = generateAccountSas(new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY), {
  permissions: { add: true, write: true, list: true, delete: true, update: true, query: true },
  expiresOn: new Date(Date.now() + 3600_000),
  resourceTypes: "sco",
});

interface Req {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: string;
  raw?: string;
}
type Measure = (port: number, run: string) => Promise<string>;
type Make = (rk: string, port: number) => Req;

let unique = 0;
const JSON_HEADERS = { Accept: "application/json;odata=nometadata", "Content-Type": "application/json", "x-ms-version": "2019-02-02" };

function bytes(port: number, r: Req): Promise<RawAnswer> {
  if (r.raw !== undefined) return rawRequest(port, r.raw);
  const body = r.body ?? "";
  const headers = {
    Host: "127.0.0.1",
    Connection: "close",
    "Content-Length": String(Buffer.byteLength(body)),
    ...JSON_HEADERS,
    ...r.headers,
  };
  const head = `${r.method} ${r.target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
  // The body as UTF-8 (its Content-Length counts those bytes); the head is ASCII.
  return rawRequest(port, Buffer.concat([Buffer.from(head, "latin1"), Buffer.from(body, "utf8")]));
}

/** `201`, `400 PropertyNameInvalid`, `500 (no code)`; for a batch `202 → #1: 400 Code` or `202 applied`. */
function summary(a: RawAnswer): string {
  if (!a.status) return "no answer";
  if (/^multipart\/mixed/.test(a.headers["content-type"] ?? "")) {
    const failed = /HTTP\/1\.1 ([45]\d\d)[^]*?"code":"(\w+)"[^]*?"value":"(\d+):/.exec(a.body);
    return failed ? `${a.status} → #${failed[3]}: ${failed[1]} ${failed[2]}` : `${a.status} applied`;
  }
  if (a.status < 400) return String(a.status);
  const code = a.headers["x-ms-error-code"] ?? /"code":"(\w+)"|<[Cc]ode>(\w+)</.exec(a.body)?.slice(1).find(Boolean);
  return `${a.status} ${code ?? "(no code)"}`;
}

const one =
  (make: Make): Measure =>
  async (port) =>
    summary(await bytes(port, make(`r${unique++}`, port)));
const insert = (props: Record<string, unknown>) =>
  one((rk) => ({ method: "POST", target: `/${A}/Conf?${sas}`, body: JSON.stringify({ PartitionKey: "p", RowKey: rk, ...props }) }));
const query = (q: string) => one(() => ({ method: "GET", target: `/${A}/Conf()?${q}&${sas}` }));

/** A `$batch` as the SDK writes one (sub-request URLs name the port the batch goes to). */
function batchOf(
  port: number,
  ops: { table?: string; pk: string; rk: string; props?: object; method?: string }[],
  cut?: number,
  [b, cs] = ["batch_1", "changeset_1"],
): Req {
  const parts = ops.map((o) => {
    const url = `http://127.0.0.1:${port}/${A}/${o.table ?? "Conf"}`;
    const line =
      o.method === "DELETE"
        ? [`DELETE ${url}(PartitionKey='${o.pk}',RowKey='${o.rk}') HTTP/1.1`, "If-Match: *"]
        : [`POST ${url} HTTP/1.1`, "Prefer: return-no-content"];
    return [
      `--${cs}`,
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "",
      ...line,
      "Content-Type: application/json",
      "Accept: application/json;odata=minimalmetadata",
      "DataServiceVersion: 3.0",
      "",
      o.method === "DELETE" ? "" : JSON.stringify({ PartitionKey: o.pk, RowKey: o.rk, ...o.props }),
    ].join("\r\n");
  });
  const body = [`--${b}`, `Content-Type: multipart/mixed; boundary=${cs}`, "", ...parts, `--${cs}--`, `--${b}--`, ""].join("\r\n");
  return {
    method: "POST",
    target: `/${A}/$batch?${sas}`,
    headers: { "Content-Type": `multipart/mixed; boundary=${b}`, DataServiceVersion: "3.0" },
    body: cut ? body.slice(0, cut) : body,
  };
}
const batch = (make: (rk: string) => Parameters<typeof batchOf>[1], cut?: number): Measure =>
  one((rk, port) => batchOf(port, make(rk), cut));

/** Each behaviour of the doc's table, by its first cell. */
const CASES: [string, Measure][] = [
  ["Property name starting with a digit", insert({ "1st": 1 })],
  ["Property name with a hyphen", insert({ "a-b": 1 })],
  ["Property name of 256 characters", insert({ ["n".repeat(256)]: 1 })],
  ["Edm.DateTime before 1601-01-01", insert({ D: "1600-12-31T23:59:59Z", "D@odata.type": "Edm.DateTime" })],
  ["Edm.DateTime after 9999-12-31", insert({ D: "+010000-01-01T00:00:00Z", "D@odata.type": "Edm.DateTime" })],
  ["Edm.Int32 out of range", insert({ I: 2 ** 31, "I@odata.type": "Edm.Int32" })],
  ["Edm.Int64 out of range", insert({ L: "9223372036854775808", "L@odata.type": "Edm.Int64" })],
  [
    "PartitionKey that is not a string",
    one((rk) => ({ method: "POST", target: `/${A}/Conf?${sas}`, body: JSON.stringify({ PartitionKey: 5, RowKey: rk }) })),
  ],
  [
    "Forbidden key character",
    one((rk) => ({ method: "POST", target: `/${A}/Conf?${sas}`, body: JSON.stringify({ PartitionKey: "p", RowKey: `${rk}#x` }) })),
  ],
  [
    "Key over 1 KiB",
    one((rk) => ({
      method: "POST",
      target: `/${A}/Conf?${sas}`,
      body: JSON.stringify({ PartitionKey: "p", RowKey: rk.padEnd(513, "k") }),
    })),
  ],
  ["String property over 64 KiB", insert({ S: "s".repeat(32 * 1024 + 1) })],
  ["More than 252 properties", insert(Object.fromEntries(Array.from({ length: 253 }, (_, i) => [`P${i}`, i])))],
  ["Entity over 1 MiB", insert(Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`P${i}`, "x".repeat(31_000)])))],
  ["Body that is not JSON", one(() => ({ method: "POST", target: `/${A}/Conf?${sas}`, body: '{"PartitionKey":' }))],
  ["Query with $top over 1,000", query("$top=1001")],
  ["Query with $top not a number", query("$top=abc")],
  ["Filter with `-.`", query(`$filter=${encodeURIComponent("V gt -.")}`)],
  ["Filter nested 1,800 deep", query(`$filter=${encodeURIComponent("(".repeat(1800) + "V eq 1" + ")".repeat(1800))}`)],
  [
    "Valid batch",
    batch((rk) => [
      { pk: "p", rk: `${rk}a` },
      { pk: "p", rk: `${rk}b` },
    ]),
  ],
  [
    "Batch across partitions",
    batch((rk) => [
      { pk: "p", rk },
      { pk: "q", rk },
    ]),
  ],
  [
    "Batch across tables",
    batch((rk) => [
      { pk: "p", rk: `${rk}a` },
      { table: "Conf2", pk: "p", rk: `${rk}b` },
    ]),
  ],
  [
    "Batch changing one entity twice",
    batch((rk) => [
      { pk: "p", rk },
      { pk: "p", rk, method: "DELETE" },
    ]),
  ],
  ["Batch of 101 operations", batch((rk) => Array.from({ length: 101 }, (_, i) => ({ pk: "p", rk: `${rk}-${i}` })))],
  [
    "Batch with a bad property name in operation 2",
    batch((rk) => [
      { pk: "p", rk: `${rk}a` },
      { pk: "p", rk: `${rk}b` },
      { pk: "p", rk: `${rk}c`, props: { "x-y": 1 } },
    ]),
  ],
  [
    "Valid batch whose boundaries are not named batch_… and changeset_…",
    one((rk, port) => batchOf(port, [{ pk: "p", rk }], undefined, ["b", "cs"])),
  ],
  [
    "Batch body without a boundary",
    one((rk, port) => ({ ...batchOf(port, [{ pk: "p", rk }]), headers: { "Content-Type": "multipart/mixed" } })),
  ],
  ["Batch cut off midway", batch((rk) => [{ pk: "p", rk }], 200)],
  ["Batch insert of a value holding a raw U+2028", batch((rk) => [{ pk: "p", rk, props: { S: "line\u2028separator" } }])],
  ["Batch delete of a RowKey that starts with a comma", batch((rk) => [{ pk: "p", rk: `,${rk}`, method: "DELETE" }])],
  ["Path with bad percent-encoding (`GET /%zz`)", one(() => ({ method: "GET", target: "/%zz" }))],
  [
    "Entity path cut off (`T(PartitionKey='p',RowKey='`)",
    one(() => ({ method: "GET", target: `/${A}/Conf(PartitionKey='p',RowKey='?${sas}` })),
  ],
  ["Empty path (`GET //`)", one(() => ({ method: "GET", target: "//" }))],
  ["Unsupported method (PROPFIND)", one(() => ({ method: "PROPFIND", target: `/${A}/Conf()?${sas}` }))],
  ["Unknown method token (`FOO`)", one(() => ({ method: "", target: "", raw: `FOO /${A}/Tables HTTP/1.1\r\nHost: x\r\n\r\n` }))],
  [
    "No Host header",
    one(() => ({
      method: "",
      target: "",
      raw: `GET /${A}/Tables?${sas} HTTP/1.1\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
    })),
  ],
  ["Headers over 16 KiB", one(() => ({ method: "GET", target: `/${A}/Tables?${sas}`, headers: { "X-Big": "h".repeat(17_000) } }))],
  [
    "Body over 4 MiB",
    one((rk) => ({
      method: "POST",
      target: `/${A}/Conf?${sas}`,
      body: JSON.stringify({ PartitionKey: "p", RowKey: rk, S: "s".repeat(4 * 1024 * 1024) }),
    })),
  ],
  ["Unauthenticated request", one(() => ({ method: "GET", target: `/${A}/Tables` }))],
  [
    "Four batches of 100 on one partition at once (scale 0.1)",
    async (port, run) => {
      // Sent together: 400 entities arrive within milliseconds at a partition whose bucket holds 200 (scale 0.1).
      const pk = `hot-${run}-${port}`;
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, b) =>
          bytes(
            port,
            batchOf(
              port,
              Array.from({ length: 100 }, (_, i) => ({ pk, rk: `${b}-${i}` })),
            ),
          ),
        ),
      );
      const summaries = answers.map(summary);
      return summaries.find((x) => x.startsWith("503")) ?? summaries[0];
    },
  ],
  [
    "Query of 1,001 entities without $top",
    async (port) => {
      const a = await bytes(port, { method: "GET", target: `/${A}/Paging()?${sas}` });
      const n = a.status === 200 ? (JSON.parse(a.body) as { value: unknown[] }).value.length : -1;
      return `${a.status}: ${n} entities${a.headers["x-ms-continuation-nextpartitionkey"] ? " + continuation" : ""}`;
    },
  ],
];

/** The doc's rows: first cell → [Azure, Azurite, Fidelity layer]. */
function docRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync("docs/emulator-conformance.md", "utf8").split("\n")) {
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length === 4 && !/^-+$/.test(cells[0]) && cells[0] !== "Behaviour") rows.set(cells[0], cells.slice(1));
  }
  return rows;
}

test("the conformance table says what Azurite and the fidelity layer answer, row by row", async (t) => {
  const paging = TableClient.fromConnectionString(emu.azurite.connectionString, "Paging", { allowInsecureConnection: true });
  for (let b = 0; b < 11; b++)
    await paging.submitTransaction(
      Array.from(
        { length: b < 10 ? 100 : 1 },
        (_, i) => ["create", { partitionKey: `p${b}`, rowKey: String(i) }] as ["create", { partitionKey: string; rowKey: string }],
      ),
    );
  const rows = docRows();
  const measured: string[] = [];
  const wrong: string[] = [];
  for (const [behaviour, measure] of CASES) {
    const azurite = await measure(emu.azurite.port, "direct");
    const ours = await measure(emu.port, "layer");
    measured.push(`| ${behaviour} | ${rows.get(behaviour)?.[0] ?? "?"} | ${azurite} | ${ours} |`);
    const doc = rows.get(behaviour);
    if (!doc) wrong.push(`no row for "${behaviour}"`);
    else if (doc[1] !== azurite || doc[2] !== ours)
      wrong.push(`"${behaviour}": the doc says Azurite ${doc[1]}, layer ${doc[2]}; measured ${azurite}, ${ours}`);
  }
  for (const behaviour of rows.keys())
    if (!CASES.some(([b]) => b === behaviour)) wrong.push(`the doc's row "${behaviour}" is not measured`);
  t.diagnostic(`measured:\n${measured.join("\n")}`);
  assert.deepEqual(wrong, [], `measured rows:\n${measured.join("\n")}`);
});
