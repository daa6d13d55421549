/**
 * `tdl codegen DESIGN.tdl [--table NAME] [--out DIR] [--lang ts|python]`:
 * writes each table's typed key builders, parsers and query/transaction
 * helpers to `<table>.keys.ts`, or its key builders and parsers to
 * `<table>_keys.py` (next to the design unless --out says where). A table
 * whose design has an error gets no module; its errors are printed like
 * `tdl check` prints them and the exit code is 1. The folder is checked
 * before anything is analysed, and files are written whole (a temporary
 * file renamed over the old one), so a failed run never leaves half a
 * module behind.
 */
import * as path from "node:path";
import { analyzeTdl, LineIndex } from "@core";
import { CODEGEN_LANGUAGES, generateKeyBuilders, generateMigration } from "@codegen";
import { command } from "../command";
import { ANALYSIS, analysisOf, choice, outputFolder, text } from "../options";
import { readTextFile } from "../files";
import { checkOutputFolder, makeFolder, writeWhole } from "../destinations";
import { EXIT } from "../failure";
import { designTable } from "../validate";

export const codegen = command({
  name: "codegen",
  summary:
    "Write each table's typed key builders, key parsers and query/transaction helpers to DIR/<table>.keys.ts (or its key builders and parsers to DIR/<table>_keys.py)",
  description:
    "DIR is the design's folder unless --out says where; a folder that cannot be written is refused before anything is analysed. Each module is written whole (a temporary file renamed over the old one).",
  exits:
    "0; 1 the design has errors (those tables get no module, the others are written); 2 bad usage, an unreadable design or a folder that cannot be written",
  positionals: { arg: "DESIGN.tdl", count: "one" },
  options: {
    table: text("NAME", "only this table"),
    out: outputFolder("DIR", "where the modules go (created when missing)"),
    migration: text(
      "OLD.tdl",
      "write the dual writes of a migration from OLD.tdl to DESIGN.tdl: <table>.migration.ts (or <table>_migration.py) and the key modules of both sides",
    ),
    lang: choice(CODEGEN_LANGUAGES, "ts (TypeScript) or python (builders and parsers of the keys, standard library only)").default("ts"),
    ...ANALYSIS.options,
  },
  run({ positionals: [design], options }) {
    const { table } = options;
    // --out was checked as it was read; the design's own folder is checked here, still before any work.
    const out = options.out ?? path.dirname(design);
    if (options.out === undefined) checkOutputFolder(out);
    const analysis = analysisOf(options);
    const text = readTextFile(design);
    const result = analyzeTdl(text, analysis);
    const oldFile = options.migration;
    const oldText = oldFile === undefined ? undefined : readTextFile(oldFile);
    const old = oldText === undefined ? undefined : analyzeTdl(oldText, analysis);
    if (table !== undefined) designTable(oldFile ?? design, old ?? result, table);
    const migration = old
      ? generateMigration(old, result, { table, lang: options.lang, oldSource: path.basename(oldFile!), newSource: path.basename(design) })
      : undefined;
    const generated =
      migration ??
      generateKeyBuilders(result, {
        tables: table !== undefined ? [table] : undefined,
        source: path.basename(design),
        lang: options.lang,
      });

    const lines = new LineIndex(text);
    const oldLines = oldText === undefined ? undefined : new LineIndex(oldText);
    const stderr = generated.problems.map((p) => {
      // A migration's problems come from either design: the old one's tables are named by the old file.
      const inOld =
        !!old && old.tables.some((t) => t.table.name.text === p.table) && !result.tables.some((t) => t.table.name.text === p.table);
      const at = (inOld ? oldLines! : lines).position(p.start);
      return `${inOld ? oldFile : design}:${at.line + 1}:${at.character + 1} error ${p.code} ${p.message}${p.code === "codegen" ? "" : ` (table ${p.table} gets no module)`}\n`;
    });
    if (!generated.modules.length && !generated.problems.length) stderr.push(`${design}: no table to generate\n`);
    for (const t of migration?.unmapped ?? [])
      stderr.push(
        `${oldFile}: table ${t} maps onto no table of ${design} (none of its name, none holding its properties): no dual writes for it\n`,
      );

    if (generated.modules.length) makeFolder(out);
    const written: string[] = [];
    for (const m of generated.modules) {
      const file = path.join(out, m.fileName);
      writeWhole(file, m.text);
      written.push(`wrote ${file} (${m.table})\n`);
    }
    const failed = generated.problems.length > 0 || !generated.modules.length;
    return { stdout: written.join(""), stderr: stderr.join(""), exitCode: failed ? EXIT.findings : EXIT.clean };
  },
});
