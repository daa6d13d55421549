/**
 * Whatever an agent sends, a tool answers or says what is wrong: over
 * generated inputs (any JSON, and objects of the tools' own property names
 * with values of any type, filters of any text), no design or filter tool
 * fails as `internal`, and none touches a file outside its (empty) workspace.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { callTool, TOOLS, workspaceConnections, type ToolContext } from "@agent-tools";

const workspace = mkdtempSync(path.join(tmpdir(), "tdl-agent-call-"));
after(() => rmSync(workspace, { recursive: true, force: true }));
const context: ToolContext = { workspace, connections: workspaceConnections(workspace, undefined, {}), allowAccountStress: false };
const DESIGN_TOOLS = TOOLS.filter((t) => !t.touchesAccount);

test("any input to a design or filter tool is an answer or a usage/input error, never an internal failure", async () => {
  const value = fc.oneof(fc.jsonValue(), fc.string(), fc.constantFrom("../x.tdl", "/etc/passwd", "a.tdl", "", "PartitionKey eq 'a'"));
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...DESIGN_TOOLS),
      fc.oneof(
        fc.jsonValue(),
        fc.dictionary(
          fc.constantFrom("design", "path", "paths", "filter", "table", "code", "line", "fix", "apply", "region", "rules", "service"),
          value,
        ),
      ),
      async (tool, input) => {
        const answer = await callTool(tool, input, context);
        if (!answer.ok) assert.ok(["usage", "input", "refused", "unavailable"].includes(answer.kind), `${tool.name}: ${answer.text}`);
      },
    ),
    { seed: 36, numRuns: 400 },
  );
  assert.deepEqual(readdirSync(workspace), [], "nothing was written");
});

test("filters of any text are classified or refused with the position where they stop parsing", async () => {
  const classify = TOOLS.find((t) => t.name === "classify_query")!;
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 200 }), async (filter) => {
      const answer = await callTool(classify, { filter }, context);
      assert.ok(answer.ok || /^the filter does not parse at character \d+: /.test(answer.message), answer.text);
    }),
    { seed: 36, numRuns: 500 },
  );
});
