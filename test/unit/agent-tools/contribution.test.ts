/**
 * The registry of agent tools and what is made from it: package.json's
 * `languageModelTools` (npm run docs:commands) and the client's
 * registrations carry the same names and input schemas as `tdl mcp`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { languageModelTools, TOOLS, vscodeToolName, withLanguageModelTools } from "@agent-tools";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  contributes: { languageModelTools: Array<{ name: string; inputSchema: unknown }> };
};

test("package.json contributes every tool of the registry, with its input schema (npm run docs:commands)", () => {
  assert.deepEqual(pkg.contributes.languageModelTools, languageModelTools());
  assert.deepEqual(withLanguageModelTools(pkg), pkg, "run npm run docs:commands");
  assert.deepEqual(
    pkg.contributes.languageModelTools.map((t) => t.name),
    TOOLS.map((t) => `tableDesign_${t.name}`),
  );
  for (const t of TOOLS)
    assert.deepEqual(pkg.contributes.languageModelTools.find((c) => c.name === vscodeToolName(t.name))!.inputSchema, t.inputSchema);
});

test("each tool is declared whole: a snake_case name, a title, a description, object schemas, and names unique", () => {
  assert.equal(new Set(TOOLS.map((t) => t.name)).size, TOOLS.length);
  for (const t of TOOLS) {
    assert.match(t.name, /^[a-z]+(_[a-z]+)+$/, t.name);
    assert.ok(t.title.length > 5 && t.description.length > 80, t.name);
    assert.equal(t.inputSchema.type, "object");
    assert.equal(t.inputSchema.additionalProperties, false, `${t.name} refuses unknown input`);
    assert.equal(t.outputSchema.type, "object");
    for (const r of t.outputSchema.required ?? []) assert.ok(t.outputSchema.properties?.[r], `${t.name} output ${r} is declared`);
  }
});
