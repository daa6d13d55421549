/**
 * `tdl classify "FILTER" [--design FILE --table NAME] [--format text|json]`:
 * the class of one OData filter, with estimates from a design's table.
 * A filter that does not parse exits 2 with its position; a failure of the
 * parser or classifier itself is thrown, for the CLI's one mapping (exit 3
 * with its message, never a stack).
 */
import {
  AnalysisOptions,
  analyzeTdl,
  classifyFilter,
  Classification,
  parseFilter,
  roundEstimate,
  summary,
  tableFacts,
  FilterContext,
  filterContext,
} from "@core";
import { readTextFile } from "./files";
import { EXIT } from "./failure";
import { describeError, InputError, UsageError } from "@core/errors";
import type { CliResult } from "./output";
import { formatCount } from "@core/text/words";

export interface ClassifyOptions {
  /** How the design is analysed (its service profile when it declares none, the partition target). */
  analysis?: AnalysisOptions;
  design?: string;
  table?: string;
  format: "text" | "json";
}

/** The class of `filter`; a filter that does not parse is exit 2 with its position, a failure of the classifier itself is thrown (exit 3). */
export function runClassify(filter: string, options: ClassifyOptions): CliResult {
  const context = designContext(options);
  const parsed = parseFilter(filter);
  if (!parsed.ok) {
    const { message, start } = parsed.error;
    return {
      stdout: "",
      stderr: `tdl: the filter does not parse at character ${start + 1}: ${describeError(new Error(message))}\n${caret(filter, start)}\n`,
      exitCode: EXIT.usage,
    };
  }
  const c: Classification = classifyFilter(parsed.expr, context);
  if (options.format === "json") {
    const json = {
      class: c.class,
      partitions: roundEstimate(c.partitions),
      scanned: roundEstimate(c.scanned),
      returned: roundEstimate(c.returned),
      selectivity: c.selectivity,
      reasons: c.reasons,
    };
    return { stdout: JSON.stringify(json, null, 2) + "\n", stderr: "", exitCode: EXIT.clean };
  }
  return { stdout: describe(c), stderr: "", exitCode: EXIT.clean };
}

/** Characters shown on each side of the error position: a 200,000-character filter is not printed whole. */
const CONTEXT = 40;

/**
 * The filter around `start`, with a caret under it. Control characters
 * (newlines, tabs, NUL) are shown as `·` so that the caret lines up and the
 * terminal is not driven by the user's input.
 */
export function caret(filter: string, start: number): string {
  const from = Math.max(0, start - CONTEXT);
  const to = Math.min(filter.length, start + CONTEXT);
  const shown =
    (from > 0 ? "…" : "") + filter.slice(from, to).replace(/[\u0000-\u001f\u007f-\u009f]/g, "·") + (to < filter.length ? "…" : "");
  return `  ${shown}\n  ${" ".repeat(start - from + (from > 0 ? 1 : 0))}^`;
}

function designContext(options: ClassifyOptions): FilterContext {
  if (!options.design && !options.table) return {};
  if (!options.design || !options.table) throw new UsageError("--design and --table go together");
  const text = readTextFile(options.design);
  const analysis = analyzeTdl(text, options.analysis);
  const tm = analysis.tables.find((t) => t.table.name.text === options.table);
  if (!tm) {
    const names = analysis.tables.map((t) => t.table.name.text).join(", ") || "none";
    throw new InputError(`${options.design}: no table '${options.table}' (tables: ${names})`);
  }
  return filterContext(tableFacts(tm.table, tm.props).est, tm.props);
}

function describe(c: Classification): string {
  const n = (x: number | null) => (x === null ? "unknown" : `≈ ${formatCount(Math.round(x))}`);
  const lines = [
    summary(c),
    `  class:      ${c.class}`,
    `  partitions: ${c.class === "table-scan" && c.partitions === null ? "every partition" : n(c.partitions)}`,
    `  scanned:    ${n(c.scanned)}`,
    `  returned:   ${n(c.returned)}`,
  ];
  for (const r of c.reasons) lines.push(`  why:        ${r}`);
  return lines.join("\n") + "\n";
}
