/**
 * Fixing a design the way a newcomer would, by taking the first offered
 * fix again and again — but only fixes that were checked (`vet.ts`): in
 * each table, the most severe finding that has an accepted fix gets its
 * best one; the design is analysed again; it stops when no finding has an
 * accepted fix, after `maxRounds`, or when a text comes back (a cycle).
 * Tables are independent, so one round fixes one finding in each.
 */
import { AnalysisOptions } from "../options";
import { TdlAnalysis, TdlAnalyzer } from "../analysis/analyze";
import { Finding, Fix } from "../findings";
import { TakenEdits } from "./taken-edits";
import { anchorOf, anchorTable } from "./anchors";
import { SEVERITY_RANK } from "./check";
import { applyFixEdits, CheckBudget, vetFixes } from "./vet";

/** One fix applied: what it fixed, where, and its checked title (which says what it leaves). */
export interface FixStep {
  code: string;
  anchor: string;
  title: string;
  /** The fix declared a fact (`increasing`) rather than changing the keys. */
  fact?: boolean;
}

/** A warning or error no checked fix removed, and why: no fix exists, or every fix was refused (the first reason). */
export interface LeftFinding {
  code: string;
  severity: Finding["severity"];
  anchor: string;
  message: string;
  why: string;
}

export interface CheckedFixRun {
  text: string;
  steps: FixStep[];
  /** What is left when it stopped because no finding had an accepted fix (warnings and errors). */
  left?: LeftFinding[];
  /** Why it stopped before no accepted fix was left. */
  stopped?: "cycle" | "rounds" | "budget";
}

/** Rounds before giving up: a table converges within a few fixes; this bounds a design that does not. */
export const MAX_FIX_ROUNDS = 20;

/**
 * Characters of design text one run may analyse to check fixes (each copy
 * of a table costs its length): a 3,000-table design's first round takes
 * ≈ 400,000; a table with a 60 KB filter ≈ 60,000 a fix. Past it, the run
 * stops and says so.
 */
export const FIX_BUDGET_CHARS = 1_000_000;

/** The checked fix each table would take now: its most severe finding's best accepted fix. */
export function nextFixes(
  analysis: TdlAnalysis,
  vetAnalyzer = new TdlAnalyzer(),
  budget?: CheckBudget,
  /** Filled with why each finding checked has no accepted fix. */
  refusals?: Map<Finding, string>,
): Array<{ finding: Finding; fix: Fix; anchor: string }> {
  const byTable = new Map<string, Finding[]>();
  for (const f of analysis.findings) {
    if (!f.fixes?.length || f.severity === "hint") continue;
    const table = anchorTable(anchorOf(analysis, f));
    byTable.set(table, [...(byTable.get(table) ?? []), f]);
  }
  const chosen: Array<{ finding: Finding; fix: Fix; anchor: string }> = [];
  for (const findings of byTable.values()) {
    findings.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.start - b.start);
    for (const finding of findings) {
      const vet = vetFixes(analysis, finding, { analyzer: vetAnalyzer, budget });
      const fix = vet.offered[0];
      if (fix) {
        chosen.push({ finding, fix, anchor: anchorOf(analysis, finding) });
        break;
      }
      const refused = vet.checked.find((v) => v.check.refused)?.check.refused;
      refusals?.set(
        finding,
        refused
          ? `no fix passed its check (${vet.checked.length} tried); the first was refused: ${refused}`
          : budget?.ranOut
            ? "its fixes were not checked (the checking budget ran out)"
            : "its fix cannot be checked on a copy: apply it in the editor",
      );
    }
  }
  return chosen;
}

/** Applies checked fixes until none is left (see the module comment). */
export function applyCheckedFixes(
  text: string,
  options: AnalysisOptions = {},
  maxRounds = MAX_FIX_ROUNDS,
  budget: CheckBudget = { chars: FIX_BUDGET_CHARS },
): CheckedFixRun {
  const analyzer = new TdlAnalyzer();
  const vetAnalyzer = new TdlAnalyzer();
  const seen = new Set<string>([text]);
  const steps: FixStep[] = [];
  for (let round = 0; round < maxRounds; round++) {
    const refusals = new Map<Finding, string>();
    const analysis = analyzer.analyze(text, options);
    const chosen = nextFixes(analysis, vetAnalyzer, budget, refusals);
    if (!chosen.length) {
      const left = leftOf(analysis, refusals);
      return budget.ranOut ? { text, steps, left, stopped: "budget" } : { text, steps, left };
    }
    const taken = new TakenEdits();
    for (const c of chosen) {
      // Fixes of different tables do not overlap; should two, the second waits for the next round.
      if (c.fix.edits.some((e) => taken.clashes(e))) continue;
      for (const e of c.fix.edits) taken.add(e);
      steps.push({ code: c.finding.code, anchor: c.anchor, title: c.fix.title, ...(c.fix.fact ? { fact: true } : {}) });
    }
    text = applyFixEdits(text, taken.edits);
    if (seen.has(text)) return { text, steps, stopped: "cycle" };
    seen.add(text);
  }
  return { text, steps, stopped: "rounds" };
}

/** The warnings and errors of `analysis` with why no checked fix removed them. */
function leftOf(analysis: TdlAnalysis, refusals: ReadonlyMap<Finding, string>): LeftFinding[] {
  return analysis.findings
    .filter((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK.warning)
    .sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.start - b.start)
    .map((f) => ({
      code: f.code,
      severity: f.severity,
      anchor: anchorOf(analysis, f),
      message: f.message,
      why: refusals.get(f) ?? (f.fixes?.length ? "its fixes were not checked" : "no automatic fix: the message says what to do"),
    }));
}
