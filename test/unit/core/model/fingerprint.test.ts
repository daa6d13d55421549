/**
 * The design fingerprint (core/model/fingerprint.ts): its SHA-256 agrees with
 * node:crypto on any text (ASCII, astral characters, lone surrogates, every
 * padding boundary), and the fingerprint ignores comments and spacing but not
 * a changed width, a changed service or a changed query.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { designFingerprint, sha256 } from "@core";
import { fuzz } from "../../../helpers/fuzz";

const nodeSha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

test("sha256 agrees with node:crypto: the known vectors, the padding boundaries and random text", () => {
  assert.equal(sha256(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  for (let n = 50; n <= 130; n++) assert.equal(sha256("x".repeat(n)), nodeSha256("x".repeat(n)), `length ${n}`);
  fuzz("sha256", fc.string({ unit: "binary", maxLength: 300 }), (s) => sha256(s) === nodeSha256(s), 300);
});

const TABLE = `table Orders {
  Customer: string(20)
  Seq:      int(0..99999)
  partitionKey = Customer
  rowKey       = pad(Seq, 5)
  query ByCustomer where Customer = ?
}`;

test("a table's fingerprint ignores comments, spacing and line ends, and changes with the keys, the queries and the service", () => {
  const base = designFingerprint({ text: TABLE }, "azure-table");
  assert.match(base, /^[0-9a-f]{64}$/);
  const reformatted = TABLE.replace(/ +/g, " ").replace(/\n/g, "\r\n  // a note\r\n");
  assert.equal(designFingerprint({ text: reformatted }, "azure-table"), base);
  assert.notEqual(designFingerprint({ text: TABLE.replace("pad(Seq, 5)", "pad(Seq, 6)") }, "azure-table"), base);
  assert.notEqual(designFingerprint({ text: TABLE.replace("query ByCustomer", "query ByBuyer") }, "azure-table"), base);
  assert.notEqual(designFingerprint({ text: TABLE }, "cosmos-table"), base);
});
