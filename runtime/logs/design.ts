/**
 * The logs beside the design: each observed partition mapped to the design
 * table whose PartitionKey expression renders it, and per log table the
 * design's predicted hottest partition (the core's load estimates,
 * `tableFacts`) beside the observed hottest, with the error. A log table
 * is the design table of the same name (table names are case-insensitive),
 * or else the one whose expression renders most of its keys (a stress
 * run's `stress…` table has a random name).
 */
import { analyzeTdl, tableFacts, type AnalysisOptions } from "@core";
import { keyPatterns, KeyPattern, matches } from "./key-patterns";
import type { LogHeatmap, PartitionSummary } from "./model";

export interface TableComparison {
  /** The table in the logs, and the design table it is read as. */
  logTable: string;
  designTable: string;
  partitionKey: string;
  /** Observed partitions whose key the expression renders, and those it does not. */
  matched: number;
  unmatched: number;
  /** The design's peak load (entities per second, as the core estimates it: index rows and scanned entities included). */
  predicted: { hottestPerSecond: number; totalPerSecond: number; hottestShare: number | null; partitions: number | null; temporal: boolean };
  /** The logs: the hottest partitions by requests, each with its busiest bucket's rate and its share of the table's requests. */
  observed: {
    hottest: Array<{ partitionKey: string; operations: number; peakPerSecond: number; share: number }>;
    partitions: number;
    operations: number;
  };
  /** Observed against predicted: the hottest partition's peak rate (relative: 0.25 is 25 % above), its share (difference). */
  error: { hottestPerSecond: number | null; hottestShare: number | null };
}

export interface DesignComparison {
  file: string;
  tables: TableComparison[];
  /** Log tables that no design table matches. */
  unmatchedTables: string[];
  note: string;
}

/** Observed keys tried per log table when choosing its design table by expression. */
const SAMPLE = 1000;
const HOTTEST_LISTED = 5;

/** Compares `heatmap` with the design in `text`; sets each listed partition's `design`. */
export function compareWithDesign(heatmap: LogHeatmap, text: string, file: string, options: AnalysisOptions = {}): DesignComparison {
  const analysis = analyzeTdl(text, options);
  const patterns = keyPatterns(analysis);
  const byTable = new Map<string, PartitionSummary[]>();
  for (const p of heatmap.partitions) {
    let list = byTable.get(p.table);
    if (!list) byTable.set(p.table, (list = []));
    list.push(p);
  }
  const tables: TableComparison[] = [];
  const unmatchedTables: string[] = [];
  for (const [logTable, parts] of byTable) {
    const chosen = choose(logTable, parts, patterns);
    for (const p of parts) {
      const own = chosen && matches(chosen, p.partitionKey) ? chosen : patterns.find((q) => matches(q, p.partitionKey));
      p.design = own ? { table: own.table, partitionKey: own.expression } : null;
    }
    if (!chosen) {
      unmatchedTables.push(logTable);
      continue;
    }
    const tm = analysis.tables.find((t) => t.table.name.text === chosen.table)!;
    tables.push(comparison(logTable, chosen, parts, tableFacts(tm.table, tm.props)));
  }
  return {
    file,
    tables,
    unmatchedTables,
    note: "The design counts entities per second at its declared peak (index rows and the entities a query scans included); the logs count requests (a query page is one, a batch is one). The observed rate is the hottest partition's busiest bucket, over the bucket's length.",
  };
}

function choose(logTable: string, parts: PartitionSummary[], patterns: KeyPattern[]): KeyPattern | undefined {
  const named = patterns.find((p) => p.table.toLowerCase() === logTable.toLowerCase());
  if (named) return named;
  const sample = parts.slice(0, SAMPLE);
  let best: { p: KeyPattern; n: number } | undefined;
  for (const p of patterns) {
    const n = sample.filter((s) => matches(p, s.partitionKey)).length;
    if (n > (best?.n ?? 0)) best = { p, n };
  }
  return best && best.n * 2 >= sample.length ? best.p : undefined;
}

function comparison(logTable: string, chosen: KeyPattern, parts: PartitionSummary[], facts: ReturnType<typeof tableFacts>): TableComparison {
  const { load, est } = facts;
  const operations = parts.reduce((s, p) => s + p.operations, 0);
  const hottest = [...parts].sort((a, b) => b.peakPerSecond - a.peakPerSecond || b.operations - a.operations).slice(0, HOTTEST_LISTED);
  const predictedShare = load.total > 0 ? load.hottest / load.total : est.partitions ? est.writeShare : null;
  const top = hottest[0];
  const share = (p: PartitionSummary) => (operations ? round(p.operations / operations, 4) : 0);
  const observedShare = top ? Math.max(...parts.map(share)) : null;
  return {
    logTable,
    designTable: chosen.table,
    partitionKey: chosen.expression,
    matched: parts.filter((p) => p.design?.table === chosen.table).length,
    unmatched: parts.filter((p) => p.design?.table !== chosen.table).length,
    predicted: {
      hottestPerSecond: round(load.hottest, 1),
      totalPerSecond: round(load.total, 1),
      hottestShare: predictedShare === null ? null : round(predictedShare, 4),
      partitions: est.partitions ?? null,
      temporal: load.temporal,
    },
    observed: {
      hottest: hottest.map((p) => ({ partitionKey: p.partitionKey, operations: p.operations, peakPerSecond: p.peakPerSecond, share: share(p) })),
      partitions: parts.length,
      operations,
    },
    error: {
      hottestPerSecond: top && load.hottest > 0 ? round((top.peakPerSecond - load.hottest) / load.hottest, 3) : null,
      hottestShare: observedShare !== null && predictedShare !== null ? round(observedShare - predictedShare, 4) : null,
    },
  };
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
