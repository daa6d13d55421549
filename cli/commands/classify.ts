/** `tdl classify "FILTER"`, declared: the classification is classify.ts. */
import { command } from "../command";
import { ANALYSIS, analysisOf, choice, text } from "../options";
import { runClassify } from "../classify";
import { readStdin } from "../files";

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
