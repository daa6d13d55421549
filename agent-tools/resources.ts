/**
 * The documents an agent may read as resources: the language reference and
 * each rule's entry of the catalog (docs.ts), under `tdl://` URIs. Listed
 * in a fixed order; each read gives the same text.
 */
import { readDoc, ruleEntries } from "./docs";
import { ruleUri } from "./explain-rule";

export interface AgentResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: "text/markdown";
  read: () => string;
}

/** The language reference's URI. */
export const LANGUAGE_URI = "tdl://docs/language";

/** Every resource: the language reference, then each rule's entry in the catalog's order. */
export function agentResources(): AgentResource[] {
  return [
    {
      uri: LANGUAGE_URI,
      name: "language",
      title: "The Table Design Language (.tdl)",
      description: "The reference of the .tdl language: properties, facts, key expressions, indexes, sizes, access patterns.",
      mimeType: "text/markdown",
      read: () => readDoc("language.md"),
    },
    ...ruleEntries().map((e): AgentResource => ({
      uri: ruleUri(e.code),
      name: e.code,
      title: `Rule ${e.code}`,
      description: `${e.section}: ${e.severity}`,
      mimeType: "text/markdown",
      read: () => `# ${e.code}\n\n- section: ${e.section}\n- severity: ${e.severity}\n- when: ${e.when}\n- fix: ${e.fix}\n`,
    })),
  ];
}
