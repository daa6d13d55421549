/**
 * The report's entry of one file (report.ts holds its shapes and formats):
 * a design's findings and classified queries — for the JSON report each fix
 * with what checking it on a copy of the design found, within a budget —
 * and a finding as a diagnostic, its other places listed.
 */
import { AnalysisOptions, Finding, LineIndex, TdlAnalysis, TdlAnalyzer, VetResult } from "@core";
import { designQueries, fixVetter, toolFinding } from "@agent-tools/findings";
import type { RelatedLocation } from "@ts-analysis/analysis";
import { displayPath } from "./files";
import { ReportDiagnostic, ReportFile } from "./report";

/** Analyses one design file into its report entry (throws when the analysis does). */
export function checkFile(file: string, text: string, options: AnalysisOptions): ReportFile {
  return designEntry(file, text, new TdlAnalyzer().analyze(text, options));
}

/** `checked`: each fix carries what checking it found (the JSON report), accepted fixes first, best first. */
export function designEntry(file: string, text: string, analysis: TdlAnalysis, checked = false): ReportFile {
  const lines = new LineIndex(text);
  const vet = checked ? fixVetter(analysis) : undefined;
  return {
    path: displayPath(file),
    diagnostics: analysis.findings.map((f) => toReportDiagnostic(lines, f, vet?.(f))),
    // The same shapes as the agent tools give: one mapping of a finding, one of a query's class and estimates.
    queries: designQueries(analysis),
  };
}

/** A finding as the report's diagnostic: the agent tools' shape, plus the other places of the same problem. */
export function toReportDiagnostic(lines: LineIndex, f: Finding & { related?: RelatedLocation[] }, vet?: VetResult): ReportDiagnostic {
  return {
    ...toolFinding(lines, f, vet),
    // The other places of the same problem (a constant key written at several sites): one finding, its sites listed.
    ...(f.related?.length
      ? { related: f.related.map((r) => ({ path: displayPath(r.file), line: r.line, character: r.character, message: r.message })) }
      : {}),
  };
}
