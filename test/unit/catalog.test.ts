/**
 * The rule records are the one source of what a rule is: docs/rules.md's
 * tables and the SARIF rule metadata come from them, and every rule module
 * has a test file named after it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { FAMILIES } from "@core";
import { ruleAnchor } from "@core";
import { catalog, sarifRule, withCurrentTables } from "@cli/catalog";

test("docs/rules.md's rule tables are the ones the records generate (npm run docs:rules)", () => {
  const doc = readFileSync("docs/rules.md", "utf8");
  assert.equal(withCurrentTables(doc), doc, "run npm run docs:rules and commit docs/rules.md");
});

test("every record has a unique code, a family of the catalog and docs that say when and why", () => {
  const codes = catalog().map((r) => r.code);
  assert.deepEqual(
    codes.filter((c, i) => codes.indexOf(c) !== i),
    [],
  );
  for (const r of catalog()) {
    assert.ok(FAMILIES.includes(r.family), r.code);
    assert.ok(r.docs.summary.length > 10 && r.docs.why.length > 10, r.code);
  }
  // The catalog covers the spec's codes.
  for (const code of [
    "syntax",
    "internal",
    "key/unpadded-number",
    "partition/hot",
    "query/class",
    "ts/query-class",
    "ts/read-before-write",
  ])
    assert.ok(codes.includes(code), code);
});

test("SARIF describes each rule from its record, with a help link into docs/rules.md", () => {
  const doc = readFileSync("docs/rules.md", "utf8");
  const rule = sarifRule("key/unpadded-number") as { fullDescription: { text: string }; helpUri: string; help: { text: string } };
  assert.match(rule.fullDescription.text, /^an integer enters a key without `pad`.*Keys sort as text/);
  assert.match(rule.help.text, /^Quick fix: `pad\(P, W\)`/);
  assert.equal(rule.helpUri, "docs/rules.md#key-unpadded-number");
  for (const r of catalog()) assert.ok(doc.includes(`<a id="${ruleAnchor(r.code)}"></a>`), `docs/rules.md has an anchor for ${r.code}`);
});

test("every rule module has a test named after it", () => {
  const missing: string[] = [];
  const helpers = new Set(["rule.ts", "index.ts", "fix-helpers.ts", "spelling.ts"]);
  for (const [src, tests] of [
    ["core/rules", "test/unit/core/rules"],
    ["ts-analysis/rules", "test/unit/ts-analysis/rules"],
  ]) {
    for (const f of readdirSync(src).filter((f) => f.endsWith(".ts") && !helpers.has(f))) {
      const expected = path.join(tests, f.replace(/\.ts$/, ".test.ts"));
      if (!existsSync(expected)) missing.push(expected);
    }
  }
  assert.deepEqual(missing, []);
});
