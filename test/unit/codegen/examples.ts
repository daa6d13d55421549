/**
 * The generated modules of every example design, written to a temporary
 * folder inside the repository (so `@azure/data-tables` resolves from its
 * node_modules) for the compiler, the TypeScript rules and dynamic import.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { analyzeTdl, TdlAnalysis, TableModel } from "@core";
import { CodegenProblem, generateKeyBuilders } from "@codegen";

export const ROOT = path.resolve(__dirname, "..", "..", "..");

/** The strictest compiler options a project may set: generated modules compile under them with no diagnostic. */
export const STRICT: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
};

export interface GeneratedTable {
  /** The design, relative to the repository. */
  design: string;
  table: string;
  /** The module's absolute path. */
  file: string;
  text: string;
  analysis: TdlAnalysis;
  tm: TableModel;
}

/** Every `.tdl` below examples/, sorted. */
export function exampleDesigns(): string[] {
  return readdirSync(path.join(ROOT, "examples"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".tdl"))
    .sort()
    .map((f) => path.join("examples", f));
}

/** A fresh folder under test/fixtures/ts/.tmp-* (git-ignored); the caller removes it. */
export function tempDir(): string {
  const base = path.join(ROOT, "test", "fixtures", "ts");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, ".tmp-codegen-"));
}

/** Generates every example table's module into `dir`; also returns the problems of the tables that got none. */
export function generateExamples(dir: string): { tables: GeneratedTable[]; problems: Array<CodegenProblem & { design: string }> } {
  const tables: GeneratedTable[] = [];
  const problems: Array<CodegenProblem & { design: string }> = [];
  for (const design of exampleDesigns()) {
    const analysis = analyzeTdl(readFileSync(path.join(ROOT, design), "utf8"));
    const result = generateKeyBuilders(analysis, { source: design });
    for (const p of result.problems) problems.push({ ...p, design });
    for (const m of result.modules) {
      // Two designs may name the same table: the design's base name keeps the files apart.
      const file = path.join(dir, `${path.basename(design, ".tdl")}-${m.fileName}`);
      writeFileSync(file, m.text);
      const tm = analysis.tables.find((t) => t.table.name.text === m.table)!;
      tables.push({ design, table: m.table, file, text: m.text, analysis, tm });
    }
  }
  return { tables, problems };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
