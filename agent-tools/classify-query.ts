/** `classify_query`: one OData filter's class and estimates, from a design's table when one is given (`tdl classify --format json`). */
import { analyzeTdl, classifyFilter, filterContext, parseFilter, tableFacts, type FilterContext } from "@core";
import { InputError } from "@core/errors";
import { ANALYSIS_PROPERTIES, analysisOf, DESIGN_PROPERTIES, designOf } from "./inputs";
import { estimates } from "./findings";
import { defineTool, type ToolContext } from "./tool";

/** Longest filter taken (the service's own URL limit is far below it). */
export const MAX_FILTER_CHARS = 200_000;

interface Input {
  filter: string;
  design?: string;
  path?: string;
  table?: string;
  service?: string;
}

export const classifyQuery = defineTool({
  name: "classify_query",
  title: "Classify an OData filter",
  description:
    "Classify an OData $filter on PartitionKey/RowKey (and properties) as point, row-range, partition-range or table-scan, with the reasons; with a design (text or path) and one of its tables, also the partitions, entities scanned and entities returned it costs. A filter that does not parse is an error naming the position. Read-only.",
  inputSchema: {
    type: "object",
    properties: {
      filter: {
        type: "string",
        maxLength: MAX_FILTER_CHARS,
        description: "The OData filter, e.g. PartitionKey eq 'a' and RowKey ge '2024'.",
      },
      ...DESIGN_PROPERTIES,
      table: { type: "string", maxLength: 200, description: "The design's table the filter queries (with design or path)." },
      service: ANALYSIS_PROPERTIES.service,
    },
    required: ["filter"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      class: { type: "string", enum: ["point", "row-range", "partition-range", "table-scan"] },
      partitions: { anyOf: [{ type: "number" }, { type: "null" }] },
      scanned: { anyOf: [{ type: "number" }, { type: "null" }] },
      returned: { anyOf: [{ type: "number" }, { type: "null" }] },
      selectivity: { anyOf: [{ type: "number" }, { type: "null" }] },
      reasons: { type: "array", items: { type: "string" } },
    },
    required: ["class", "partitions", "scanned", "returned", "reasons"],
  },
  run(input: Input, context) {
    const parsed = parseFilter(input.filter);
    if (!parsed.ok)
      throw new InputError(`the filter does not parse at character ${parsed.error.start + 1}: ${parsed.error.message.slice(0, 200)}`);
    const c = classifyFilter(parsed.expr, designContext(input, context));
    return { ...estimates(c), selectivity: c.selectivity ?? null, reasons: c.reasons };
  },
});

/** The estimates' context: the design's table, or none. */
function designContext(input: Input, { workspace }: ToolContext): FilterContext {
  if (input.design === undefined && input.path === undefined) {
    if (input.table !== undefined) throw new InputError("table needs the design (design or path) that declares it");
    return {};
  }
  const { text, file } = designOf(input, workspace);
  const analysis = analyzeTdl(text, analysisOf(input));
  const names = analysis.tables.map((t) => t.table.name.text);
  const tm =
    input.table === undefined && names.length === 1 ? analysis.tables[0] : analysis.tables.find((t) => t.table.name.text === input.table);
  if (!tm)
    throw new InputError(
      `${file}: ${input.table === undefined ? "name the table" : `no table '${input.table.slice(0, 100)}'`} (tables: ${names.join(", ") || "none"})`,
    );
  return filterContext(tableFacts(tm.table, tm.props).est, tm.props);
}
