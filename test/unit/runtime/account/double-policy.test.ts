/**
 * Whole-number Doubles keep their type: the response body gets an
 * `Edm.Double` annotation beside each unannotated number written with a
 * point or an exponent, and a body without one is passed on untouched.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { annotateDoubles } from "@runtime/account/double-policy";

const page = (entity: string) => `{"odata.metadata":"x","value":[{"PartitionKey":"p","RowKey":"1",${entity}}]}`;
const typesOf = (body: string) => (JSON.parse(body) as { value: Array<Record<string, unknown>> }).value[0];

test("numbers with a point or an exponent, spaced or not, signed or not, are Doubles; integers and annotated values are left", () => {
  const out = typesOf(annotateDoubles(page(`"A":5.0,"B": -2.5E-3,"C":1e3,"D":7,"E":"1.5","F":2.0,"F@odata.type":"Edm.Double"`)));
  assert.equal(out["A@odata.type"], "Edm.Double");
  assert.equal(out["B@odata.type"], "Edm.Double");
  assert.equal(out["C@odata.type"], "Edm.Double");
  assert.equal(out["D@odata.type"], undefined);
  assert.equal(out["E@odata.type"], undefined);
  assert.equal(Object.keys(out).filter((k) => k === "F@odata.type").length, 1);
});

test("a page without a decimal number is returned as it came, though its text holds points and e's", () => {
  const body = page(`"Timestamp":"2026-11-25T07:05:12.3456789Z","Note":"see 1.5 and 2e3: here","Email":"a.b@example.com","N":12`);
  assert.equal(annotateDoubles(body), body);
});
