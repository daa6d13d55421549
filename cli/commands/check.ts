/**
 * `tdl check PATH…`, declared and run: analyse every `.tdl` design and
 * every TypeScript and JavaScript file with the same service as the
 * language server, and report as text, JSON or SARIF (each file's entry
 * from report-entries.ts, the formats from report.ts).
 *
 * Each file is analysed on its own: a file that cannot be read is named on
 * stderr (exit 2), a file whose analysis fails gets one `internal`
 * diagnostic (exit 3), and every other file is still analysed and printed.
 */
import * as path from "node:path";
import { AnalysisOptions, LineIndex, roundEstimate, TdlAnalyzer, PropertyInfo } from "@core";
import { isTsFile, loadTsAnalysis } from "@ts-analysis/loader";
import type { TsAnalyzer, TsNotice } from "@ts-analysis/analysis";
import { designTable, DesignTable } from "@ts-analysis/drift/design-index";
import { command } from "../command";
import { ANALYSIS, analysisOf, choice, flag, integer } from "../options";
import { displayPath, expandPaths, isDesignFile, readInput } from "../files";
import { CheckReport, formatSarif, formatText, ReportFile, summarize } from "../report";
import { designEntry, toReportDiagnostic } from "../report-entries";
import { EXIT, FailureLog, internalDiagnostic } from "../failure";
import { VERSION } from "../version";
import { existingPaths } from "../validate";

export const check = command({
  name: "check",
  summary: "Analyse .tdl designs and TypeScript/JavaScript files (a folder: every one below it, honouring .gitignore)",
  description:
    "Each file is analysed on its own: one that cannot be read is named on stderr, one whose analysis fails gets an 'internal' diagnostic, and every other file is still reported.",
  exits:
    "0 clean or only warnings/info; 1 any error (or more warnings than --max-warnings); 2 bad usage or an unreadable path; 3 a file could not be analysed (an internal failure, reported as an 'internal' diagnostic of that file; the other files are still reported)",
  positionals: { arg: "PATH...", count: "some" },
  options: {
    format: choice(
      ["text", "json", "sarif"],
      "text (path:line:col severity code message), json (the documented report) or sarif (SARIF 2.1.0 for code-scanning upload)",
    ).default("text"),
    "max-warnings": integer("N", "fail (exit 1) when there are more warnings than N", {
      min: 0,
      invalid: () => "--max-warnings needs a whole number",
    }),
    "test-files": flag("also apply the load rules to test files (*.test.*, *.spec.*, __tests__/, test/), which are off there by default"),
    "design-drift": flag(
      "code that builds keys or queries a table differently from the .tdl designs among the PATHs is an error (exit 1), for CI",
    ),
    ...ANALYSIS.options,
  },
  run({ positionals, options }) {
    // A PATH that is not there is a mistake on the command line: named alone, before anything is checked.
    existingPaths(positionals);
    const { output, stderr, exitCode } = runCheck(
      [...positionals],
      { format: options.format, maxWarnings: options["max-warnings"], analysis: analysisOf(options), designDrift: options["design-drift"] },
      VERSION,
    );
    return { stdout: output, stderr, exitCode };
  },
});

export interface CheckOptions {
  format: "text" | "json" | "sarif";
  maxWarnings?: number;
  analysis: AnalysisOptions;
  /** Drift between code and the designs among the paths is an error (exit 1), not a warning. */
  designDrift?: boolean;
  /** Makes each design's analyzer (tests inject a rule that throws); the standard rules by default. */
  newAnalyzer?: () => TdlAnalyzer;
}

/** Time for all TypeScript files of one project together in `tdl check`. */
const TS_PROJECT_MS = 60_000;

const isCheckable = (f: string) => isDesignFile(f) || isTsFile(f);

export interface CheckRun {
  output: string;
  /** Unreadable inputs, and stacks under TDL_DEBUG=1. */
  stderr: string;
  exitCode: number;
}

export function runCheck(paths: string[], options: CheckOptions, version: string): CheckRun {
  const problems: string[] = [];
  const failures = new FailureLog();
  const texts = new Map<string, string>();
  for (const file of expandPaths(paths, isCheckable, problems)) {
    const text = readInput(file, displayPath(file), problems);
    if (text !== undefined) texts.set(file, text);
  }
  const files = [...texts.keys()];
  const entries: ReportFile[] = [];
  const designs = new Map<string, ReadonlyMap<string, PropertyInfo>>();
  const tables = new Map<string, DesignTable>();
  for (const file of files.filter(isDesignFile)) {
    try {
      const analysis = (options.newAnalyzer?.() ?? new TdlAnalyzer()).analyze(texts.get(file)!, options.analysis);
      entries.push(designEntry(file, texts.get(file)!, analysis, options.format === "json"));
      for (const f of analysis.failures) failures.addRule(displayPath(file), f);
      for (const tm of analysis.tables) {
        if (designs.has(tm.table.name.text)) continue;
        designs.set(tm.table.name.text, tm.props);
        tables.set(tm.table.name.text, designTable(tm, analysis, path.resolve(file)));
      }
    } catch (e) {
      failures.add(displayPath(file), e);
      entries.push({ path: displayPath(file), diagnostics: [internalDiagnostic("analysis", e)], queries: [] });
    }
  }
  const code = checkTsFiles(files.filter(isTsFile), texts, { props: designs, tables }, options, failures);
  entries.push(...code.entries);
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const report: CheckReport = summarize(entries);
  const output =
    options.format === "json"
      ? JSON.stringify(report, null, 2) + "\n"
      : options.format === "sarif"
        ? formatSarif(report, version, problems)
        : formatText(report);
  const internal = entries.some((f) => f.diagnostics.some((d) => d.code === "internal"));
  const tooManyWarnings = options.maxWarnings !== undefined && report.summary.warnings > options.maxWarnings;
  const exitCode = internal
    ? EXIT.internal
    : problems.length
      ? EXIT.usage
      : report.summary.errors > 0 || tooManyWarnings
        ? EXIT.findings
        : EXIT.clean;
  return {
    output,
    stderr: problems.map((p) => `tdl: ${p}\n`).join("") + code.notes.map((n) => `tdl: ${n}\n`).join("") + failures.text(),
    exitCode,
  };
}

