/**
 * `tdl classify "FILTER" [--design FILE --table NAME] [--format text|json]`:
 * the class of one OData filter, with estimates from a design's table.
 */
import * as fs from "node:fs";
import { analyzeTdl, classifyFilter, Classification, parseFilter, roundEstimate, summary } from "../service";
import { tableFacts } from "../model/facts";
import { FilterContext } from "../odata/classify";
import { InputError } from "./files";
import { UsageError } from "./args";

export interface ClassifyOptions {
  design?: string;
  table?: string;
  format: "text" | "json";
}

export function runClassify(filter: string, options: ClassifyOptions): { stdout: string; stderr: string; exitCode: number } {
  const parsed = parseFilter(filter);
  if (!parsed.ok) {
    const { message, start } = parsed.error;
    return { stdout: "", stderr: `tdl: the filter does not parse at character ${start + 1}: ${message}\n${caret(filter, start)}\n`, exitCode: 2 };
  }
  const c = classifyFilter(parsed.expr, designContext(options));
  if (options.format === "json") {
    const json = {
      class: c.class, partitions: roundEstimate(c.partitions), scanned: roundEstimate(c.scanned), returned: roundEstimate(c.returned),
      selectivity: c.selectivity, reasons: c.reasons,
    };
    return { stdout: JSON.stringify(json, null, 2) + "\n", stderr: "", exitCode: 0 };
  }
  return { stdout: describe(c), stderr: "", exitCode: 0 };
}

/** The filter around `at` on one line with a caret under it: a long filter is cut to 60 characters either side, line breaks and control characters become spaces. */
function caret(filter: string, at: number): string {
  const from = Math.max(0, at - 60);
  const to = Math.min(filter.length, at + 60);
  const text = filter.slice(from, to).replace(/[\u0000-\u001f\u007f]/g, " ");
  return `  ${from > 0 ? "…" : ""}${text}${to < filter.length ? "…" : ""}\n  ${" ".repeat(at - from + (from > 0 ? 1 : 0))}^`;
}

function designContext(options: ClassifyOptions): FilterContext {
  if (!options.design && !options.table) return {};
  if (!options.design || !options.table) throw new UsageError("--design and --table go together");
  let text: string;
  try {
    text = fs.readFileSync(options.design, "utf8");
  } catch (e) {
    throw new InputError(`${options.design}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const analysis = analyzeTdl(text);
  const tm = analysis.tables.find((t) => t.table.name.text === options.table);
  if (!tm) {
    const names = analysis.tables.map((t) => t.table.name.text).join(", ") || "none";
    throw new InputError(`${options.design}: no table '${options.table}' (tables: ${names})`);
  }
  const { est } = tableFacts(tm.table, tm.props);
  return { rows: est.rows, rowsPerEntity: est.rowsPerEntity, partitions: est.partitions };
}

function describe(c: Classification): string {
  const n = (x: number | null) => (x === null ? "unknown" : `≈ ${Math.round(x).toLocaleString("en-US")}`);
  const lines = [summary(c), `  class:      ${c.class}`, `  partitions: ${c.class === "table-scan" && c.partitions === null ? "every partition" : n(c.partitions)}`,
    `  scanned:    ${n(c.scanned)}`, `  returned:   ${n(c.returned)}`];
  for (const r of c.reasons) lines.push(`  why:        ${r}`);
  return lines.join("\n") + "\n";
}
