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
import { applyFixEdits, vetFixes } from "./vet";

/** One fix applied: what it fixed, where, and its checked title (which says what it leaves). */
export interface FixStep {
  code: string;
  anchor: string;
  title: string;
  /** The fix declared a fact (`increasing`) rather than changing the keys. */
  fact?: boolean;
}

export interface CheckedFixRun {
  text: string;
  steps: FixStep[];
  /** Why it stopped before no accepted fix was left. */
  stopped?: "cycle" | "rounds";
}

/** Rounds before giving up: a table converges within a few fixes; this bounds a design that does not. */
export const MAX_FIX_ROUNDS = 20;

/** The checked fix each table would take now: its most severe finding's best accepted fix. */
export function nextFixes(analysis: TdlAnalysis, vetAnalyzer = new TdlAnalyzer()): Array<{ finding: Finding; fix: Fix; anchor: string }> {
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
      const fix = vetFixes(analysis, finding, { analyzer: vetAnalyzer }).offered[0];
      if (fix) {
        chosen.push({ finding, fix, anchor: anchorOf(analysis, finding) });
        break;
      }
    }
  }
  return chosen;
}

/** Applies checked fixes until none is left (see the module comment). */
export function applyCheckedFixes(text: string, options: AnalysisOptions = {}, maxRounds = MAX_FIX_ROUNDS): CheckedFixRun {
  const analyzer = new TdlAnalyzer();
  const vetAnalyzer = new TdlAnalyzer();
  const seen = new Set<string>([text]);
  const steps: FixStep[] = [];
  for (let round = 0; round < maxRounds; round++) {
    const chosen = nextFixes(analyzer.analyze(text, options), vetAnalyzer);
    if (!chosen.length) return { text, steps };
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