/** The TypeScript files, in one program; a failure of the whole analysis or of one file is that file's `internal` diagnostic. */
interface Designs {
  props: Map<string, ReadonlyMap<string, PropertyInfo>>;
  tables: Map<string, DesignTable>;
}

function checkTsFiles(
  files: string[],
  texts: Map<string, string>,
  designs: Designs,
  options: CheckOptions,
  failures: FailureLog,
): { entries: ReportFile[]; notes: string[] } {
  if (!files.length) return { entries: [], notes: [] };
  let ts: TsAnalyzer;
  let mayCallSdk: (text: string) => boolean;
  try {
    const loaded = loadTsAnalysis();
    mayCallSdk = loaded.mayCallSdk;
    ts = new loaded.TsAnalyzer({
      design: (t) => (t ? designs.props.get(t) : undefined),
      designTable: (t) => (t ? designs.tables.get(t) : undefined),
      analysis: options.analysis,
      // Files get the editor's budget; a project gets a minute in all (the files after it are named as not analysed).
      budget: { projectMs: TS_PROJECT_MS },
    });
  } catch (e) {
    failures.add("TypeScript analysis", e);
    return {
      entries: files.map((file) => ({ path: displayPath(file), diagnostics: [internalDiagnostic("TypeScript analysis", e)], queries: [] })),
      notes: [],
    };
  }
  // Only files that name an SDK method can call it: the others are checked clean without entering the program
  // (a file they import still does), so a large project that barely uses the SDK costs a few files.
  const candidates = new Set(files.filter((f) => mayCallSdk(texts.get(f)!)));
  const failed = new Map<string, unknown>();
  for (const file of candidates) {
    try {
      ts.update(file, texts.get(file)!);
    } catch (e) {
      failed.set(file, e);
    }
  }
  // A file may write through a helper of its project (`save(table, entity)`) without naming an SDK method.
  // Asked of the programs as they are, then added all at once (one program more, not one per file).
  const callers = candidates.size ? files.filter((f) => !candidates.has(f) && attemptOr(() => ts.callsWriteHelper(f, texts.get(f)!))) : [];
  for (const file of callers) {
    candidates.add(file);
    try {
      ts.update(file, texts.get(file)!);
    } catch (e) {
      failed.set(file, e);
    }
  }
  const unresolved = new Set<string>();
  const notAnalysed: string[] = [];
  const entries = files.map((file) => {
    if (!candidates.has(file)) return { path: displayPath(file), diagnostics: [], queries: [] };
    try {
      if (failed.has(file)) throw failed.get(file);
      const { entry, notices } = checkTsFile(file, texts.get(file)!, ts, !!options.designDrift);
      // Each said once; the folders where the SDK's types do not resolve are folded into one note below.
      for (const n of notices) {
        if (n.kind === "sdkUnresolved") unresolved.add(n.text);
        else if (!notAnalysed.includes(n.text)) notAnalysed.push(n.text);
      }
      return entry;
    } catch (e) {
      failures.add(displayPath(file), e);
      return { path: displayPath(file), diagnostics: [internalDiagnostic("TypeScript analysis", e)], queries: [] };
    }
  });
  // Said once: the first folder where the SDK's types do not resolve, and how many more.
  const [first, ...more] = unresolved;
  const notes = first ? [`${first}${more.length ? ` (and in ${more.length} more folder${more.length === 1 ? "" : "s"})` : ""}`] : [];
  return { entries, notes: [...notes, ...notAnalysed] };
}

/** `fn()`, or false when it throws (the file is then analysed, or not, as if it named no helper). */
function attemptOr(fn: () => boolean): boolean {
  try {
    return fn();
  } catch {
    return false;
  }
}

/** One TypeScript file: its findings, and each classified call as a query named `line:character`. */
function checkTsFile(file: string, text: string, ts: TsAnalyzer, driftIsError: boolean): { entry: ReportFile; notices: TsNotice[] } {
  const lines = new LineIndex(text);
  const result = ts.analyze(file);
  // --design-drift: CI fails on code that left its design (a level the user set to off stays off: the finding is gone).
  const drift = loadTsAnalysis().DRIFT_CODES;
  if (driftIsError) result.findings = result.findings.map((f) => (drift.has(f.code) ? { ...f, severity: "error" } : f));
  const entry: ReportFile = {
    path: displayPath(file),
    diagnostics: result.findings.map((f) => toReportDiagnostic(lines, f)),
    // Calls whose filter is not known statically carry a hint, not a class.
    queries: result.queries.flatMap((q) => {
      const c = q.classification;
      if (!c) return [];
      const at = lines.position(q.start);
      return [
        {
          table: q.table ?? "",
          name: `${at.line}:${at.character}`,
          class: c.class,
          partitions: roundEstimate(c.partitions),
          scanned: roundEstimate(c.scanned),
          returned: roundEstimate(c.returned),
        },
      ];
    }),
  };
  return { entry, notices: result.notices ?? [] };
}
