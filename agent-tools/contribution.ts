/**
 * The tools as package.json contributes them to VS Code's agent mode
 * (`contributes.languageModelTools`), made from the registry: the same names,
 * descriptions and input schemas `tdl mcp` lists. `npm run docs:commands`
 * writes them; test/unit/agent-tools/contribution.test.ts fails when they
 * drift.
 */
import { TOOLS } from "./registry";
import type { JsonSchema } from "./tool";

/** One entry of `contributes.languageModelTools`. */
export interface LanguageModelToolContribution {
  name: string;
  displayName: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  icon: string;
  userDescription: string;
  modelDescription: string;
  tags: string[];
  inputSchema: JsonSchema;
}

/** The tools' contribution, in the registry's order. The VS Code name is prefixed, as tools of every extension share one namespace. */
export function languageModelTools(): LanguageModelToolContribution[] {
  return TOOLS.map((t) => ({
    name: vscodeToolName(t.name),
    displayName: t.title,
    toolReferenceName: t.name.replace(/_/g, "-"),
    canBeReferencedInPrompt: true,
    icon: t.touchesAccount ? "$(database)" : "$(checklist)",
    userDescription: t.title,
    modelDescription: t.description,
    tags: ["table-design", t.touchesAccount ? "account" : "design"],
    inputSchema: t.inputSchema,
  }));
}

/** The name a tool is registered under in VS Code (`vscode.lm.registerTool`). */
export const vscodeToolName = (name: string): string => `tableDesign_${name}`;

interface PackageJson {
  contributes?: Record<string, unknown>;
}

/** `pkg` with its `languageModelTools` as the registry says (the rest kept as it is). */
export function withLanguageModelTools<P extends PackageJson>(pkg: P): P {
  return { ...pkg, contributes: { ...pkg.contributes, languageModelTools: languageModelTools() } };
}
