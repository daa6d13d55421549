/**
 * Where a finding is, in words that survive an edit: the table and the
 * member it sits on (a query, a key, a property), not offsets, which move
 * when a fix inserts text. Before and after a fix, findings and queries are
 * matched by these anchors. Also the figures a check compares: each query's
 * class and cost, and the leading "≈ N" of a message.
 */
import { TdlAnalysis, TableModel } from "../analysis/analyze";
import { tableFacts } from "../model/facts";
import { QueryClass } from "../odata/classes";
import { RULES } from "../rules";
import { Finding } from "../findings";

/** Codes of the rules that judge the whole file: their findings are anchored to it, wherever they sit. */
export const FILE_CODES = new Set(RULES.filter((r) => r.checkFile && !r.checkTable).map((r) => r.code));

const within = (at: number, span: { start: number; end: number }) => at >= span.start && at <= span.end;

/** The member of `tm`'s table at the relative offset `rel`. */
function memberAt(tm: TableModel, rel: number): string {
  const t = tm.table;
  for (const a of t.accesses) if (within(rel, a.name)) return a.name.text;
  if (t.partitionKey && within(rel, t.partitionKey)) return "partitionKey";
  if (t.rowKey && within(rel, t.rowKey)) return "rowKey";
  for (const ix of t.indexes) if (within(rel, ix)) return `index ${ix.name.text}`;
  for (const p of t.properties) if (within(rel, p)) return `property ${p.name.text}`;
  for (const a of t.accesses) if (within(rel, a)) return a.name.text;
  return "table";
}

/** The tables of an analysis in text order, for a binary search (a design may hold thousands). */
const ordered = new WeakMap<TdlAnalysis, TableModel[]>();

/** The table whose text holds `offset`, found by binary search: `tableAt` of a large design, many times over. */
export function tableHolding(analysis: TdlAnalysis, offset: number): TableModel | undefined {
  let tables = ordered.get(analysis);
  if (!tables) ordered.set(analysis, (tables = [...analysis.tables].sort((a, b) => a.base + a.table.start - (b.base + b.table.start))));
  let lo = 0;
  let hi = tables.length - 1;
  let found: TableModel | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (tables[mid].base + tables[mid].table.start <= offset) {
      found = tables[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found && offset <= found.base + found.table.end ? found : undefined;
}

/** "Orders/ByDay", "Orders/partitionKey", "file": where a finding is, independent of offsets. */
export function anchorOf(analysis: TdlAnalysis, f: Pick<Finding, "code" | "start">): string {
  if (FILE_CODES.has(f.code)) return "file";
  const tm = tableHolding(analysis, f.start);
  return tm ? `${tm.table.name.text}/${memberAt(tm, f.start - tm.base)}` : "file";
}

/** The table part of an anchor ("" for the file). */
export function anchorTable(anchor: string): string {
  const i = anchor.indexOf("/");
  return i < 0 ? "" : anchor.slice(0, i);
}

/** What a check compares of a declared query. */
export interface QueryState {
  table: string;
  name: string;
  class: QueryClass;
  /** Requests per call: the fan-out, 1 without. */
  requests: number;
  /** Entities scanned per second (per call without a rate); null when unknown. */
  cost: number | null;
}

/** Every classified query of a design, by "Table/Query". */
export function queryStates(analysis: TdlAnalysis): Map<string, QueryState> {
  const out = new Map<string, QueryState>();
  for (const tm of analysis.tables) {
    if (!tm.checked) continue;
    for (const qa of tableFacts(tm.table, tm.props).queries) {
      const c = qa.classification;
      if (!c) continue;
      const rate = qa.query.rate?.perSecond ?? 1;
      const name = qa.query.name.text;
      out.set(`${tm.table.name.text}/${name}`, {
        table: tm.table.name.text,
        name,
        class: c.class,
        requests: c.requests ?? 1,
        cost: c.scanned !== null ? c.scanned * rate : null,
      });
    }
  }
  return out;
}

const SCALE: Record<string, number> = { billion: 1e9, trillion: 1e12 };

/** The first "≈ N" figure of a message ("≈ 8,000 entities/s" is 8000, "≈ 2.5 billion" 2.5e9); undefined without one. */
export function leadingFigure(message: string): number | undefined {
  const m = /≈ (-?[\d,]+(?:\.\d+)?)(?: (billion|trillion))?/.exec(message);
  if (!m) return undefined;
  const n = Number(m[1].replace(/,/g, ""));
  return Number.isFinite(n) ? n * (m[2] ? SCALE[m[2]] : 1) : undefined;
}
