/**
 * The explorer's error sentences: every Table service code it knows gets a
 * sentence without the raw answer in it (the answer goes to `details`), a
 * RowKey with `#` is named as such, unknown answers still read as a
 * sentence, and no key or SAS signature survives into message or details.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { AccountError } from "@runtime";
import { explain, EXPLAINED_CODES, PanelError } from "@client/explorer/service-errors";
import { fuzz } from "../../helpers/fuzz";

const body = (code: string, value: string) => JSON.stringify({ "odata.error": { code, message: { lang: "en-US", value } } });
/** `explain`'s answer, which for a service's answer is a PanelError. */
const panel = (e: Error): PanelError => {
  assert.ok(e instanceof PanelError, `${e.name}: ${e.message}`);
  return e;
};
const answered = (status: number, code: string, value = "An error occurred while processing this request.") =>
  new AccountError(`the service answered ${status} ${code}: ${body(code, value)}`, code, status);

test("400 OutOfRangeInput on a RowKey with '#': the sentence names the character; the answer is behind details", () => {
  const e = panel(
    explain(answered(400, "OutOfRangeInput", "The 'RowKey' parameter of value 'order#7' is out of range."), {
      table: "Orders",
      row: { partitionKey: "p1", rowKey: "order#7" },
    }),
  );
  assert.equal(e.kind, "input");
  assert.equal(
    e.message,
    "the RowKey contains '#', which keys may not hold (forbidden: / \\ # ? and control characters): change the RowKey and try again",
  );
  assert.match(e.details!, /^HTTP 400 OutOfRangeInput\nThe 'RowKey' parameter of value 'order#7' is out of range\.\n\n\{"odata\.error"/);
});

test("a control character in a PartitionKey is named by its code point", () => {
  const e = explain(answered(400, "InvalidInput"), { row: { partitionKey: "a\u0001b", rowKey: "r" } });
  assert.match(e.message, /^the PartitionKey contains the control character U\+0001, which keys may not hold/);
});

test("every code of the table gives a sentence without the raw answer", () => {
  for (const code of EXPLAINED_CODES) {
    const e = panel(
      explain(answered(code === "ServerBusy" ? 503 : 400, code), {
        table: "Orders",
        filter: "Age gt 3",
        row: { partitionKey: "p", rowKey: "r" },
      }),
    );
    assert.equal(e.kind, code === "ServerBusy" ? "unavailable" : "input", code);
    assert.ok(e.message.length > 20 && !/[{}]|odata|HTTP \d/.test(e.message), `${code}: ${e.message}`);
    assert.ok(e.details?.startsWith(`HTTP ${code === "ServerBusy" ? 503 : 400} ${code}\n`), `${code}: ${e.details}`);
  }
});

test("an unknown code still reads as a sentence; a 403 keeps the account layer's own sentence", () => {
  const e = panel(explain(answered(409, "SomethingNew")));
  assert.equal(e.message, "the service refused the request (HTTP 409 SomethingNew): see the details for its answer");
  assert.equal(e.kind, "refused");
  const denied = explain(
    new AccountError("the SAS token does not grant read (sp=a): create one with r", "AuthorizationPermissionMismatch", 403),
  );
  assert.equal(denied.message, "the SAS token does not grant read (sp=a): create one with r");
});

test("a bug is not explained away: it comes back as it was, with its stack, for the host to log as internal", () => {
  const bug = new TypeError("cannot read properties of undefined (reading 'rowKey')");
  assert.equal(explain(bug, { table: "Orders" }), bug);
  const aborted = panel(explain(Object.assign(new Error("This operation was aborted"), { name: "AbortError" })));
  assert.equal(aborted.kind, "refused");
});

test("neither message nor details carries an account key or a SAS signature (fuzzed answers)", () => {
  const KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  const SIG = "sig=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A%3D";
  fuzz(
    "panel-service-errors",
    fc.tuple(
      fc.string({ maxLength: 200 }),
      fc.constantFrom("InvalidInput", "Nope", "ServerBusy", "TableNotFound"),
      fc.integer({ min: 400, max: 599 }),
    ),
    ([noise, code, status]) => {
      const leaky = `${noise} AccountKey=${KEY}; https://acct.table.core.windows.net/t?sv=2024&${SIG} ${noise}`;
      const e = explain(new AccountError(`the service answered ${status} ${code}: ${body(code, leaky)}`, code, status), {
        table: "Orders",
      });
      assert.ok(e instanceof PanelError);
      for (const text of [e.message, (e as PanelError).details ?? ""]) {
        assert.ok(!text.includes(KEY) && !text.includes(SIG.slice(4)), text);
      }
    },
    200,
  );
});
