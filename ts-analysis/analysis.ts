/**
 * TypeScript and JavaScript analysis: one LanguageService per
 * tsconfig.json/jsconfig.json (or folder, when there is none), fed with the
 * editor's open documents and the disk, updated incrementally. A file is
 * checked with the `ts/*` rules when it calls the SDK — recognised by the
 * checker's types, whether or not the file imports the SDK itself. Two
 * pre-filters keep ordinary code fast: the file's text must name an SDK
 * method, and the program must hold the SDK's types (or the file import
 * it, for the syntactic fallback). One file's failure never stops the others.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { AnalysisOptions, applyUserSettings, PropertyInfo, profileFor, Finding, said } from "@core";
import { Budget } from "./budget";
import { UsageFinder } from "./calls";
import { KeyDecomposer } from "./key-parts";
import { Wrappers } from "./summaries";
import { DEFAULT_OPTIONS, Project, readConfig } from "./project";
import { LOAD_RULES, runTsRules, TsFinding, TsQuery } from "./rules";
import { budgetNotice as BUDGET_RECORD, notice, TsNotice } from "./rules/notices";
import { importsSdk, mayCallSdk, SDK, sdkResolves } from "./sdk";
import { isTestFile, TableIndex } from "./tables";
import type { DesignLookup } from "./drift/design-index";

export { DRIFT_CODES, TS_RULES } from "./rules";
export type { TsFinding, RelatedLocation } from "./rules";
export type { TsNotice } from "./rules/notices";
export { isCodeFile } from "./project";
export { mayCallSdk } from "./sdk";

export interface TsFileResult {
  /** The file's findings; a finding about a problem seen at several places lists the others as `related`. */
  findings: TsFinding[];
  queries: Array<{ start: number; end: number; table?: string; classification: TsQuery["classification"] }>;
  /** False when the file does not call the SDK (it then gets no diagnostics). */
  usesSdk: boolean;
  /** What the analysis says about itself for this file (not analysed, types unresolved, clients typed `any`, budget spent), in order. */
  notices?: TsNotice[];
  /** The work of the analysis proper (the program already built): steps counted by the budget, and milliseconds. */
  stats?: { steps: number; ms: number };
}

export interface TsAnalyzerOptions {
  /** Properties of a design table by name, from the workspace's `.tdl` files. */
  design?: (table: string | undefined) => ReadonlyMap<string, PropertyInfo> | undefined;
  /** The whole declared table of that name (for the drift rules): none, no drift findings. */
  designTable?: DesignLookup;
  /** The service profile for files (a design's `service` does not reach code), the partition target, the user's rule levels, test files. */
  analysis?: AnalysisOptions;
  /**
   * Time allowed to the analysis of one file (default 2 s) and to all files of one project together (default: no limit;
   * the CLI sets one). Past it, the findings made so far are kept and one notice says what was skipped.
   */
  budget?: { fileMs?: number; projectMs?: number };
}

/** The default time of one file's analysis: an editor shows diagnostics within it whatever the code. */
export const DEFAULT_FILE_MS = 2000;

const NOTHING: TsFileResult = { findings: [], queries: [], usesSdk: false };

/** Where the TypeScript lib files are: beside the bundle (dist/ts-lib) or in the typescript package. */
function libDirectory(): string {
  const bundled = path.join(__dirname, "ts-lib");
  return fs.existsSync(bundled) ? bundled : path.dirname(ts.getDefaultLibFilePath(DEFAULT_OPTIONS));
}

export class TsAnalyzer {
  private readonly projects = new Map<string, Project>();
  /** The config file (or none) that governs each folder, found once per folder. */
  private readonly configs = new Map<string, string | undefined>();
  private readonly lib = libDirectory();
  private readonly tables = new TableIndex();
  /** Time spent analysing each project's files (for its budget). */
  private readonly spent = new WeakMap<Project, number>();

  constructor(private readonly options: TsAnalyzerOptions = {}) {}

  /** Records the editor's text of a file (or its on-disk text when `text` is undefined). The version is not needed: texts are compared. */
  update(fileName: string, text: string | undefined, _version?: number): void {
    this.projectFor(fileName).update(fileName, text);
  }

