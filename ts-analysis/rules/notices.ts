/**
 * Codes the TypeScript analysis reports about itself rather than about the
 * code: a file whose time budget ran out (`ts/budget`). The record gives the
 * code its place in the catalog, the docs, SARIF and the severity settings;
 * the analyzer adds the finding itself, since it is known only once every
 * rule has run.
 */
import { TsRule } from "./rule";

export const budgetNotice: TsRule = {
  code: "ts/budget",
  severity: "info",
  family: "TypeScript code",
  docs: {
    summary: "the analysis of a file stopped at its time budget: the message says what was skipped; the findings made before are kept",
    why: "Diagnostics must follow typing whatever the code: past the budget, the rest of the file would otherwise hold the editor (or `tdl check`) for as long as it takes.",
  },
  check() {
    // Reported by the analyzer once the rules have run (analysis.ts, budgetNotice).
  },
};
