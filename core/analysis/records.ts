/**
 * The codes the analysis itself reports, beside the rules: a failure inside
 * the analysis (`internal`) and a design too large for the budget (`budget`).
 * They have no check of their own, but the catalog, the SARIF output and the
 * severity settings know them as they know the rules. And the sets of codes
 * drawn from every `.tdl` record.
 */
import { codesWith, RuleRecord } from "../rules/rule";
import { RULES } from "../rules";
import { clip, formatCount } from "../text/words";

export const INTERNAL = {
  code: "internal",
  severity: "error",
  family: "Syntax and meaning",
  traits: { broken: true, neverSuppress: true },
  docs: {
    summary: "an analysis step or one rule failed on this table or call; every other rule still ran",
    why: "A bug in Table Design Assistant: the failing rule's findings are missing there, so the design is not fully checked. The log has the details.",
  },
  messages: {
    failed: (p: { failed: string; error: string; consequence: string }) =>
      `${p.failed}: ${p.error}; ${p.consequence}. This is a bug in Table Design Assistant; the log has the details.`,
  },
} satisfies RuleRecord;

export const BUDGET = {
  code: "budget",
  severity: "warning",
  family: "Syntax and meaning",
  docs: {
    summary:
      "a design or table too large to check on every keystroke: the rules skipped it (only its syntax and names were checked), and the message says what",
    why: "Diagnostics must follow typing; past the budget, the skipped part would otherwise hang the editor.",
  },
  messages: {
    table: (p: { table: string; why: string }) =>
      `table '${clip(p.table)}' is too large to check on every keystroke: ${p.why}. ` +
      "Only the syntax and name checks ran on it (no queries classified, no key or load rules). Split it into several tables.",
    document: (p: { total: number; checked: number; first: string }) =>
      `this design has ${formatCount(p.total)} tables; the rules checked the first ${formatCount(p.checked)} and skipped the other ` +
      `${formatCount(p.total - p.checked)}, from '${clip(p.first)}' on (only their syntax was checked). Split the design into several files.`,
  },
} satisfies RuleRecord;

/** The analysis's own codes. */
export const ANALYSIS_RECORDS: readonly RuleRecord[] = [INTERNAL, BUDGET];

/** Every record of a `.tdl` code: the rules and the analysis's own codes. */
export const CORE_RECORDS: readonly RuleRecord[] = [...RULES, ...ANALYSIS_RECORDS];

/** Codes whose finding means the design does not stand: a fix may not cause one (`core/fixes/vet.ts`). */
export const BROKEN_CODES = codesWith(CORE_RECORDS, "broken");

/** Codes no fix may cause, whatever it fixes (`core/fixes/vet.ts`). */
export const NEVER_INTRODUCED_CODES = codesWith(CORE_RECORDS, "neverIntroduced");
