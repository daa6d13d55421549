/**
 * From sampled entities to a design: key grammar, property facts, load
 * facts, the `.tdl` text — and a check of that text by the core itself:
 * the analyzer parses it and its key evaluator (`renderKey`) must rebuild
 * the sampled keys. Pure: no I/O (sampling is in sample.ts).
 */
import { analyzeTdl, renderKey, Scalar, ServiceName } from "@core";
import type { EntityRow, TypedValue } from "@protocol/entities";
import { writeDesign, SampleSummary } from "./design-writer";
import { RowView } from "./key-atoms";
import { inferKeyGrammar, KeyGrammar } from "./key-grammar";
import { partitionStats, PartitionStats } from "./partition-stats";
import { applyPartitionCounts, inferProperties, PropertyFacts, valueBytes } from "./properties";
import { IDENTIFIER } from "./tdl-text";
import { Row, rowOf, scalarOf } from "./values";

/** What the sampler tells about the read (all optional for a plain list of entities). */
export interface SampleMeta {
  table: string;
  source?: string;
  requests?: number;
  elapsedMs?: number;
  readAt?: Date;
  /** Every entity of the table was read. */
  wholeTable?: boolean;
  /** The table's estimated rows (entities, index rows included) when not all were read. */
  tableRows?: number;
  rowsBasis?: string;
  /** Properties left out of later reads, with their average size in bytes (from the full reads). */
  leftOut?: Array<{ name: string; averageBytes: number }>;
  /** Entities per partition, for partitions counted in full. */
  partitionCounts?: ReadonlyMap<string, number>;
  /** `partitionCounts` holds every partition of the table. */
  countComplete?: boolean;
}

/** How many sampled keys the written design's expressions rebuild, by the core's own evaluator. */
export interface DesignCheck {
  parsed: boolean;
  partitionKey: number;
  rowKey: number;
  /** Rows whose RowKey any of the row key or index expressions rebuilds. */
  anyRowKey: number;
  total: number;
}

export interface InferResult {
  text: string;
  grammar: KeyGrammar;
  properties: PropertyFacts[];
  stats: PartitionStats;
  check: DesignCheck;
  /** Time the inference took (not the reading), ms. */
  inferMs: number;
}

export interface InferOptions {
  service?: ServiceName;
}

/** Infers the design of a table from sampled entities. */
export function inferDesign(entities: readonly EntityRow[], meta: SampleMeta, options: InferOptions = {}): InferResult {
  const started = performance.now();
  const rows = entities.map(rowOf);
  // Keys are explained only by properties the design can name: the writer leaves the others out.
  const keyRows = rows.map(nameableOnly);
  const grammar = inferKeyGrammar(
    keyRows,
    keyRows.map((r) => new RowView(r)),
  );
  const withKeyOnly = addKeyOnly(rows, grammar);
  // Facts are about entities: with index rows, each entity's main row speaks for it.
  const mainIdx = grammar.indexes.length && grammar.rowKey ? mainRows(rows.length, grammar) : undefined;
  const factRows = mainIdx ? mainIdx.map((i) => withKeyOnly[i]) : withKeyOnly;
  const wholeTable = meta.wholeTable ?? true;
  const tableRows = wholeTable ? rows.length : Math.max(rows.length, meta.tableRows ?? rows.length);
  const tableEntities = mainIdx ? Math.round((tableRows * mainIdx.length) / Math.max(1, rows.length)) : tableRows;
  const properties = inferProperties(factRows, tableEntities);
  const sole = soleProperty(grammar);
  if (sole && meta.countComplete && meta.partitionCounts) applyPartitionCounts(properties, sole, meta.partitionCounts);
  const extra = (meta.leftOut ?? []).reduce((s, p) => s + p.averageBytes, 0);
  const stats = partitionStats(rows, propertyBytes, extra, meta.partitionCounts, meta.countComplete);
  const summary: SampleSummary = {
    table: meta.table,
    source: meta.source,
    readAt: meta.readAt ?? new Date(),
    entities: rows.length,
    mainRows: factRows.length,
    requests: meta.requests ?? 0,
    elapsedMs: meta.elapsedMs ?? 0,
    wholeTable,
    tableRows,
    rowsBasis: wholeTable ? "counted: the whole table was read" : (meta.rowsBasis ?? "estimated"),
    leftOut: meta.leftOut?.map((p) => p.name),
  };
  const keyOnly = new Map(grammar.derived.map((d) => [d.name, d.note]));
  const draft = { summary, service: options.service, properties, keyOnly, grammar, stats };
  const inferMs = performance.now() - started;
  const text = writeDesign({ ...draft, inferMs });
  const check = checkDesign(text, meta.table, withKeyOnly, options.service);
  return { text, grammar, properties, stats, check, inferMs: performance.now() - started };
}