  close(fileName: string): void {
    for (const p of this.projects.values()) p.close(fileName);
  }

  /** Analyses one file. */
  analyze(fileName: string): TsFileResult {
    const project = this.projectFor(fileName);
    if (!project.has(fileName)) project.update(fileName, undefined);
    const program = project.program();
    if (project.isTooDeep(fileName)) {
      const text = `${fileName} is nested too deep for the TypeScript parser (its stack overflowed): it is not analysed; the other files are`;
      return { ...NOTHING, notices: [notice("notAnalysed", text)] };
    }
    const sf = program?.getSourceFile(fileName);
    // Pre-filters: no SDK method named in the text (nor a helper of the program that writes through one), no SDK call;
    // no SDK types in the program, only files that import it are recognised.
    if (!program || !sf || !(mayCallSdk(sf.text) || Wrappers.of(program).mentionedIn(sf.text))) return NOTHING;
    const typed = sdkResolves(program);
    const imports = importsSdk(sf);
    if (!typed && !imports) return NOTHING;
    const started = performance.now();
    const spent = this.spent.get(project) ?? 0;
    const limits = this.options.budget ?? {};
    const left = (limits.projectMs ?? Infinity) - spent;
    if (left <= 0) {
      const text = `${fileName} was not analysed: the time budget of its project (${limits.projectMs} ms) is spent`;
      return { ...NOTHING, usesSdk: true, notices: [notice("notAnalysed", text)] };
    }
    const budget = new Budget(Math.min(limits.fileMs ?? DEFAULT_FILE_MS, left));
    try {
      const result = this.check(fileName, sf, program, project, budget, typed, imports);
      return result.usesSdk ? { ...result, stats: { steps: budget.work, ms: performance.now() - started } } : result;
    } finally {
      this.spent.set(project, spent + performance.now() - started);
    }
  }

  private check(
    fileName: string,
    sf: ts.SourceFile,
    program: ts.Program,
    project: Project,
    budget: Budget,
    typed: boolean,
    imports: boolean,
  ): TsFileResult {
    const checker = program.getTypeChecker();
    const decomposer = new KeyDecomposer(checker, budget);
    const finder = new UsageFinder(checker, sf, decomposer, Wrappers.of(program), typed);
    const usage = finder.find();
    // The calls found before the budget ran out are still judged, within a grace of half the budget.
    budget.extend(Math.min(budget.ms / 2, 1000));
    const calls = usage.writes.length + usage.keyed.length + usage.lists.length + usage.transactions.length + usage.untyped.length;
    const notices: TsNotice[] = !typed && imports ? [notice("sdkUnresolved", unresolvedMessage(fileName))] : [];
    if (!calls && !budget.skipped.length) return notices.length ? { ...NOTHING, notices } : NOTHING;
    // A usage cut short by the budget is not kept for the other files: they would judge the table on part of it.
    if (!budget.skipped.length)
      budget.guard("the index of this file's write sites", undefined, () => this.tables.record(sf, usage, decomposer));
    const analysis = this.options.analysis;
    const tests = analysis?.loadRulesInTests === true;
    const { findings, queries } = runTsRules({
      sf,
      checker,
      usage,
      usageFinder: finder,
      profile: profileFor(undefined, analysis?.defaultService),
      design: (t) => this.options.design?.(t),
      designTable: (t) => this.options.designTable?.(t),
      tableSites: (t) => this.tables.sites(program, project.files, project.dir, t, tests, budget),
    });
    // Load rules judge production traffic: a test's fixed keys are not a design.
    const kept = !tests && isTestFile(fileName, project.dir) ? findings.filter((f) => !LOAD_RULES.has(f.code)) : findings;
    const spent = budget.skipped.length ? budgetNotice(fileName, budget) : undefined;
    if (spent) kept.push(spent.finding);
    if (spent) notices.push(notice("budget", spent.log));
    if (usage.untyped.length) notices.push(notice("untypedClients", untypedMessage(project.dir)));
    return {
      findings: applyUserSettings(kept, sf.text, analysis?.rules),
      usesSdk: true,
      ...(notices.length ? { notices } : {}),
      queries: queries.map((q) => ({ start: q.call.getStart(sf), end: q.call.getEnd(), table: q.table, classification: q.classification })),
    };
  }

