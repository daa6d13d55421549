/**
 * TypeScript analysis: one LanguageService per tsconfig (or folder, when
 * there is none), fed with the editor's open documents and the disk, updated
 * incrementally; each file that imports `@azure/data-tables` is checked with
 * the `ts/*` rules. One file's failure never stops the others.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { AnalysisOptions, applyUserSettings, PropertyInfo, profileFor, Finding } from "../core";
import { importsSdk, UsageFinder } from "./calls";
import { runTsRules, TsQuery } from "./rules";

export { TS_RULES } from "./rules";

export interface TsFileResult {
  findings: Finding[];
  queries: Array<{ start: number; end: number; table?: string; classification: TsQuery["classification"] }>;
  /** False when the file does not use the SDK (it then gets no diagnostics). */
  usesSdk: boolean;
}

export interface TsAnalyzerOptions {
  /** Properties of a design table by name, from the workspace's `.tdl` files. */
  design?: (table: string | undefined) => ReadonlyMap<string, PropertyInfo> | undefined;
  /** The service profile for files (a design's `service` does not reach code), the partition target and the user's rule levels. */
  analysis?: AnalysisOptions;
}

const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16,
  strict: true, esModuleInterop: true, skipLibCheck: true, noEmit: true, allowJs: false,
};

/** Where the TypeScript lib files are: beside the bundle (dist/ts-lib) or in the typescript package. */
function libDirectory(): string {
  const bundled = path.join(__dirname, "ts-lib");
  return fs.existsSync(bundled) ? bundled : path.dirname(ts.getDefaultLibFilePath(DEFAULT_OPTIONS));
}


class Project {
  readonly roots = new Set<string>();
  readonly service: ts.LanguageService;

  constructor(readonly options: ts.CompilerOptions, docs: Map<string, { text: string; version: number }>, lib: string) {
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [...this.roots],
      getScriptVersion: (f) => String(docs.get(f)?.version ?? 0),
      getScriptSnapshot: (f) => {
        const open = docs.get(f)?.text;
        if (open !== undefined) return ts.ScriptSnapshot.fromString(open);
        const text = ts.sys.readFile(f);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => process.cwd(),
      getCompilationSettings: () => this.options,
      getDefaultLibFileName: (o) => path.join(lib, ts.getDefaultLibFileName(o)),
      fileExists: (f) => docs.has(f) || ts.sys.fileExists(f),
      readFile: (f) => docs.get(f)?.text ?? ts.sys.readFile(f),
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }
}

export class TsAnalyzer {
  private readonly docs = new Map<string, { text: string; version: number }>();
  private readonly projects = new Map<string, Project>();
  private readonly lib = libDirectory();

  constructor(private readonly options: TsAnalyzerOptions = {}) {}

  /** Records the editor's text of a file (or its on-disk text when `text` is undefined). */
  update(fileName: string, text: string | undefined, version: number): void {
    if (text === undefined) this.docs.delete(fileName);
    else this.docs.set(fileName, { text, version });
    this.projectFor(fileName).roots.add(fileName);
  }

  close(fileName: string): void {
    this.docs.delete(fileName);
    for (const p of this.projects.values()) p.roots.delete(fileName);
  }

  /** Analyses one file. */
  analyze(fileName: string): TsFileResult {
    const project = this.projectFor(fileName);
    project.roots.add(fileName);
    const program = project.service.getProgram();
    const sf = program?.getSourceFile(fileName);
    if (!program || !sf || !importsSdk(sf)) return { findings: [], queries: [], usesSdk: false };
    const checker = program.getTypeChecker();
    const usage = new UsageFinder(checker, sf).find();
    const { findings, queries } = runTsRules({
      sf, checker, usage, profile: profileFor(undefined, this.options.analysis?.defaultService), design: (t) => this.options.design?.(t),
    });
    return {
      findings: applyUserSettings(findings, sf.text, this.options.analysis?.rules), usesSdk: true,
      queries: queries.map((q) => ({ start: q.call.getStart(sf), end: q.call.getEnd(), table: q.table, classification: q.classification })),
    };
  }

  /** TypeScript's own diagnostics of a file (the tests check that a fixed file still type-checks). */
  semanticDiagnostics(fileName: string): ts.Diagnostic[] {
    const project = this.projectFor(fileName);
    project.roots.add(fileName);
    return [...project.service.getSyntacticDiagnostics(fileName), ...project.service.getSemanticDiagnostics(fileName)];
  }

  private projectFor(fileName: string): Project {
    const config = ts.findConfigFile(path.dirname(fileName), ts.sys.fileExists);
    const key = config ?? path.dirname(fileName);
    let project = this.projects.get(key);
    if (!project) {
      project = new Project(config ? readOptions(config) : DEFAULT_OPTIONS, this.docs, this.lib);
      this.projects.set(key, project);
    }
    return project;
  }
}

function readOptions(configPath: string): ts.CompilerOptions {
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) return DEFAULT_OPTIONS;
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath));
  return { ...parsed.options, noEmit: true };
}
