/**
 * The codes the analysis itself reports, beside the rules: a failure inside
 * the analysis (`internal`) and a design too large for the budget (`budget`).
 * They have no check of their own, but the catalog, the SARIF output and the
 * severity settings know them as they know the rules.
 */
import { RuleRecord } from "../rules/rule";

export const INTERNAL: RuleRecord = {
  code: "internal",
  severity: "error",
  family: "Syntax and meaning",
  docs: {
    summary: "an analysis step or one rule failed on this table or call; every other rule still ran",
    why: "A bug in Table Design Assistant: the failing rule's findings are missing there, so the design is not fully checked. The log has the details.",
  },
};

export const BUDGET: RuleRecord = {
  code: "budget",
  severity: "warning",
  family: "Syntax and meaning",
  docs: {
    summary:
      "a design or table too large to check on every keystroke: the rules skipped it (only its syntax and names were checked), and the message says what",
    why: "Diagnostics must follow typing; past the budget, the skipped part would otherwise hang the editor.",
  },
};

/** The analysis's own codes. */
export const ANALYSIS_RECORDS: readonly RuleRecord[] = [INTERNAL, BUDGET];
