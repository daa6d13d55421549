/**
 * Findings and query classes as the tools return them: the shape of
 * `tdl check --format json`'s diagnostics (code, severity, message, 0-based
 * range, fixes with their edits), so an agent reads one format whichever
 * way it asked, and each design fix carries its check (core/fixes/): what it
 * removes, what it leaves, which declared queries it changes.
 */
import {
  Finding,
  Fix,
  FixCheck,
  LineIndex,
  queryInfos,
  roundEstimate,
  TdlAnalysis,
  TdlAnalyzer,
  vetFixes,
  type Classification,
  type VetResult,
  type Range,
} from "@core";
import type { JsonSchema } from "./tool";

export interface ToolFix {
  title: string;
  preferred?: boolean;
  edits: Array<{ range: Range; newText: string }>;
  check?: Omit<FixCheck, "score">;
}

export interface ToolFinding {
  code: string;
  severity: Finding["severity"];
  message: string;
  range: Range;
  fixes: ToolFix[];
}

export interface ToolQuery {
  table: string;
  name: string;
  class: string;
  partitions: number | null;
  scanned: number | null;
  returned: number | null;
}

/**
 * Characters of design text the fixes of one call may analyse to check
 * themselves (each copy of a table costs its length): a size, never a
 * clock, so the answer is the same on every machine (as `tdl check`'s).
 */
const CHECK_BUDGET_CHARS = 200_000;

/** Every finding of an analysed design, each fix checked while the budget lasts, in the order of the text. */
export function designFindings(text: string, analysis: TdlAnalysis): ToolFinding[] {
  const lines = new LineIndex(text);
  const vet = fixVetter(analysis);
  return [...analysis.findings].sort(byPlace).map((f) => toolFinding(lines, f, vet(f)));
}

/**
 * Checks a finding's fixes on copies of the design, all findings of one
 * design sharing one budget; undefined for a finding without fixes.
 */
export function fixVetter(analysis: TdlAnalysis): (f: Finding) => VetResult | undefined {
  const analyzer = new TdlAnalyzer();
  const budget = { chars: CHECK_BUDGET_CHARS };
  return (f) => (f.fixes?.length ? vetFixes(analysis, f, { analyzer, budget }) : undefined);
}

/**
 * One finding in the shared shape (`tdl check --format json` and the agent
 * tools). With `vet`, its fixes in the checked order — accepted first, best
 * first — each carrying what its check found; without, as the rule gave them
 * (the TypeScript findings, whose fixes edit code).
 */
export function toolFinding(lines: LineIndex, f: Finding, vet?: VetResult): ToolFinding {
  return {
    code: f.code,
    severity: f.severity,
    message: f.message,
    range: lines.range(f.start, f.end),
    fixes: vet
      ? [...vet.checked.map((v) => toolFix(lines, v.fix, v.check)), ...vet.unchecked.map((x) => toolFix(lines, x))]
      : (f.fixes ?? []).map((x) => toolFix(lines, x)),
  };
}

/** A fix's edits as ranges; preferred only when its check accepted it; the check without its ordering key (the list's order is the order). */
function toolFix(lines: LineIndex, fix: Fix, check?: FixCheck): ToolFix {
  const { score: _score, ...shown } = check ?? ({} as FixCheck);
  return {
    title: fix.title,
    edits: fix.edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText })),
    ...(fix.preferred && check?.accepted ? { preferred: true } : {}),
    ...(check ? { check: shown } : {}),
  };
}

/** Text order, then code: the same list whatever order the rules ran in. */
export function byPlace(a: Finding, b: Finding): number {
  return a.start - b.start || a.end - b.end || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/** Each declared query's class and estimates. */
export function designQueries(analysis: TdlAnalysis): ToolQuery[] {
  return queryInfos(analysis)
    .filter((q) => q.classification)
    .map((q) => ({ table: q.table, name: q.name, ...estimates(q.classification!) }));
}

/** A classification's class and its estimates, rounded as everywhere else. */
export function estimates(c: Classification): {
  class: string;
  partitions: number | null;
  scanned: number | null;
  returned: number | null;
} {
  return {
    class: c.class,
    partitions: roundEstimate(c.partitions),
    scanned: roundEstimate(c.scanned),
    returned: roundEstimate(c.returned),
  };
}

/** How many findings of each severity. */
export function countOf(findings: ReadonlyArray<{ severity: string }>): { errors: number; warnings: number; infos: number; hints: number } {
  const n = (s: string) => findings.filter((f) => f.severity === s).length;
  return { errors: n("error"), warnings: n("warning"), infos: n("info"), hints: n("hint") };
}

const POSITION: JsonSchema = {
  type: "object",
  properties: { line: { type: "integer" }, character: { type: "integer" } },
  required: ["line", "character"],
};
const RANGE: JsonSchema = {
  type: "object",
  description: "0-based, as LSP",
  properties: { start: POSITION, end: POSITION },
  required: ["start", "end"],
};
const NUMBER_OR_NULL: JsonSchema = { anyOf: [{ type: "number" }, { type: "null" }] };

/** The output schema of a finding. */
export const FINDING_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    code: { type: "string", description: "The rule's code; explain_rule tells what it means." },
    severity: { type: "string", enum: ["error", "warning", "info", "hint"] },
    message: { type: "string" },
    range: RANGE,
    fixes: {
      type: "array",
      items: {
        type: "object",
        properties: {
          title: { type: "string", description: "What the fix does and what it leaves." },
          preferred: { type: "boolean" },
          edits: {
            type: "array",
            items: { type: "object", properties: { range: RANGE, newText: { type: "string" } }, required: ["range", "newText"] },
          },
          check: {
            type: "object",
            description: "Design fixes: whether it was accepted, what it removes and leaves, the queries it changes.",
          },
        },
        required: ["title", "edits"],
      },
    },
  },
  required: ["code", "severity", "message", "range", "fixes"],
};

/** The output schema of a query's class and estimates. */
export const QUERY_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    table: { type: "string" },
    name: { type: "string" },
    class: { type: "string", enum: ["point", "row-range", "partition-range", "table-scan"] },
    partitions: NUMBER_OR_NULL,
    scanned: NUMBER_OR_NULL,
    returned: NUMBER_OR_NULL,
  },
  required: ["table", "name", "class", "partitions", "scanned", "returned"],
};

/** The output schema of the counts. */
export const SUMMARY_SCHEMA: JsonSchema = {
  type: "object",
  properties: { errors: { type: "integer" }, warnings: { type: "integer" }, infos: { type: "integer" }, hints: { type: "integer" } },
  required: ["errors", "warnings", "infos", "hints"],
};
