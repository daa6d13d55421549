/** `check_design`: a design's findings, each fix checked, and its queries' classes: `tdl check --format json` for one design. */
import { analyzeTdl } from "@core";
import { ANALYSIS_PROPERTIES, analysisOf, DESIGN_PROPERTIES, designOf } from "./inputs";
import { countOf, designFindings, designQueries, FINDING_SCHEMA, QUERY_SCHEMA, SUMMARY_SCHEMA } from "./findings";
import { defineTool } from "./tool";

export const checkDesign = defineTool({
  name: "check_design",
  title: "Check a table design",
  description:
    "Analyse a Table Storage / Cosmos DB for Table / Tablestore key design (.tdl) deterministically: every finding with its code, severity, range and figures, each quick fix checked on a copy of the design (what it removes, what it leaves, which declared queries it changes), and each declared query's class (point, row-range, partition-range, table-scan) with its estimates. Read-only.",
  inputSchema: {
    type: "object",
    properties: { ...DESIGN_PROPERTIES, ...ANALYSIS_PROPERTIES },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      design: { type: "string", description: "The path given, or 'design' for text." },
      summary: SUMMARY_SCHEMA,
      findings: { type: "array", items: FINDING_SCHEMA },
      queries: { type: "array", items: QUERY_SCHEMA },
    },
    required: ["design", "summary", "findings", "queries"],
  },
  run(input: { design?: string; path?: string; service?: string; rules?: Record<string, string> }, { workspace }) {
    const { text, file } = designOf(input, workspace);
    const analysis = analyzeTdl(text, analysisOf(input));
    const findings = designFindings(text, analysis);
    return { design: file, summary: countOf(findings), findings, queries: designQueries(analysis) };
  },
});
