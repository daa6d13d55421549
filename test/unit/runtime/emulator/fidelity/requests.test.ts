import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseTablePath, splitTarget } from "@runtime/emulator/fidelity/requests";
import { boundaryOf, parseBatch } from "@runtime/emulator/fidelity/batch";
import { pinnedPartition } from "@runtime/emulator/fidelity/charges";
import { fuzz } from "../../../../helpers/fuzz";

const A = "devstoreaccount1";

test("request targets: table, keys, kind, filter and top, in path-style and absolute form", () => {
  const cases: [string, string, Record<string, unknown>][] = [
    [
      "GET",
      `/${A}/Orders()?$filter=PartitionKey%20eq%20'a'&$top=5`,
      { kind: "query", table: "Orders", filter: "PartitionKey eq 'a'", top: 5 },
    ],
    ["GET", `/${A}/Orders(PartitionKey='it''s',RowKey='r%2F1')`, { kind: "read", table: "Orders", partitionKey: "it's", rowKey: "r/1" }],
    ["DELETE", `http://127.0.0.1:1/${A}/Orders(PartitionKey='a',%20RowKey='b')`, { kind: "delete", partitionKey: "a", rowKey: "b" }],
    ["GET", `/${A}/Tables('Orders')`, { kind: "table" }],
    ["POST", `/${A}/$batch`, { kind: "batch" }],
    ["GET", "/", { kind: "other" }],
    ["GET", "//", { kind: "other" }],
    ["GET", "//evil.example/Orders()", { kind: "other" }],
    ["TRACE", `/${A}/Orders()`, { kind: "other" }],
  ];
  for (const [method, target, expected] of cases) {
    const r = parseTablePath(method, target, A);
    for (const [k, v] of Object.entries(expected)) assert.deepEqual(r[k as keyof typeof r], v, `${method} ${target}: ${k}`);
  }
});

test("a path that is not valid percent-encoding is flagged, not thrown (GET /%zz)", () => {
  for (const target of ["/%zz", `/${A}/Orders(PartitionKey='%E0%A4%A',RowKey='b')`, "/%", "/%%%"]) {
    const r = parseTablePath("GET", target, A);
    assert.equal(r.badUri, true, target);
    assert.equal(r.kind, "other");
  }
  // In the account, a path that names no Table API resource (Azurite answers it with an empty 500).
  for (const target of [
    `/${A}/T(PartitionKey='p',RowKey='`,
    `/${A}/T(PartitionKey='p')`,
    `/${A}/$batch)x`,
    `/${A}/T/U`,
    `/${A}/my-table`,
  ]) {
    assert.equal(parseTablePath("GET", target, A).badUri, true, target);
  }
  for (const target of [`/${A}/`, `/${A}/?restype=service&comp=properties`, `/${A}/T?comp=acl`, `/${A}-secondary/T(x`, "/other/T(x"]) {
    assert.equal(parseTablePath("GET", target, A).badUri, undefined, target);
  }
  // A malformed query string is the service's to refuse, and never throws here.
  assert.equal(parseTablePath("GET", `/${A}/T()?$filter=%zz&$top=%`, A).filter, "%zz");
});

test("entity writes: the JSON body is read; a missing, broken or non-object body is flagged; an Atom body is left alone", () => {
  const ok = parseTablePath("POST", `/${A}/T`, A, JSON.stringify({ PartitionKey: "p", RowKey: "r", V: 1 }));
  assert.deepEqual([ok.kind, ok.partitionKey, ok.rowKey, ok.badBody], ["insert", "p", "r", undefined]);
  for (const body of [undefined, "", "   ", '{"PartitionKey":', "[1]", "5", "null", '"x"']) {
    assert.equal(parseTablePath("POST", `/${A}/T`, A, body).badBody, true, JSON.stringify(body));
    assert.equal(parseTablePath("PUT", `/${A}/T(PartitionKey='a',RowKey='b')`, A, body).badBody, true, JSON.stringify(body));
  }
  assert.equal(parseTablePath("POST", `/${A}/T`, A, "<entry/>", "application/atom+xml").badBody, undefined);
  assert.equal(
    parseTablePath("POST", `/${A}/T`, A, JSON.stringify({ PartitionKey: 5, RowKey: "r" })).partitionKey,
    undefined,
    "a non-string key is not taken for a key",
  );
});

