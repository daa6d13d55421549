/**
 * What every agent tool checks before it works: its input against its
 * schema (validate.ts), and that a path stays inside the workspace
 * (inputs.ts) — by its words, and after links are followed.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { checkInput } from "@agent-tools/validate";
import { insideWorkspace } from "@agent-tools/inputs";
import type { JsonSchema } from "@agent-tools";

const SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    filter: { type: "string", maxLength: 10 },
    limit: { type: "integer", minimum: 1, maximum: 1000 },
    mode: { type: "string", enum: ["a", "b"] },
    paths: { type: "array", maxItems: 2, items: { type: "string" } },
    rules: { type: "object", additionalProperties: { type: "string", enum: ["off", "error"] } },
    n: { anyOf: [{ type: "number" }, { type: "null" }] },
  },
  required: ["filter"],
  additionalProperties: false,
};

test("an input is refused with the sentence that names what is wrong", () => {
  const refused = (input: unknown, pattern: RegExp) => assert.throws(() => checkInput(SCHEMA, input), pattern);
  refused({}, /input needs 'filter'/);
  refused({ filter: 1 }, /input.filter must be a string, not integer/);
  refused({ filter: "x".repeat(11) }, /input.filter is 11 characters long; at most 10 are taken/);
  refused({ filter: "x", limit: 1.5 }, /input.limit must be a whole number, not number/);
  refused({ filter: "x", limit: 1001 }, /input.limit must be at most 1,000/);
  refused({ filter: "x", mode: "c" }, /input.mode must be one of "a", "b"/);
  refused({ filter: "x", paths: ["a", "b", "c"] }, /input.paths holds more than 2 items/);
  refused({ filter: "x", paths: ["a", 2] }, /input.paths\[1\] must be a string/);
  refused({ filter: "x", rules: { "key/too-long": "loud" } }, /input.rules.key\/too-long must be one of "off", "error"/);
  refused({ filter: "x", n: "1" }, /input.n must be a number, not string/);
  refused({ filter: "x", __proto__: 1, other: 1 }, /unknown property 'other'/);
  refused({ filter: "x", toString: "y" }, /unknown property 'toString'/);
  refused([], /input must be an object, not array/);
  assert.deepEqual(checkInput(SCHEMA, { filter: "x", limit: 5, n: null, rules: { a: "off" } }), {
    filter: "x",
    limit: 5,
    n: null,
    rules: { a: "off" },
  });
});

const root = mkdtempSync(path.join(tmpdir(), "tdl-inputs-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("a path inside the workspace is its real file; outside by its words or through a link, it is refused", () => {
  const ws = path.join(root, "ws");
  mkdirSync(path.join(ws, "designs"), { recursive: true });
  writeFileSync(path.join(ws, "designs", "a.tdl"), "");
  writeFileSync(path.join(root, "secret.tdl"), "");
  symlinkSync(path.join(root, "secret.tdl"), path.join(ws, "out.tdl"));
  symlinkSync(root, path.join(ws, "up"));
  assert.equal(insideWorkspace(ws, "designs/a.tdl"), path.join(ws, "designs", "a.tdl"));
  assert.equal(insideWorkspace(ws, path.join(ws, "designs", "a.tdl")), path.join(ws, "designs", "a.tdl"));
  for (const p of ["../secret.tdl", path.join(root, "secret.tdl"), "out.tdl", "up/secret.tdl", "designs/../../secret.tdl", ".", ""])
    assert.throws(() => insideWorkspace(ws, p), /outside the workspace/, p);
  assert.throws(() => insideWorkspace(ws, "designs/none.tdl"), /'designs\/none.tdl' does not exist in the workspace/);
  assert.equal(insideWorkspace(ws, "designs/new.tdl", true), path.join(ws, "designs", "new.tdl"));
  assert.throws(() => insideWorkspace(ws, "up/new.tdl", true), /outside the workspace/);
  assert.throws(() => insideWorkspace(ws, "nofolder/new.tdl", true), /the folder of 'nofolder\/new.tdl' does not exist/);
  assert.throws(() => insideWorkspace("", "a.tdl"), /no workspace folder is open/);
  assert.throws(() => insideWorkspace(ws, "a\0b"), /NUL/);
});
