/**
 * `tdl classify "FILTER" [--design FILE --table NAME] [--format text|json]`,
 * declared and run: the class of one OData filter, with estimates from a
 * design's table. A filter that does not parse exits 2 with its position; a
 * failure of the parser or classifier itself is thrown, for the CLI's one
 * mapping (exit 3 with its message, never a stack).
 */
import {
  AnalysisOptions,
  analyzeTdl,
  classifyFilter,
  Classification,
  roundEstimate,
  summary,
  tableFacts,
  FilterContext,
  filterContext,
  type FilterExpr,
} from "@core";
import { command } from "../command";
import { ANALYSIS, analysisOf, choice, text } from "../options";
import { readStdin, readTextFile } from "../files";
import { EXIT, failureResult } from "../failure";
import { kindOf, UsageError } from "@core/errors";
import { designTable, filterColumns, parsedFilter } from "../validate";
import type { CliResult } from "../output";

export const classify = command({
  name: "classify",
  summary: "Classify one OData filter as point, row-range, partition-range or table-scan, with estimates from a design's table",
  description:
    "A filter that starts with '-' goes after --; FILTER '-' reads the filter from stdin (a filter longer than one argument may be, or one with a NUL).",
  exits: "0; 2 the filter does not parse (with the position) or bad usage; 3 an internal failure",
  positionals: { arg: '"FILTER"', count: "one", missing: `classify needs one FILTER, quoted: tdl classify "PartitionKey eq 'a'"` },
  options: {
    design: text("FILE", "the design whose table gives the estimates"),
    table: text("NAME", "the table of --design"),
    format: choice(["text", "json"], "text (the class, then partitions, scanned and returned) or json").default("text"),
    ...ANALYSIS.options,
  },
  together: [["design", "table"]],
  run({ positionals, options }) {
    // `-`: a filter longer than the system's limit on one argument (128 KiB on Linux) still gets classified.
    const filter = positionals[0] === "-" ? readStdin().replace(/\r?\n$/, "") : positionals[0];
    return runClassify(filter, { format: options.format, design: options.design, table: options.table, analysis: analysisOf(options) });
  },
});

export interface ClassifyOptions {
  /** How the design is analysed (its service profile when it declares none, the partition target). */
  analysis?: AnalysisOptions;
  design?: string;
  table?: string;
  format: "text" | "json";
}

/** The class of `filter`; a filter that does not parse is exit 2 with its position, a failure of the classifier itself is thrown (exit 3). */
export function runClassify(filter: string, options: ClassifyOptions): CliResult {
  let expr: FilterExpr;
  let context: FilterContext;
  try {
    expr = parsedFilter(filter);
    context = designContext(filter, expr, options);
  } catch (e) {
    // A filter, table or column that is wrong is the user's input: its sentence and exit 2, as every command says it.
    if (kindOf(e) === "input") return failureResult(e, "classify");
    throw e;
  }
  const c: Classification = classifyFilter(expr, context);
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

/** The estimates of the design's table, once its name and the filter's columns are checked against it. */
function designContext(filter: string, expr: FilterExpr, options: ClassifyOptions): FilterContext {
  if (!options.design && !options.table) return {};
  if (!options.design || !options.table) throw new UsageError("--design and --table go together");
  const text = readTextFile(options.design);
  const analysis = analyzeTdl(text, options.analysis);
  const tm = designTable(options.design, analysis, options.table);
  filterColumns(filter, expr, options.design, tm);
  return filterContext(tableFacts(tm.table, tm.props).est, tm.props);
}

function describe(c: Classification): string {
  const n = (x: number | null) => (x === null ? "unknown" : `≈ ${Math.round(x).toLocaleString("en-US")}`);
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
