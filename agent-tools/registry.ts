/**
 * The registry of the tools for coding agents: one line per tool, in the order agents see
 * them. A new tool is its module in this folder (a `defineTool` record:
 * name, title, description, input and output schemas, handler), its line
 * here, and its calls in test/cli/mcp.test.ts (and the evaluation's tasks,
 * test/fixtures/agent-eval.json); `tdl mcp` and the extension's language
 * model tools both serve this list (package.json's `languageModelTools` is
 * made from it, contribution.ts).
 */
import type { AnyTool } from "./tool";
import { checkDesign } from "./check-design";
import { checkCode } from "./check-code";
import { classifyQuery } from "./classify-query";
import { previewFix } from "./preview-fix";
import { estimateCost } from "./estimate-cost";
import { explainRule } from "./explain-rule";
import { listTables } from "./list-tables";
import { queryEntities } from "./query-entities";
import { inferDesign } from "./infer-design";
import { stressTest } from "./stress-test";

export const TOOLS: readonly AnyTool[] = [
  checkDesign,
  checkCode,
  classifyQuery,
  previewFix,
  estimateCost,
  explainRule,
  listTables,
  queryEntities,
  inferDesign,
  stressTest,
];

/** The tool named `name`, if there is one. */
export function toolNamed(name: string): AnyTool | undefined {
  return TOOLS.find((t) => t.name === name);
}