test("splitTarget never throws and drops the origin and the fragment", () => {
  assert.deepEqual(splitTarget("http://h:1/a/b?x=1#f"), { path: "/a/b", query: "x=1" });
  assert.deepEqual(splitTarget("//"), { path: "//", query: "" });
  assert.deepEqual(splitTarget("?only"), { path: "", query: "only" });
});

const part = (cs: string, method: string, url: string, body?: object, extra: string[] = []) =>
  [
    `--${cs}`,
    "Content-Type: application/http",
    "Content-Transfer-Encoding: binary",
    "",
    `${method} ${url} HTTP/1.1`,
    "Content-Type: application/json",
    ...extra,
    "",
    body ? JSON.stringify(body) : "",
  ].join("\r\n");
const batch = (parts: string[], b = "batch_1", cs = "changeset_1") =>
  [`--${b}`, `Content-Type: multipart/mixed; boundary=${cs}`, "", ...parts, `--${cs}--`, `--${b}--`, ""].join("\r\n");

test("a batch body: every operation keeps its index and Content-ID; a part without a request line is kept as malformed", () => {
  const body = batch([
    part("changeset_1", "POST", `http://127.0.0.1:1/${A}/T`, { PartitionKey: "p", RowKey: "1" }, ["Content-ID: 7"]),
    ["--changeset_1", "Content-Type: application/http", "", "this is not a request"].join("\r\n"),
    part("changeset_1", "DELETE", `http://127.0.0.1:1/${A}/T(PartitionKey='p',RowKey='2')`),
  ]);
  const r = parseBatch("multipart/mixed; boundary=batch_1", body, A);
  assert.ok(r.ok);
  assert.deepEqual(
    r.operations.map((o) => [o.index, o.kind, o.rowKey, o.contentId, o.malformed]),
    [
      [0, "insert", "1", "7", undefined],
      [1, "other", undefined, undefined, true],
      [2, "delete", "2", undefined, undefined],
    ],
  );
});

test("a batch body with LF line ends and a quoted boundary reads the same", () => {
  const body = batch([part("cs", "POST", `/${A}/T`, { PartitionKey: "p", RowKey: "1" })], "b", "cs").replace(/\r\n/g, "\n");
  const r = parseBatch('multipart/mixed; boundary="b"', body, A);
  assert.ok(r.ok);
  assert.deepEqual(
    r.operations.map((o) => [o.kind, o.partitionKey]),
    [["insert", "p"]],
  );
});

test("batch bodies that are not one: a clear reason, never a throw", () => {
  const cases: [string, string][] = [
    ["multipart/mixed", "garbage"],
    ["application/json", batch([])],
    ["multipart/mixed; boundary=batch_1", ""],
    ["multipart/mixed; boundary=batch_1", "\u0000\u0001junk--batch_1--"],
    [
      "multipart/mixed; boundary=batch_1",
      "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1--\r\n--batch_1--",
    ],
    ['multipart/mixed; boundary="unterminated', "--x"],
  ];
  for (const [ct, body] of cases) {
    const r = parseBatch(ct, body, A);
    assert.equal(r.ok, false, `${ct} / ${JSON.stringify(body).slice(0, 40)}`);
    if (!r.ok) assert.match(r.reason, /\$batch|change set/);
  }
  // Truncated midway: the operations read so far are kept, the broken one is malformed.
  const truncated = batch([part("changeset_1", "POST", `/${A}/T`, { PartitionKey: "p", RowKey: "1" })]).slice(0, 150);
  const r = parseBatch("multipart/mixed; boundary=batch_1", truncated, A);
  assert.ok(r.ok);
  assert.equal(r.operations.length, 1);
});

