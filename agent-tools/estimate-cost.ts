/**
 * `estimate_cost`: what each table's declared load costs a month on each
 * service profile (core/cost/), priced with the sheet `tdl cost` uses for
 * the region: a cached sheet of that region, else the snapshot shipped with
 * tdl (the answer says which, and its date). Never the network: the same
 * design gives the same figures.
 */
import { analyzeTdl, designCost, REDUNDANCIES, type Redundancy } from "@core";
import { sheetFor } from "@runtime";
import { ANALYSIS_PROPERTIES, analysisOf, DESIGN_PROPERTIES, designOf } from "./inputs";
import { defineTool } from "./tool";

interface Input {
  design?: string;
  path?: string;
  region?: string;
  redundancy?: string;
  table?: string;
  service?: string;
}

export const estimateCost = defineTool({
  name: "estimate_cost",
  title: "Estimate a design's monthly cost",
  description:
    "The monthly cost in US dollars of each table's declared load (rates, rows, entity size) on each service profile: Table Storage transactions and capacity, Cosmos DB for Table request units (provisioned, autoscale, serverless side by side), Tablestore capacity units, with the price sheet's date and region and the assumptions made. Tables with errors are not priced. Read-only, no network.",
  inputSchema: {
    type: "object",
    properties: {
      ...DESIGN_PROPERTIES,
      region: { type: "string", maxLength: 50, description: "The Azure region whose prices apply (default eastus)." },
      redundancy: {
        type: "string",
        enum: REDUNDANCIES.map((r) => r.toLowerCase()),
        description: "Table Storage's redundancy (default lrs).",
      },
      table: { type: "string", maxLength: 200, description: "Only this table." },
      service: ANALYSIS_PROPERTIES.service,
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      prices: {
        type: "object",
        properties: {
          date: { type: "string" },
          region: { type: "string" },
          source: { type: "string" },
          redundancy: { type: "string" },
          note: { type: "string" },
        },
        required: ["date", "region", "source", "redundancy"],
      },
      tables: {
        type: "array",
        items: {
          type: "object",
          properties: {
            table: { type: "string" },
            estimates: { type: "array" },
            assumptions: { type: "array", items: { type: "string" } },
          },
          required: ["table", "estimates", "assumptions"],
        },
      },
      errors: { type: "integer", description: "Errors in the design: tables with errors are not priced (check_design names them)." },
    },
    required: ["prices", "tables", "errors"],
  },
  run(input: Input, { workspace }) {
    const { text } = designOf(input, workspace);
    const analysis = analyzeTdl(text, analysisOf(input));
    const choice = sheetFor(input.region ?? "eastus");
    const redundancy = (input.redundancy ?? "lrs").toUpperCase() as Redundancy;
    const tables = designCost(analysis, { prices: choice.sheet, redundancy, table: input.table });
    return {
      prices: {
        date: choice.sheet.date,
        region: choice.sheet.region,
        source: choice.sheet.source,
        redundancy,
        ...(choice.note ? { note: choice.note } : {}),
      },
      tables,
      errors: analysis.findings.filter((f) => f.severity === "error").length,
    };
  },
});
