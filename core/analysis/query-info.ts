/**
 * Queries as the surfaces show them: CodeLens titles, hovers, and the CLI's
 * `queries` entries — all from the one classification per query.
 */
import { tableFacts } from "../model/facts";
import { Classification, summary } from "../odata/classes";
import { formatCount } from "../text/words";
import { TdlAnalysis, TableModel } from "./analyze";

export interface QueryInfo {
  table: string;
  name: string;
  /** Absolute span of the query's name. */
  start: number;
  end: number;
  classification?: Classification;
}

/** Every classified query of the design, in order. */
export function queryInfos(analysis: TdlAnalysis): QueryInfo[] {
  return analysis.tables.filter((tm) => tm.checked).flatMap((tm) => tableQueries(tm));
}

function tableQueries(tm: TableModel): QueryInfo[] {
  return tableFacts(tm.table, tm.props).queries.map(({ query, classification }) => ({
    table: tm.table.name.text,
    name: query.name.text,
    start: tm.base + query.name.start,
    end: tm.base + query.name.end,
    classification,
  }));
}

/** Markdown for a query's hover: its class, why, and the estimates. */
export function queryMarkdown(name: string, c: Classification): string {
  const fmt = (n: number | null) => (n === null ? "unknown (declare rows and distinct values)" : `≈ ${formatCount(n)}`);
  const lines = [`**query ${name}** — \`${summary(c)}\``, ""];
  for (const r of c.reasons) lines.push(`- ${r}`);
  if (c.via && c.via !== "rowKey") lines.push(`- served by the index rows of \`${c.via}\``);
  lines.push(
    `- partitions touched: ${fmt(c.partitions)}`,
    `- entities scanned: ${fmt(c.scanned)}`,
    `- entities returned: ${fmt(c.returned)}`,
  );
  if (c.selectivity !== null)
    lines.push(`- selectivity (returned / scanned): ${c.selectivity >= 0.01 ? c.selectivity.toFixed(2) : c.selectivity.toExponential(1)}`);
  return lines.join("\n");
}

/** An estimate as the JSON report prints it: a whole number of entities, or null. */
export function roundEstimate(n: number | null | undefined): number | null {
  return n === null || n === undefined || !Number.isFinite(n) ? null : Math.max(n > 0 ? 1 : 0, Math.round(n));
}