test("boundaryOf reads quoted and bare boundaries, case-insensitively, and refuses absurd ones", () => {
  assert.equal(boundaryOf("multipart/mixed; boundary=batch_1"), "batch_1");
  assert.equal(boundaryOf('multipart/mixed; BOUNDARY="a b"; charset=x'), "a b");
  assert.equal(boundaryOf("multipart/mixed; boundary=x;charset=y"), "x");
  assert.equal(boundaryOf("multipart/mixed; boundary="), undefined);
  assert.equal(boundaryOf(`multipart/mixed; boundary=${"x".repeat(300)}`), undefined);
});

test("a pinned partition is read from short filters only, and a filter the parser throws on pins nothing", () => {
  assert.equal(pinnedPartition("PartitionKey eq 'a' and RowKey gt '1'"), "a");
  // `-.` made the parser throw a TypeError, which ended `tdl emulator` (issue 10).
  for (const hostile of ["X eq -.", "PartitionKey eq 'a' and X eq -.", "PartitionKey eq 'a' and " + "(".repeat(20_000)]) {
    assert.equal(pinnedPartition(hostile), undefined, hostile.slice(0, 40));
  }
  // Deep nesting within the length read: pinned or not, depending on the parser's depth limit, but never a throw.
  const deep = "(".repeat(1900) + "PartitionKey eq 'a'" + ")".repeat(1900);
  assert.ok(deep.length <= 4096);
  assert.ok([undefined, "a"].includes(pinnedPartition(deep)));
  assert.doesNotThrow(() => pinnedPartition("not ".repeat(1000) + "(PartitionKey eq 'a')"));
});

test("large hostile inputs are read in linear time", () => {
  const started = performance.now();
  parseTablePath("GET", `/${A}/T(PartitionKey='${"''".repeat(200_000)}`, A);
  parseTablePath("GET", `/${A}/T(PartitionKey='a',RowKey='${"',RowKey='".repeat(50_000)}')`, A);
  parseBatch(`multipart/mixed; boundary="${"a".repeat(100_000)}`, "x", A);
  parseBatch("multipart/mixed; boundary=b", "--b\r\n".repeat(100_000), A);
  parseBatch(
    "multipart/mixed; boundary=b",
    `--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n${"--c\r\n\r\nPOST /T HTTP/1.1\r\n\r\n{}\r\n".repeat(20_000)}--b--`,
    A,
  );
  const ms = performance.now() - started;
  assert.ok(ms < 5000, `${ms.toFixed(0)} ms`);
});

test("fuzz: request targets and batch bodies of any shape never throw", () => {
  const pieces = fc.constantFrom(
    "/",
    "//",
    "%",
    "%zz",
    "%2F",
    "?",
    "#",
    "(",
    ")",
    "'",
    "''",
    ",",
    "=",
    "PartitionKey='",
    "RowKey='",
    "$batch",
    "Tables",
    A,
    "T",
    "\u0000",
    "é",
    "http://h",
    "--b",
    "\r\n",
    "\n",
    "boundary=",
    "POST /T HTTP/1.1",
    "{",
    "}",
    '"',
  );
  const text = fc.array(fc.oneof(pieces, fc.string({ maxLength: 8 })), { maxLength: 40 }).map((a) => a.join(""));
  fuzz(
    "fidelity-requests",
    fc.tuple(fc.constantFrom("GET", "POST", "PUT", "MERGE", "DELETE", "PATCH", "FOO"), text, text, text),
    ([method, target, body, ct]) => {
      parseTablePath(method, target, A, body, ct);
      parseBatch(`multipart/mixed; boundary=${ct}`, body, A);
      parseBatch(ct, target + body, A);
    },
    2000,
  );
});
