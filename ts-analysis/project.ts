/**
 * One TypeScript/JavaScript project of the analysis: a LanguageService over
 * the files its tsconfig.json/jsconfig.json names plus the files the editor
 * or the CLI handed in, with the editor's texts overriding the disk.
 *
 * The program is rebuilt only when something it reads changed: a version is
 * bumped only when a file's text really differs (an editor opening a file
 * that matches the disk changes nothing), and the project's own version
 * lets the LanguageService skip its per-file synchronisation when nothing
 * changed at all. A burst of opens therefore builds one program and one
 * checker, not one per opened file.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { mayCallSdk } from "./sdk";

export const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  strict: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  allowJs: true,
  checkJs: false,
};

/** TypeScript and JavaScript sources the analysis takes (declaration files excluded). */
export function isCodeFile(f: string): boolean {
  return /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(f) && !/\.d\.(ts|mts|cts)$/.test(f);
}

/**
 * Parsed files shared by every project of the process: the lib files (lib.dom.d.ts alone is
 * megabytes) and the SDK's declarations are parsed once, not once per tsconfig.
 */
const SHARED_REGISTRY = ts.createDocumentRegistry();
/**
 * The registry hands back the tree it holds for a file name and version, whichever project parsed
 * it: versions are therefore counted for the whole process, so that two projects (a new analyzer
 * after the settings change, two configs holding one file) never give two texts the same version.
 */
let lastVersion = 0;
const nextVersion = () => ++lastVersion;

interface Doc {
  text: string;
  version: number;
  snapshot?: ts.IScriptSnapshot;
}

export class Project {
  /** Files of the program: the config's files, then whatever was handed in. */
  private readonly roots = new Set<string>();
  private readonly configFiles: ReadonlySet<string>;
  private readonly docs = new Map<string, Doc>();
  /** Snapshots of files read from disk, kept while the editor does not hold them (their version stays 0). */
  private readonly disk = new Map<string, ts.IScriptSnapshot>();
  private projectVersion = 0;
  /** Files whose current text overflows the TypeScript parser's stack (nesting thousands deep): the program reads them as empty. */
  private readonly tooDeep = new Set<string>();
  /** Files whose text changed since the last program was built (suspects when a build overflows). */
  private readonly changed = new Set<string>();
  /**
   * Module resolutions and package.json lookups kept across programs: without it each program (each
   * keystroke) walks every file's folders up for its package.json again. Cleared when the files of the
   * program change (a file opened, created or closed may make an import resolve differently).
   */
  private readonly resolution: ts.ModuleResolutionCache;
  readonly service: ts.LanguageService;

  /** @param dir the project's folder: its config's, or the folder of its files when there is none. */
  constructor(
    readonly dir: string,
    readonly options: ts.CompilerOptions,
    configFiles: readonly string[],
    lib: string,
  ) {
    this.configFiles = new Set(configFiles);
    for (const f of configFiles) this.roots.add(f);
    const cwd = process.cwd();
    this.resolution = ts.createModuleResolutionCache(cwd, (f) => (ts.sys.useCaseSensitiveFileNames ? f : f.toLowerCase()), options);
    // getModuleResolutionCache is read by the LanguageService (it hands the cache to each program, whose
    // package.json lookups then hit it) though its public host type does not list it.
    const host: ts.LanguageServiceHost & { getModuleResolutionCache(): ts.ModuleResolutionCache } = {
      getProjectVersion: () => String(this.projectVersion),
      getScriptFileNames: () => [...this.roots],
      getScriptVersion: (f) => String(this.docs.get(f)?.version ?? 0),
      getScriptSnapshot: (f) => this.snapshot(f),
      getCurrentDirectory: () => cwd,
      getCompilationSettings: () => this.options,
      getDefaultLibFileName: (o) => path.join(lib, ts.getDefaultLibFileName(o)),
      fileExists: (f) => this.docs.has(f) || ts.sys.fileExists(f),
      readFile: (f) => this.docs.get(f)?.text ?? ts.sys.readFile(f),
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
      getModuleResolutionCache: () => this.resolution,
      resolveModuleNameLiterals: (literals, containingFile, redirected, compilerOptions, containingSourceFile) =>
        literals.map((literal) =>
          ts.resolveModuleName(
            literal.text,
            containingFile,
            compilerOptions,
            host,
            this.resolution,
            redirected,
            ts.getModeForUsageLocation(containingSourceFile, literal, compilerOptions),
          ),
        ),
    };
    this.service = ts.createLanguageService(host, SHARED_REGISTRY);
  }

  /**
   * The text of a file for the program. The LanguageService asks for every file's snapshot on every
   * program update, before it compares versions; a file the editor did not hand in keeps version 0, so
   * its disk text is read once and kept (reading the lib files and the SDK's declarations per keystroke
   * cost more than the analysis).
   */
  private snapshot(fileName: string): ts.IScriptSnapshot | undefined {
    if (this.tooDeep.has(fileName)) return ts.ScriptSnapshot.fromString("");
    const doc = this.docs.get(fileName);
    if (doc) return (doc.snapshot ??= ts.ScriptSnapshot.fromString(doc.text));
    let disk = this.disk.get(fileName);
    if (!disk) {
      // A missing file is not remembered: it may appear (npm install) and is then read.
      const text = ts.sys.readFile(fileName);
      if (text === undefined) return undefined;
      disk = ts.ScriptSnapshot.fromString(text);
      this.disk.set(fileName, disk);
    }
    return disk;
  }

