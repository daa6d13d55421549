/**
 * `check_code`: the TypeScript/JavaScript findings and query classes of
 * files inside the workspace, with the analysis the language server and
 * `tdl check` run (ts-analysis/, loaded on demand from its own bundle). The
 * `.tdl` designs among the paths give the code's tables their properties
 * and the drift rules their declared keys and queries, as in `tdl check`.
 */
import * as path from "node:path";
import { analyzeTdl, LineIndex, type AnalysisOptions, type PropertyInfo } from "@core";
import type { TsAnalyzer } from "@ts-analysis/analysis";
import { InputError } from "@core/errors";
import { isTsFile, loadTsAnalysis } from "@ts-analysis/loader";
import { designTable, type DesignTable } from "@ts-analysis/drift/design-index";
import { ANALYSIS_PROPERTIES, analysisOf, insideWorkspace, MAX_DESIGN_CHARS, readWorkspaceFile, shown } from "./inputs";
import {
  countOf,
  estimates,
  FINDING_SCHEMA,
  QUERY_SCHEMA,
  SUMMARY_SCHEMA,
  toolFinding,
  type ToolFinding,
  type ToolQuery,
} from "./findings";
import { defineTool } from "./tool";

/**
 * The analyzer of the last call, kept while the options and the designs are
 * the same: its programs are reused (a file's text is compared on update),
 * so repeated calls cost the analysis, not the compiler's start.
 */
let kept: { key: string; analyzer: TsAnalyzer } | undefined;

function analyzerFor(
  options: AnalysisOptions,
  props: Map<string, ReadonlyMap<string, PropertyInfo>>,
  tables: Map<string, DesignTable>,
): TsAnalyzer {
  const key = JSON.stringify([options, [...tables.values()].map((t) => `${t.name}@${t.source}#${t.fingerprint}`)]);
  if (kept?.key === key) return kept.analyzer;
  const { TsAnalyzer: Analyzer } = loadTsAnalysis();
  const analyzer = new Analyzer({
    design: (t) => (t ? props.get(t) : undefined),
    designTable: (t) => (t ? tables.get(t) : undefined),
    analysis: options,
  });
  kept = { key, analyzer };
  return analyzer;
}

/** Files one call takes. */
const MAX_FILES = 100;

interface Input {
  paths: string[];
  service?: string;
  rules?: Record<string, string>;
}

interface CodeFile {
  path: string;
  findings: ToolFinding[];
  queries: ToolQuery[];
}

export const checkCode = defineTool({
  name: "check_code",
  title: "Check code that calls @azure/data-tables",
  description:
    "Analyse TypeScript/JavaScript files that call @azure/data-tables: keys built without padding or with a constant or clock-led partition key, invalid key characters, cross-partition transactions, filters that do not parse or scan every partition, drift from the .tdl designs given among the paths; and each listEntities/getEntity call's query class (named line:character, 0-based). Paths are files inside the workspace. Read-only.",
  inputSchema: {
    type: "object",
    properties: {
      paths: {
        type: "array",
        maxItems: MAX_FILES,
        items: { type: "string", maxLength: 1000, minLength: 1 },
        description: "Files inside the workspace (.ts, .tsx, .js…, and .tdl designs whose tables the code writes).",
      },
      ...ANALYSIS_PROPERTIES,
    },
    required: ["paths"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      summary: SUMMARY_SCHEMA,
      files: {
        type: "array",
        items: {
          type: "object",
          properties: {
            path: { type: "string" },
            findings: { type: "array", items: FINDING_SCHEMA },
            queries: { type: "array", items: QUERY_SCHEMA },
          },
          required: ["path", "findings", "queries"],
        },
      },
      notes: { type: "array", items: { type: "string" }, description: "What was not analysed, and why." },
    },
    required: ["summary", "files", "notes"],
  },
  run(input: Input, { workspace }) {
    const options = analysisOf(input);
    const files = [...new Set(input.paths.map((p) => insideWorkspace(workspace, p)))].sort();
    const shownPath = (f: string) => path.relative(workspace, f).split(path.sep).join("/");
    const notCode = files.filter((f) => !isTsFile(f) && !f.endsWith(".tdl"));
    if (notCode.length) throw new InputError(`${shown(shownPath(notCode[0]))} is neither TypeScript/JavaScript nor a .tdl design`);
    const texts = new Map(files.map((f) => [f, readWorkspaceFile(workspace, f, MAX_DESIGN_CHARS)]));
    const props = new Map<string, ReadonlyMap<string, PropertyInfo>>();
    const tables = new Map<string, DesignTable>();
    for (const f of files.filter((x) => x.endsWith(".tdl"))) {
      const analysis = analyzeTdl(texts.get(f)!, options);
      for (const tm of analysis.tables) {
        if (props.has(tm.table.name.text)) continue;
        props.set(tm.table.name.text, tm.props);
        tables.set(tm.table.name.text, designTable(tm, analysis, f));
      }
    }
    const code = files.filter(isTsFile);
    const notes: string[] = [];
    const out: CodeFile[] = [];
    if (code.length) {
      const ts = analyzerFor(options, props, tables);
      for (const f of code) ts.update(f, texts.get(f)!);
      for (const f of code) {
        const lines = new LineIndex(texts.get(f)!);
        const result = ts.analyze(f);
        for (const { text: n } of result.notices ?? []) if (!notes.includes(n)) notes.push(n);
        out.push({
          path: shownPath(f),
          findings: [...result.findings]
            .sort((a, b) => a.start - b.start || a.end - b.end || (a.code < b.code ? -1 : 1))
            .map((x) => toolFinding(lines, x)),
          queries: result.queries.flatMap((q) => {
            if (!q.classification) return [];
            const at = lines.position(q.start);
            return [{ table: q.table ?? "", name: `${at.line}:${at.character}`, ...estimates(q.classification) }];
          }),
        });
      }
    }
    return { summary: countOf(out.flatMap((f) => f.findings)), files: out, notes: notes.map((n) => n.split(workspace).join(".")) };
  },
});
