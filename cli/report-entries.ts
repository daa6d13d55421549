/**
 * The report's entry of one file (report.ts holds its shapes and formats):
 * a design's findings and classified queries — for the JSON report each fix
 * with what checking it on a copy of the design found, within a budget —
 * and a finding as a diagnostic, its other places listed.
 */
import { AnalysisOptions, Finding, Fix, FixCheck, LineIndex, TdlAnalysis, TdlAnalyzer, VetResult, vetFixes } from "@core";
import { designQueries } from "@agent-tools/findings";
import type { RelatedLocation } from "@ts-analysis/analysis";
import { displayPath } from "./files";
import { ReportDiagnostic, ReportFile, ReportFix } from "./report";

/** Analyses one design file into its report entry (throws when the analysis does). */
export function checkFile(file: string, text: string, options: AnalysisOptions): ReportFile {
  return designEntry(file, text, new TdlAnalyzer().analyze(text, options));
}

/**
 * Characters of design text the JSON report of one file may analyse to
 * check its fixes (each copy of a table costs its length): a size, so the
 * report never depends on the machine's speed. Past it, the remaining fixes
 * are listed without a `check`.
 */
const CHECK_BUDGET_CHARS = 200_000;

/** `checked`: each fix carries what checking it found (the JSON report), accepted fixes first, best first. */
export function designEntry(file: string, text: string, analysis: TdlAnalysis, checked = false): ReportFile {
  const lines = new LineIndex(text);
  const vetAnalyzer = new TdlAnalyzer();
  const budget = { chars: CHECK_BUDGET_CHARS };
  return {
    path: displayPath(file),
    diagnostics: analysis.findings.map((f) =>
      checked && f.fixes?.length
        ? checkedDiagnostic(lines, f, vetFixes(analysis, f, { analyzer: vetAnalyzer, budget }))
        : toReportDiagnostic(lines, f),
    ),
    // The same shape as the agent tools give: one mapping of a query's class and estimates.
    queries: designQueries(analysis),
  };
}

export function toReportDiagnostic(lines: LineIndex, f: Finding & { related?: RelatedLocation[] }): ReportDiagnostic {
  return {
    code: f.code,
    severity: f.severity,
    message: f.message,
    range: lines.range(f.start, f.end),
    fixes: (f.fixes ?? []).map((fix) => ({
      title: fix.title,
      edits: fix.edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText })),
    })),
    // The other places of the same problem (a constant key written at several sites): one finding, its sites listed.
    ...(f.related?.length
      ? { related: f.related.map((r) => ({ path: displayPath(r.file), line: r.line, character: r.character, message: r.message })) }
      : {}),
  };
}

/** The check as the report shows it: the ordering key is the order of the list itself. */
function withoutScore(check: FixCheck): FixCheck {
  const { score: _score, ...rest } = check;
  return rest;
}

function checkedDiagnostic(lines: LineIndex, f: Finding, vet: VetResult): ReportDiagnostic {
  const toFix = (fix: Fix, check?: FixCheck): ReportFix => ({
    title: fix.title,
    edits: fix.edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText })),
    ...(fix.preferred && check?.accepted ? { preferred: true } : {}),
    ...(check ? { check: withoutScore(check) } : {}),
  });
  return {
    ...toReportDiagnostic(lines, { ...f, fixes: undefined }),
    fixes: [...vet.checked.map((v) => toFix(v.fix, v.check)), ...vet.unchecked.map((fix) => toFix(fix))],
  };
}