  /**
   * True when a file that names no SDK method calls a helper of its project that writes through its
   * parameters (`save(table, entity)`): it must be analysed too. Builds the project's program.
   */
  callsWriteHelper(fileName: string, text: string): boolean {
    const program = this.projectFor(fileName).program();
    if (program && Wrappers.of(program).mentionedIn(text)) return true;
    // Without a tsconfig each folder is a project of its own: a function folder calling `save()` of a shared folder
    // is asked of the programs that hold the helpers (its own program then reaches them through its import).
    for (const other of this.projects.values()) {
      const p = other.program();
      if (p && p !== program && Wrappers.of(p).mentionedIn(text)) return true;
    }
    return false;
  }

  /** TypeScript's own diagnostics of a file (the tests check that a fixed file still type-checks). */
  semanticDiagnostics(fileName: string): ts.Diagnostic[] {
    const project = this.projectFor(fileName);
    if (!project.has(fileName)) project.update(fileName, undefined);
    return [...project.service.getSyntacticDiagnostics(fileName), ...project.service.getSemanticDiagnostics(fileName)];
  }

  private projectFor(fileName: string): Project {
    const dir = path.dirname(fileName);
    const config = this.configFor(dir);
    const key = config ?? this.packageFor(dir);
    let project = this.projects.get(key);
    if (!project) {
      const read = config ? readConfig(config) : { options: DEFAULT_OPTIONS, files: [] };
      project = new Project(config ? path.dirname(config) : key, read.options, read.files, this.lib);
      this.projects.set(key, project);
    }
    return project;
  }

  /**
   * Without a config, the project of a folder: its parent when the parent holds the package.json (an Azure
   * Functions app: one folder per function beside a shared one, one program for all), else the folder itself.
   */
  private packageFor(dir: string): string {
    const parent = path.dirname(dir);
    return !ts.sys.fileExists(path.join(dir, "package.json")) && parent !== dir && ts.sys.fileExists(path.join(parent, "package.json"))
      ? parent
      : dir;
  }

  /** The nearest tsconfig.json or jsconfig.json above a folder (a tsconfig wins in the same folder). */
  private configFor(dir: string): string | undefined {
    if (this.configs.has(dir)) return this.configs.get(dir);
    const ts1 = ts.findConfigFile(dir, ts.sys.fileExists, "tsconfig.json");
    const js1 = ts.findConfigFile(dir, ts.sys.fileExists, "jsconfig.json");
    const found = ts1 && js1 ? (path.dirname(js1).length > path.dirname(ts1).length ? js1 : ts1) : (ts1 ?? js1);
    this.configs.set(dir, found);
    return found;
  }
}

/** The `ts/budget` notice of a file whose time ran out, and the log line that says the same. */
function budgetNotice(fileName: string, budget: Budget): { finding: Finding; log: string } {
  const finding: Finding = {
    code: BUDGET_RECORD.code,
    severity: BUDGET_RECORD.severity,
    start: 0,
    end: 0,
    ...said(BUDGET_RECORD, "stopped", { ms: budget.ms, skipped: budget.skipped }),
  };
  return { finding, log: `${fileName}: ${finding.message}` };
}

function untypedMessage(projectDir: string): string {
  return (
    `${projectDir}: some ${SDK} calls go through clients typed any, which the analysis cannot see (their table, keys and filters are not checked); ` +
    "each carries a ts/untyped-client hint saying why. Type those clients as TableClient (or with a JSDoc @type in JavaScript)"
  );
}

function unresolvedMessage(fileName: string): string {
  return (
    `${SDK}'s types do not resolve from ${path.dirname(fileName)} (no node_modules yet? run npm install): ` +
    "SDK calls are recognised only where the client is made in the same file, so most findings are missing"
  );
}
