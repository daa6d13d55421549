/**
 * `query_entities`: runs a filter on a table of a named connection, at most
 * 1,000 entities, and returns them with the filter's class (classified
 * before it runs, core/odata/) and what the query measured: requests,
 * pages, continuation tokens followed, entities, milliseconds.
 */
import { classifyFilter, formatCount, parseFilter } from "@core";
import { InputError } from "@core/errors";
import { CONNECTION_PROPERTY, onAccount, TABLE_PROPERTY } from "./account-input";
import { MAX_FILTER_CHARS } from "./classify-query";
import { defineTool } from "./tool";

/** The filter's class, classified before it runs; one that does not parse is an error naming the position. */
function classified(filter: string): { class: string; reasons: string[] } {
  const parsed = parseFilter(filter);
  if (!parsed.ok)
    throw new InputError(`the filter does not parse at character ${parsed.error.start + 1}: ${parsed.error.message.slice(0, 200)}`);
  return classifyFilter(parsed.expr, {});
}

/** The most entities one call returns. */
export const MAX_ENTITIES = 1_000;

interface Input {
  connection?: string;
  table: string;
  filter?: string;
  limit?: number;
  select?: string[];
}

export const queryEntities = defineTool({
  name: "query_entities",
  title: "Query a table's entities",
  description: `Run an OData filter on a table of a named connection and return at most ${formatCount(MAX_ENTITIES)} entities (default 100) with their types, the filter's class (point, row-range, partition-range, table-scan) and the query's measured cost (requests, pages, continuation tokens, milliseconds). Without a filter, the first entities of a scan. Reads the account; no secret is taken or returned.`,
  inputSchema: {
    type: "object",
    properties: {
      connection: CONNECTION_PROPERTY,
      table: TABLE_PROPERTY,
      filter: { type: "string", maxLength: MAX_FILTER_CHARS, description: "The OData filter (default: none, a scan)." },
      limit: { type: "integer", minimum: 1, maximum: MAX_ENTITIES, description: "Entities to return at most (default 100)." },
      select: {
        type: "array",
        maxItems: 252,
        items: { type: "string", maxLength: 255 },
        description: "Properties to return (default all).",
      },
    },
    required: ["table"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      class: { type: "string", enum: ["point", "row-range", "partition-range", "table-scan"] },
      reasons: { type: "array", items: { type: "string" } },
      entities: { type: "array", items: { type: "object" } },
      cost: {
        type: "object",
        properties: {
          requests: { type: "integer" },
          pages: { type: "integer" },
          continuationTokens: { type: "integer" },
          entities: { type: "integer" },
          elapsedMs: { type: "number" },
        },
        required: ["requests", "pages", "continuationTokens", "entities", "elapsedMs"],
      },
      more: { type: "boolean", description: "More entities match beyond the limit." },
    },
    required: ["class", "reasons", "entities", "cost", "more"],
  },
  touchesAccount: true,
  async run(input: Input, { connections, signal }) {
    const filter = input.filter ?? "";
    const c = filter.trim() ? classified(filter) : { class: "table-scan", reasons: ["no filter: every partition is read"] };
    const open = await connections.open(input.connection);
    const result = await onAccount(`cannot query ${input.table} at ${open.name}`, () =>
      open.session.query(input.table, filter, { limit: input.limit ?? 100, select: input.select, signal }),
    );
    return {
      class: c.class,
      reasons: c.reasons,
      entities: result.entities,
      cost: result.cost,
      more: result.continuationToken !== undefined,
    };
  },
});
