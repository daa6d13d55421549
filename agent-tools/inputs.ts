/**
 * What the tools take in common, and the bounds on it: a design given as
 * text or as a path inside the workspace, the analysis options, and the
 * check that a path stays inside the workspace (symbolic links followed)
 * before anything is read or written there.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { formatCount, resolveOptions, SERVICE_NAMES, type AnalysisOptions } from "@core";
import { InputError, UsageError } from "@core/errors";
import type { JsonSchema } from "./tool";

/** Largest design a tool analyses, in characters (the examples are a few thousand): a larger one is refused, not analysed for minutes. */
export const MAX_DESIGN_CHARS = 1_000_000;
/** Longest path taken. */
const MAX_PATH = 1_000;

/** The input properties of a tool that takes a design. */
export const DESIGN_PROPERTIES: Record<string, JsonSchema> = {
  design: { type: "string", maxLength: MAX_DESIGN_CHARS, description: "The design's text (.tdl). Give this or path." },
  path: {
    type: "string",
    maxLength: MAX_PATH,
    minLength: 1,
    description: "A .tdl file inside the workspace, relative to its root. Give this or design.",
  },
};

/** The analysis options every analysing tool takes (the same meaning as `tdl check --service/--rule`). */
export const ANALYSIS_PROPERTIES: Record<string, JsonSchema> = {
  service: {
    type: "string",
    enum: SERVICE_NAMES,
    description: "The service profile of a design that declares none (default azure-table).",
  },
  rules: {
    type: "object",
    description: 'Per-rule levels by code, e.g. {"query/low-selectivity": "off"}.',
    additionalProperties: { type: "string", enum: ["off", "hint", "info", "warning", "error"] },
  },
};

/** The analysis options of an input; a value that cannot be used is a UsageError. */
export function analysisOf(input: { service?: string; rules?: Record<string, string> }): AnalysisOptions {
  const { options, problems } = resolveOptions({ service: input.service, rules: input.rules });
  if (problems.length) throw new UsageError(problems.join("; "));
  return options;
}

/**
 * `p` resolved against the workspace, as the real file it names, refused
 * when it lies outside (`..`, an absolute path elsewhere, a link that leads
 * out). A path to be written need not exist yet: its folder must, inside.
 */
export function insideWorkspace(workspace: string, p: string, forWrite = false): string {
  if (!workspace) throw new UsageError("no workspace folder is open: the tools read files only inside one (give a design as text)");
  if (p.includes("\0")) throw new UsageError("a path must not contain a NUL character");
  const root = fs.realpathSync(workspace);
  const wanted = path.resolve(root, p);
  // Outside by its words (`..`, another absolute path): refused before anything is looked up there.
  if (!within(root, wanted)) throw new UsageError(`${shown(p)} is outside the workspace`);
  let real: string;
  try {
    real = fs.realpathSync(wanted);
  } catch {
    if (!forWrite) throw new InputError(`${shown(p)} does not exist in the workspace`);
    let folder: string;
    try {
      folder = fs.realpathSync(path.dirname(wanted));
    } catch {
      throw new InputError(`the folder of ${shown(p)} does not exist in the workspace`);
    }
    real = path.join(folder, path.basename(wanted));
  }
  if (!within(root, real)) throw new UsageError(`${shown(p)} is outside the workspace`);
  return real;
}

/** `file` is below `root` (not the root itself). */
function within(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** The path as messages show it: bounded, control characters visible. */
export function shown(p: string): string {
  const clean = p.replace(/[\u0000-\u001f\u007f]/g, "·");
  return `'${clean.length > 120 ? `${clean.slice(0, 120)}…` : clean}'`;
}

/** A design's text and how messages name it: the text given, or the workspace file read (bounded in size). */
export function designOf(input: { design?: string; path?: string }, workspace: string): { text: string; file: string } {
  if ((input.design === undefined) === (input.path === undefined))
    throw new UsageError("give the design's text (design) or its path (path), one of them");
  if (input.design !== undefined) return { text: input.design, file: "design" };
  return { text: readWorkspaceFile(workspace, input.path!, MAX_DESIGN_CHARS), file: input.path! };
}

/** A text file inside the workspace, refused past `maxChars` bytes before it is read whole. */
export function readWorkspaceFile(workspace: string, p: string, maxChars: number): string {
  const file = insideWorkspace(workspace, p);
  const stat = fs.statSync(file);
  if (!stat.isFile()) throw new InputError(`${shown(p)} is not a file`);
  if (stat.size > maxChars)
    throw new InputError(`${shown(p)} is ${formatCount(stat.size)} bytes; the tools take at most ${formatCount(maxChars)}`);
  return fs.readFileSync(file, "utf8");
}
