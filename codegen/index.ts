/**
 * Code generation: a design in, one TypeScript module per table out — typed
 * entity interface, key builders and parsers, query and transaction helpers
 * (`tdl codegen`, the language server's "Generate key builders"). Pure: text
 * in, text out; the callers write the files. A table whose design has an
 * error gets no module: the error is returned instead, at its place.
 */
import { mapTables, TdlAnalysis } from "@core";
import { dualWriteModule, sideFile } from "./migration/dual-writes";
import { tableModule } from "./module";
import { CodegenError, CodegenProblem } from "./problems";
import { pythonFileName, pythonModule } from "./python/module";

export type { CodegenProblem } from "./problems";

export interface GeneratedModule {
  table: string;
  /** `<table>.keys.ts`, or `<table>_keys.py`. */
  fileName: string;
  text: string;
}

export interface CodegenResult {
  modules: GeneratedModule[];
  /** Why tables got no module: the design's errors and the generator's own reasons (document offsets). */
  problems: CodegenProblem[];
}

export interface CodegenOptions {
  /** Only these tables (all when absent). */
  tables?: readonly string[];
  /** The design's file name, named in each module's header. */
  source?: string;
  /** TypeScript (the default) or Python (builders and parsers of the keys). */
  lang?: CodegenLanguage;
}

/** The languages `tdl codegen --lang` writes. */
export const CODEGEN_LANGUAGES = ["ts", "python"] as const;
export type CodegenLanguage = (typeof CODEGEN_LANGUAGES)[number];

/** Each language's file name and module maker. */
const LANGUAGES: Record<CodegenLanguage, { fileName(table: string): string; module: typeof tableModule }> = {
  ts: { fileName: keysFileName, module: tableModule },
  python: { fileName: pythonFileName, module: pythonModule },
};

/** The file a table's module goes to. */
export function keysFileName(table: string): string {
  return `${table}.keys.ts`;
}

/** Generates the modules of a design's tables (those asked for), or says why it cannot. */
export function generateKeyBuilders(analysis: TdlAnalysis, options: CodegenOptions = {}): CodegenResult {
  const wanted = options.tables ? new Set(options.tables) : undefined;
  const tables = analysis.tables.filter((t) => !wanted || wanted.has(t.table.name.text));
  const errors = analysis.findings.filter((f) => f.severity === "error");
  const lang = LANGUAGES[options.lang ?? "ts"];
  const modules: GeneratedModule[] = [];
  const problems: CodegenProblem[] = [];
  for (const tm of tables) {
    const name = tm.table.name.text;
    const start = tm.base + tm.table.start;
    const end = tm.base + tm.table.end;
    // The design's errors inside the table, and those outside every table (the service line), stop it.
    const own = errors.filter(
      (f) =>
        (f.start >= start && f.start <= end) ||
        !analysis.tables.some((t) => f.start >= t.base + t.table.start && f.start <= t.base + t.table.end),
    );
    for (const f of own) problems.push({ table: name, code: f.code, message: f.message, start: f.start, end: f.end });
    if (!tm.checked && !own.length) {
      problems.push({
        table: name,
        code: "codegen",
        message: `table '${name}' was not checked (it exceeds the analysis budget), so no module is generated for it`,
        start: tm.base + tm.table.name.start,
        end: tm.base + tm.table.name.end,
      });
    }
    if (own.length || !tm.checked) continue;
    const clash = fileClash(name, modules, lang.fileName);
    if (clash) {
      problems.push({
        table: name,
        code: "codegen",
        message: clash,
        start: tm.base + tm.table.name.start,
        end: tm.base + tm.table.name.end,
      });
      continue;
    }
    try {
      modules.push({
        table: name,
        fileName: lang.fileName(name),
        text: lang.module({ tm, profile: analysis.profile, source: options.source }),
      });
    } catch (e) {
      if (!(e instanceof CodegenError)) throw e;
      const at =
        e.start !== undefined
          ? { start: tm.base + e.start, end: tm.base + (e.end ?? e.start) }
          : { start: tm.base + tm.table.name.start, end: tm.base + tm.table.name.end };
      problems.push({ table: name, code: "codegen", message: e.message, ...at });
    }
  }
  return { modules, problems };
}

/** Device names Windows reserves whatever the extension (`CON.keys.ts` cannot be created there; `CON_keys.py` can). */
const DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * Why this table's file cannot be written beside the modules already made:
 * two tables whose names differ only in case (`Orders`, `orders`) would
 * write one file on Windows and macOS, the second silently replacing the
 * first; a Windows device name cannot be a file at all.
 */
function fileClash(table: string, modules: readonly GeneratedModule[], fileName: (table: string) => string): string | undefined {
  const file = fileName(table);
  const other = modules.find((m) => m.fileName.toLowerCase() === file.toLowerCase());
  if (other)
    return `table '${table}' would be written to ${file}, the same file as table '${other.table}' (${other.fileName}) where file names ignore case (Windows, macOS); Azure table names ignore case too: rename one of them`;
  if (DEVICE_NAMES.test(file.split(".")[0]))
    return `table '${table}' would be written to ${file}, a name Windows reserves for a device: rename the table`;
  return undefined;
}

export interface MigrationModules extends CodegenResult {
  /** The old tables that map onto no table of the new design. */
  unmapped: string[];
}

/**
 * `tdl codegen --migration OLD.tdl NEW.tdl`: per old table, the key modules
 * of its old design (`Readings.old.keys.ts`) and of each new table it fills
 * (`Readings.new.keys.ts`, …), and the dual-write module that imports them
 * (codegen/migration/dual-writes.ts); a table whose design has an error gets
 * none, as `generateKeyBuilders` says.
 */
export function generateMigration(
  old: TdlAnalysis,
  next: TdlAnalysis,
  o: { table?: string; lang?: CodegenLanguage; oldSource?: string; newSource?: string } = {},
): MigrationModules {
  const lang = o.lang ?? "ts";
  const mappings = mapTables(
    old.tables.filter((t) => !o.table || t.table.name.text === o.table),
    next.tables,
  );
  const mapped = mappings.filter((m) => m.targets.length);
  const oldKeys = generateKeyBuilders(old, { tables: mapped.map((m) => m.source.table.name.text), source: o.oldSource, lang });
  const targets = [...new Set(mapped.flatMap((m) => m.targets.map((t) => t.table)))];
  const newKeys = generateKeyBuilders(next, { tables: targets, source: o.newSource, lang });
  const side = (s: "old" | "new") => (m: GeneratedModule) => ({ ...m, fileName: sideFile(m.table, s, lang) });
  const modules = [...oldKeys.modules.map(side("old")), ...newKeys.modules.map(side("new"))];
  const made = (ms: GeneratedModule[], t: string) => ms.some((m) => m.table === t);
  for (const m of mapped) {
    const name = m.source.table.name.text;
    if (made(oldKeys.modules, name) && m.targets.every((t) => made(newKeys.modules, t.table)))
      modules.push({ table: name, ...dualWriteModule(m, lang, o) });
  }
  return {
    modules,
    problems: [...oldKeys.problems, ...newKeys.problems],
    unmapped: mappings.filter((m) => !m.targets.length).map((m) => m.source.table.name.text),
  };
}
