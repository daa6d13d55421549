import { test } from "node:test";
import assert from "node:assert/strict";
import { batchFailureAnswer, codeForStatus, errorAnswer } from "@runtime/emulator/fidelity/answers";

const e = { status: 400, code: "PropertyNameInvalid", message: "The property name is invalid." };

test("an error answer is JSON odata.error for a JSON Accept, at the odata level asked for", () => {
  const a = errorAnswer(e, "application/json;odata=nometadata", "2020-12-06");
  assert.equal(a.status, 400);
  assert.equal(a.headers["x-ms-error-code"], "PropertyNameInvalid");
  assert.equal(a.headers["x-ms-version"], "2020-12-06");
  assert.equal(a.headers["content-type"], "application/json;odata=nometadata;streaming=true;charset=utf-8");
  assert.equal(a.headers["content-length"], Buffer.byteLength(a.body));
  const body = JSON.parse(a.body) as { "odata.error": { code: string; message: { lang: string; value: string } } };
  assert.equal(body["odata.error"].code, "PropertyNameInvalid");
  assert.match(
    body["odata.error"].message.value,
    /^The property name is invalid\.\nRequestId:[0-9a-f-]{36}\nTime:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/,
  );
  assert.ok(body["odata.error"].message.value.includes(String(a.headers["x-ms-request-id"])));
});

test("an error answer is OData XML when the client does not ask for JSON, with its text escaped", () => {
  const a = errorAnswer({ ...e, message: "a <b> & 'c'" }, "application/atom+xml");
  assert.equal(a.headers["content-type"], "application/xml;charset=utf-8");
  assert.match(
    a.body,
    /^<\?xml version="1\.0" encoding="utf-8"\?><error xmlns="http:\/\/schemas\.microsoft\.com\/ado\/2007\/08\/dataservices\/metadata"><code>PropertyNameInvalid<\/code><message xml:lang="en-US">a &#60;b&#62; &#38; &#39;c&#39;\nRequestId:/,
  );
  assert.equal(errorAnswer(e).headers["content-type"], "application/xml;charset=utf-8", "no Accept at all: XML");
});

test("an echoed x-ms-version that could break the header is replaced", () => {
  assert.equal(errorAnswer(e, "", "2019-02-02\r\nX-Evil: 1").headers["x-ms-version"], "2019-02-02");
  assert.equal(errorAnswer(e, "", "x".repeat(100)).headers["x-ms-version"], "2019-02-02");
});

test("a failed batch: 202, one change set response with the failing status line and an error whose message starts with the index", () => {
  const a = batchFailureAnswer({
    index: 2,
    contentId: "3",
    status: 400,
    code: "CommandsInBatchActOnDifferentPartitions",
    message: "All commands in a batch must operate on same entity group.",
  });
  assert.equal(a.status, 202);
  const boundary = /^multipart\/mixed; boundary=(batchresponse_[0-9a-f-]{36})$/.exec(String(a.headers["content-type"]))?.[1];
  assert.ok(boundary);
  assert.equal(a.headers["x-ms-error-code"], undefined, "the batch itself was accepted");
  const lines = a.body.split("\r\n");
  assert.equal(lines[0], `--${boundary}`);
  const cs = /^Content-Type: multipart\/mixed; boundary=(changesetresponse_[0-9a-f-]{36})$/.exec(lines[1])?.[1];
  assert.ok(cs);
  assert.deepEqual(lines.slice(3, 8), [
    `--${cs}`,
    "Content-Type: application/http",
    "Content-Transfer-Encoding: binary",
    "",
    "HTTP/1.1 400 Bad Request",
  ]);
  assert.ok(lines.includes("Content-ID: 3"));
  const json = lines.find((l) => l.startsWith("{"))!;
  const err = JSON.parse(json) as { "odata.error": { code: string; message: { value: string } } };
  assert.equal(err["odata.error"].code, "CommandsInBatchActOnDifferentPartitions");
  assert.match(err["odata.error"].message.value, /^2:All commands in a batch must operate on same entity group\.\nRequestId:/);
  assert.deepEqual(lines.slice(-3), [`--${cs}--`, `--${boundary}--`, ""]);
  // A Content-ID that would break the part's headers is not echoed.
  assert.ok(!batchFailureAnswer({ index: 0, contentId: "1\r\nX: y", ...e }).body.includes("X: y"));
});

test("codes for bare statuses are the service's", () => {
  assert.deepEqual(
    [400, 404, 405, 413, 500, 503, 502].map((s) => codeForStatus(s).code),
    ["InvalidInput", "ResourceNotFound", "UnsupportedHttpVerb", "RequestBodyTooLarge", "InternalError", "ServerBusy", "InternalError"],
  );
});
