/**
 * `tdl check PATH…`: analyse every `.tdl` file with the same service as the
 * language server and report as text, JSON or SARIF.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { AnalysisOptions, analyzeTdl, Finding, LineIndex, queryInfos, roundEstimate } from "../service";
import { PropertyInfo } from "../model/properties";
import { isTsFile, loadTsAnalysis } from "../typescript/load";
import { expandPaths, InputError } from "./files";
import { CheckReport, formatSarif, formatText, ReportDiagnostic, ReportFile, summarize } from "./report";

export interface CheckOptions {
  format: "text" | "json" | "sarif";
  maxWarnings?: number;
  analysis: AnalysisOptions;
}

export const isDesignFile = (f: string) => f.endsWith(".tdl");
const isCheckable = (f: string) => isDesignFile(f) || isTsFile(f);

/** Analyses one design file into its report entry. */
export function checkFile(file: string, text: string, options: AnalysisOptions): ReportFile {
  const analysis = analyzeTdl(text, options);
  const lines = new LineIndex(text);
  return {
    path: displayPath(file),
    diagnostics: analysis.findings.map((f) => toReportDiagnostic(lines, f)),
    queries: queryInfos(analysis).filter((q) => q.classification).map((q) => ({
      table: q.table, name: q.name, class: q.classification!.class,
      partitions: roundEstimate(q.classification!.partitions), scanned: roundEstimate(q.classification!.scanned),
      returned: roundEstimate(q.classification!.returned),
    })),
  };
}

function toReportDiagnostic(lines: LineIndex, f: Finding): ReportDiagnostic {
  return {
    code: f.code, severity: f.severity, message: f.message, range: lines.range(f.start, f.end),
    fixes: (f.fixes ?? []).map((fix) => ({ title: fix.title, edits: fix.edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText })) })),
  };
}

/** Paths relative to the working folder when inside it, with forward slashes. */
export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return (rel.startsWith("..") || path.isAbsolute(rel) ? file : rel).split(path.sep).join("/");
}

export function runCheck(paths: string[], options: CheckOptions, version: string): { output: string; exitCode: number } {
  const files = expandPaths(paths, isCheckable);
  const texts = new Map(files.map((file) => [file, readText(file)]));
  const entries: ReportFile[] = [];
  const designs = new Map<string, ReadonlyMap<string, PropertyInfo>>();
  for (const file of files.filter(isDesignFile)) {
    const entry = checkFile(file, texts.get(file)!, options.analysis);
    entries.push(entry);
    for (const tm of analyzeTdl(texts.get(file)!, options.analysis).tables) if (!designs.has(tm.table.name.text)) designs.set(tm.table.name.text, tm.props);
  }
  const tsFiles = files.filter(isTsFile);
  if (tsFiles.length) {
    const { TsAnalyzer } = loadTsAnalysis();
    const ts = new TsAnalyzer({ design: (t) => (t ? designs.get(t) : undefined), defaultService: options.analysis.defaultService });
    for (const file of tsFiles) ts.update(file, texts.get(file)!, 1);
    for (const file of tsFiles) entries.push(checkTsFile(file, texts.get(file)!, ts));
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const report: CheckReport = summarize(entries);
  const output = options.format === "json" ? JSON.stringify(report, null, 2) + "\n"
    : options.format === "sarif" ? formatSarif(report, version) : formatText(report);
  const tooManyWarnings = options.maxWarnings !== undefined && report.summary.warnings > options.maxWarnings;
  return { output, exitCode: report.summary.errors > 0 || tooManyWarnings ? 1 : 0 };
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError(`${displayPath(file)}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** One TypeScript file: its findings, and each classified call as a query named `line:character`. */
function checkTsFile(file: string, text: string, ts: InstanceType<ReturnType<typeof loadTsAnalysis>["TsAnalyzer"]>): ReportFile {
  const lines = new LineIndex(text);
  let result: ReturnType<typeof ts.analyze>;
  try {
    result = ts.analyze(file);
  } catch (e) {
    process.stderr.write(`tdl: TypeScript analysis of ${displayPath(file)} failed: ${(e as Error).message}\n`);
    result = { findings: [], queries: [], usesSdk: false };
  }
  return {
    path: displayPath(file),
    diagnostics: result.findings.map((f) => toReportDiagnostic(lines, f)),
    queries: result.queries.map((q) => {
      const at = lines.position(q.start);
      return {
        table: q.table ?? "", name: `${at.line}:${at.character}`, class: q.classification.class,
        partitions: roundEstimate(q.classification.partitions), scanned: roundEstimate(q.classification.scanned), returned: roundEstimate(q.classification.returned),
      };
    }),
  };
}