/** The property that alone makes the PartitionKey through a one-to-one rendering, if any. */
function soleProperty(g: KeyGrammar): string | undefined {
  const parts = g.partitionKey?.template.filter((a) => a.kind !== "lit") ?? [];
  const only = parts.length === 1 ? parts[0] : undefined;
  return only && (only.kind === "ref" || only.kind === "pad" || only.kind === "lower" || only.kind === "upper") ? only.prop : undefined;
}

function propertyBytes(r: Row): number {
  let b = 0;
  for (const [name, v] of r.props) b += 8 + 2 * name.length + valueBytes(v);
  return b;
}

/** The row without the properties whose names are not TDL identifiers (the same row when all are). */
function nameableOnly(r: Row): Row {
  for (const name of r.props.keys()) {
    if (!IDENTIFIER.test(name)) return { ...r, props: new Map([...r.props].filter(([n]) => IDENTIFIER.test(n))) };
  }
  return r;
}

/** Rows with their key-only values added (a new map only where there are any). */
function addKeyOnly(rows: readonly Row[], g: KeyGrammar): Row[] {
  const extra = new Map<number, Map<string, TypedValue>>();
  for (const d of g.derived) {
    for (const [r, v] of d.values) {
      let m = extra.get(r);
      if (!m) extra.set(r, (m = new Map(rows[r].props)));
      m.set(d.name, v);
    }
  }
  return rows.map((r, i) => (extra.has(i) ? { ...r, props: extra.get(i)! } : r));
}

/** Indices of main rows: every row but those of index shapes. */
function mainRows(n: number, g: KeyGrammar): number[] {
  const index = new Set<number>();
  for (const ix of g.indexes) for (const r of ix.rows) index.add(r);
  return Array.from({ length: n }, (_, i) => i).filter((i) => !index.has(i));
}

/** Parses the written design with the core and rebuilds every sampled key with its evaluator. */
export function checkDesign(text: string, table: string, rows: readonly Row[], service?: ServiceName): DesignCheck {
  const analysis = analyzeTdl(text, { defaultService: service });
  const tm = analysis.tables.find((t) => t.table.name.text === table);
  const out: DesignCheck = {
    parsed: !!tm && !analysis.errors.length && !tm.table.hasSyntaxError,
    partitionKey: 0,
    rowKey: 0,
    anyRowKey: 0,
    total: rows.length,
  };
  if (!tm || !out.parsed) return out;
  const pk = tm.table.partitionKey?.expr;
  const rk = tm.table.rowKey?.expr;
  const ix = tm.table.indexes.map((i) => i.expr);
  for (const r of rows) {
    const values = new Map<string, Scalar>();
    for (const [k, v] of r.props) {
      const s = scalarOf(v);
      if (s !== undefined) values.set(k, s);
    }
    const ctx = { props: tm.props, values };
    if (pk && renderKey(pk, ctx) === r.pk) out.partitionKey++;
    const main = rk !== undefined && renderKey(rk, ctx) === r.rk;
    if (main) out.rowKey++;
    if (main || ix.some((e) => renderKey(e, ctx) === r.rk)) out.anyRowKey++;
  }
  return out;
}