  /**
   * The program, never a stack overflow: TypeScript's parser recurses per
   * nesting level, so a file nested thousands deep throws RangeError while
   * the program is built — for every file of the project, on every later
   * build. The files that overflow alone are then read as empty (until
   * their text changes) and the program is built again.
   */
  program(): ts.Program | undefined {
    for (;;) {
      try {
        const program = this.service.getProgram();
        this.changed.clear();
        return program;
      } catch (e) {
        if (!(e instanceof RangeError) || !this.quarantine()) throw e;
      }
    }
  }

  /** Whether the file's current text overflowed the parser (and was analysed as empty). */
  isTooDeep(fileName: string): boolean {
    return this.tooDeep.has(fileName);
  }

  /**
   * Parses each root alone; those that overflow are set aside. A file near
   * the limit may parse alone (a shallower stack) and still overflow inside
   * the program's build: then the files changed since the last good build
   * are set aside. Returns whether any file was.
   */
  private quarantine(): boolean {
    const deep = [...this.roots].filter((f) => !this.tooDeep.has(f) && overflows(f, this.docs.get(f)?.text ?? readDisk(f)));
    const suspects = deep.length ? deep : [...this.changed].filter((f) => !this.tooDeep.has(f));
    for (const f of suspects) {
      this.tooDeep.add(f);
      const doc = this.docs.get(f);
      if (doc) this.docs.set(f, { text: doc.text, version: nextVersion() });
    }
    this.changed.clear();
    if (suspects.length) this.projectVersion++;
    return suspects.length > 0;
  }

  /** The file names of the program's roots. */
  get files(): readonly string[] {
    return [...this.roots];
  }

  /**
   * Sets a file's text (undefined: the disk's). Returns nothing; the next
   * program sees the change. A text equal to the one the program already
   * reads leaves every version as it is.
   */
  update(fileName: string, text: string | undefined): void {
    if (!this.roots.has(fileName)) {
      this.roots.add(fileName);
      this.changed.add(fileName);
      this.resolution.clear();
      this.projectVersion++;
    }
    const before = this.docs.get(fileName);
    if (text === undefined) {
      if (before) {
        this.tooDeep.delete(fileName);
        this.docs.delete(fileName);
        this.disk.delete(fileName);
        this.projectVersion++;
      }
      return;
    }
    if (before ? before.text === text : text === readDisk(fileName)) {
      // Same text as the program reads: only remember it (an unsaved copy must win over later disk reads).
      if (!before) this.docs.set(fileName, { text, version: 0 });
      return;
    }
    // A new text is parsed afresh (the old one may have been too deep).
    this.tooDeep.delete(fileName);
    this.changed.add(fileName);
    this.docs.set(fileName, { text, version: nextVersion() });
    this.projectVersion++;
  }

  /** Forgets the editor's text of a file; it stays a root only when the config names it. */
  close(fileName: string): void {
    const had = this.docs.delete(fileName);
    // The disk may have changed while the editor held the file (a save): read it afresh.
    this.disk.delete(fileName);
    const wasRoot = !this.configFiles.has(fileName) && this.roots.delete(fileName);
    if (wasRoot) this.resolution.clear();
    if (had || wasRoot) this.projectVersion++;
  }

  has(fileName: string): boolean {
    return this.roots.has(fileName);
  }
}

/** Whether TypeScript's parser overflows its stack on the text alone. */
function overflows(fileName: string, text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false);
    return false;
  } catch (e) {
    if (e instanceof RangeError) return true;
    throw e;
  }
}

function readDisk(fileName: string): string | undefined {
  try {
    return fs.readFileSync(fileName, "utf8");
  } catch {
    return undefined;
  }
}

/** A project's settings and files from its config (tsconfig.json or jsconfig.json); JavaScript always readable. */
export function readConfig(configPath: string): { options: ts.CompilerOptions; files: string[] } {
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) return { options: DEFAULT_OPTIONS, files: [] };
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath), undefined, configPath);
  const isJsConfig = path.basename(configPath) === "jsconfig.json";
  // The config's own file list (its allowJs decides whether .js files belong); the program reads JavaScript either way,
  // so that a .js file the editor opens is analysed like a .ts one. Roots are the declaration files (they may declare
  // globals) and the sources that name an SDK method: the rest enters the program only when imported, so a large
  // project that barely uses the SDK costs a few files, not all of them.
  const files = parsed.fileNames.filter((f) => !isCodeFile(f) || mayCallSdk(ts.sys.readFile(f) ?? ""));
  return { options: { ...parsed.options, allowJs: true, ...(isJsConfig ? { maxNodeModuleJsDepth: 0 } : {}), noEmit: true }, files };
}
