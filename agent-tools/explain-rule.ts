/** `explain_rule`: a diagnostic code's entry of docs/rules.md — when it is reported, why it matters, what its fix does. */
import { InputError } from "@core/errors";
import { ruleEntries, ruleEntry } from "./docs";
import { defineTool } from "./tool";

export const explainRule = defineTool({
  name: "explain_rule",
  title: "Explain a diagnostic code",
  description:
    "A diagnostic code's entry in the rules catalog (e.g. partition/hot, ts/table-scan): its default severity, when it is reported and why it matters, and what its quick fix does. Read-only.",
  inputSchema: {
    type: "object",
    properties: {
      code: { type: "string", maxLength: 100, minLength: 1, description: "The code, as check_design or check_code report it." },
    },
    required: ["code"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      code: { type: "string" },
      section: { type: "string" },
      severity: { type: "string" },
      when: { type: "string" },
      fix: { type: "string" },
      uri: { type: "string", description: "The resource holding this entry." },
    },
    required: ["code", "section", "severity", "when", "fix", "uri"],
  },
  run(input: { code: string }) {
    const entry = ruleEntry(input.code);
    if (!entry) {
      const near = ruleEntries()
        .filter((e) => e.code.split("/")[0] === input.code.split("/")[0])
        .map((e) => e.code);
      throw new InputError(
        `no rule ${JSON.stringify(input.code.slice(0, 100))}${near.length ? `; codes of that family: ${near.join(", ")}` : ""}`,
      );
    }
    return {
      code: entry.code,
      section: entry.section,
      severity: entry.severity,
      when: entry.when,
      fix: entry.fix,
      uri: ruleUri(entry.code),
    };
  },
});

/** The MCP resource of a rule's entry. */
export const ruleUri = (code: string): string => `tdl://rules/${code}`;
