/**
 * `tdl check PATH…`: analyse every `.tdl` file with the same service as the
 * language server and report as text, JSON or SARIF.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { AnalysisOptions, analyzeTdl, LineIndex, queryInfos, roundEstimate } from "../service";
import { expandPaths, InputError } from "./files";
import { CheckReport, formatSarif, formatText, ReportFile, summarize } from "./report";

export interface CheckOptions {
  format: "text" | "json" | "sarif";
  maxWarnings?: number;
  analysis: AnalysisOptions;
}

export const isDesignFile = (f: string) => f.endsWith(".tdl");

/** Analyses one design file into its report entry. */
export function checkFile(file: string, text: string, options: AnalysisOptions): ReportFile {
  const analysis = analyzeTdl(text, options);
  const lines = new LineIndex(text);
  return {
    path: displayPath(file),
    diagnostics: analysis.findings.map((f) => ({
      code: f.code, severity: f.severity, message: f.message, range: lines.range(f.start, f.end),
      fixes: (f.fixes ?? []).map((fix) => ({ title: fix.title, edits: fix.edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText })) })),
    })),
    queries: queryInfos(analysis).filter((q) => q.classification).map((q) => ({
      table: q.table, name: q.name, class: q.classification!.class,
      partitions: roundEstimate(q.classification!.partitions), scanned: roundEstimate(q.classification!.scanned),
      returned: roundEstimate(q.classification!.returned),
    })),
  };
}

/** Paths relative to the working folder when inside it, with forward slashes. */
export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return (rel.startsWith("..") || path.isAbsolute(rel) ? file : rel).split(path.sep).join("/");
}

export function runCheck(paths: string[], options: CheckOptions, version: string): { output: string; exitCode: number } {
  const files = expandPaths(paths, isDesignFile);
  const entries: ReportFile[] = files.map((file) => {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      throw new InputError(`${displayPath(file)}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    return checkFile(file, text, options.analysis);
  });
  const report: CheckReport = summarize(entries);
  const output = options.format === "json" ? JSON.stringify(report, null, 2) + "\n"
    : options.format === "sarif" ? formatSarif(report, version) : formatText(report);
  const tooManyWarnings = options.maxWarnings !== undefined && report.summary.warnings > options.maxWarnings;
  return { output, exitCode: report.summary.errors > 0 || tooManyWarnings ? 1 : 0 };
}
