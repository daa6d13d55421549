/**
 * `infer_design`: reads a sample of a table of a named connection, spread
 * over its key space, and returns the design inferred from it (runtime/infer/,
 * as `tdl infer`), with how well its key expressions explain the sampled keys
 * and what check_design finds in it.
 */
import { analyzeTdl } from "@core";
import { inferFromTable } from "@runtime";
import { CONNECTION_PROPERTY, onAccount, TABLE_PROPERTY } from "./account-input";
import { ANALYSIS_PROPERTIES, analysisOf } from "./inputs";
import { countOf, SUMMARY_SCHEMA } from "./findings";
import { defineTool } from "./tool";

/** Largest sample one call reads (`tdl infer` allows more: an agent's call should return in seconds). */
const MAX_SAMPLE = 100_000;

export const inferDesign = defineTool({
  name: "infer_design",
  title: "Infer a design from a table",
  description:
    "Read a sample of a table of a named connection (default 10,000 entities, spread over its key space) and return the .tdl design inferred from it: key expressions, property types and facts, rows and entity size; with how many sampled keys the expressions rebuild and the counts check_design finds in the design. Reads the account.",
  inputSchema: {
    type: "object",
    properties: {
      connection: CONNECTION_PROPERTY,
      table: TABLE_PROPERTY,
      sample: { type: "integer", minimum: 1, maximum: MAX_SAMPLE, description: "Entities to read at most (default 10,000)." },
      service: ANALYSIS_PROPERTIES.service,
    },
    required: ["table"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      design: { type: "string", description: "The inferred design (.tdl)." },
      sampled: { type: "integer" },
      partitions: { type: "integer" },
      wholeTable: { type: "boolean" },
      keys: {
        type: "object",
        description: "Sampled keys the inferred expressions rebuild.",
        properties: { partitionKey: { type: "integer" }, rowKey: { type: "integer" } },
        required: ["partitionKey", "rowKey"],
      },
      findings: SUMMARY_SCHEMA,
    },
    required: ["design", "sampled", "partitions", "wholeTable", "keys", "findings"],
  },
  touchesAccount: true,
  async run(input: { connection?: string; table: string; sample?: number; service?: string }, { connections, signal }) {
    const options = analysisOf(input);
    const open = await connections.open(input.connection);
    const r = await onAccount(`cannot infer a design from ${input.table} at ${open.name}`, () =>
      inferFromTable(open.session, input.table, { sample: input.sample ?? 10_000, service: options.defaultService, signal }),
    );
    return {
      design: r.text,
      sampled: r.check.total,
      partitions: r.stats.partitions,
      wholeTable: r.sample.wholeTable,
      keys: { partitionKey: r.check.partitionKey, rowKey: r.check.anyRowKey },
      findings: countOf(analyzeTdl(r.text, options).findings),
    };
  },
});
