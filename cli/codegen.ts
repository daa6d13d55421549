/**
 * `tdl codegen DESIGN.tdl [--table NAME] [--out DIR]`: writes each table's
 * typed key builders, parsers and query/transaction helpers to
 * `<table>.keys.ts` (next to the design unless --out says where). A table
 * whose design has an error gets no module; its errors are printed like
 * `tdl check` prints them and the exit code is 1. Files are written whole
 * (a temporary file renamed over the old one), so a failed run never leaves
 * half a module behind.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { analyzeTdl, LineIndex } from "@core";
import { generateKeyBuilders } from "@codegen";
import { analysisOptions, ANALYSIS_OPTIONS, parseArgs, shown, UsageError } from "./args";
import { InputError, readInput, unreadable } from "./files";
import { EXIT } from "./failure";
import type { CliResult } from "./output";

/** Runs `tdl codegen` on its arguments (after the command name). */
export function codegenCommand(argv: string[]): CliResult {
  const { positionals, options } = parseArgs(argv, ["table", "out", ...ANALYSIS_OPTIONS], []);
  if (positionals.length !== 1) throw new UsageError("codegen needs one DESIGN.tdl");
  const design = positionals[0];
  const table = options.get("table") as string | undefined;
  const out = (options.get("out") as string | undefined) ?? path.dirname(design);
  const analysis = analysisOptions(options);

  const problems: string[] = [];
  const text = readInput(design, design, problems);
  if (text === undefined) throw new InputError(problems.join("\n"));
  const result = analyzeTdl(text, analysis);
  if (table !== undefined && !result.tables.some((t) => t.table.name.text === table)) {
    const names = result.tables.map((t) => t.table.name.text).join(", ") || "none";
    throw new UsageError(`${design}: no table '${shown(table)}' (tables: ${names})`);
  }
  const generated = generateKeyBuilders(result, { tables: table !== undefined ? [table] : undefined, source: path.basename(design) });

  const lines = new LineIndex(text);
  const stderr = generated.problems.map((p) => {
    const at = lines.position(p.start);
    return `${design}:${at.line + 1}:${at.character + 1} error ${p.code} ${p.message}${p.code === "codegen" ? "" : ` (table ${p.table} gets no module)`}\n`;
  });
  if (!generated.modules.length && !generated.problems.length) stderr.push(`${design}: no table to generate\n`);

  const written: string[] = [];
  if (generated.modules.length) {
    try {
      fs.mkdirSync(out, { recursive: true });
    } catch (e) {
      throw new InputError(unreadable(out, e, "cannot create the folder"));
    }
  }
  for (const m of generated.modules) {
    const file = path.join(out, m.fileName);
    writeWhole(file, m.text);
    written.push(`wrote ${file} (${m.table})\n`);
  }
  const failed = generated.problems.length > 0 || !generated.modules.length;
  return { stdout: written.join(""), stderr: stderr.join(""), exitCode: failed ? EXIT.findings : EXIT.clean };
}

/** Writes the file through a temporary one in the same folder, renamed over it: all of it or nothing. */
function writeWhole(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw new InputError(unreadable(file, e, "cannot write"));
  }
}
