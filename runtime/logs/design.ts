/**
 * The logs beside the design: each observed partition mapped to the design
 * table whose PartitionKey expression renders it, and per log table the
 * design's predicted hottest partition (the core's load estimates,
 * `tableFacts`: entities per second at the declared peak, and the access
 * patterns that load it) beside the observed hottest partitions in the
 * same unit, with the error. A log table
 * is the design table of the same name (table names are case-insensitive),
 * or else the one whose expression renders most of its keys (a stress
 * run's `stress…` table has a random name).
 */
import { analyzeTdl, tableFacts, type AnalysisOptions } from "@core";
import { UsageError } from "@core/errors";
import { clip, entityRate, formatCount, formatFactor, listNames } from "@core/text/words";
import type { DesignComparison, LogHeatmap, PartitionSummary, TableComparison } from "@protocol/log-heatmap";
import { keyPatterns, KeyPattern, matches } from "./key-patterns";

/** Observed keys tried per log table when choosing its design table by expression. */
const SAMPLE = 1000;
const HOTTEST_LISTED = 5;
const PATTERNS_LISTED = 3;

export interface CompareOptions {
  /** How the design is analysed (its profile, the partition target). */
  analysis?: AnalysisOptions;
  /** The design table every log table is read as (a UsageError when the design has none of that name). */
  designTable?: string;
  /** Multiplies the design's rates (logs of a stress run scaled by it); default 1. */
  scale?: number;
}

/** Compares `heatmap` with the design in `text`; sets each listed partition's `design`. */
export function compareWithDesign(heatmap: LogHeatmap, text: string, file: string, options: CompareOptions = {}): DesignComparison {
  const analysis = analyzeTdl(text, options.analysis);
  const patterns = keyPatterns(analysis);
  const forced =
    options.designTable === undefined ? undefined : patterns.find((p) => p.table.toLowerCase() === options.designTable!.toLowerCase());
  if (options.designTable !== undefined && !forced)
    throw new UsageError(
      `${file} has no table ${clip(options.designTable)} with a PartitionKey${patterns.length ? `; it has ${listNames(patterns.map((p) => p.table))}` : ""}`,
    );
  const byTable = new Map<string, PartitionSummary[]>();
  for (const p of heatmap.partitions) {
    // A stress run's probe and marker are no part of the design's load: no key, no share.
    if (p.probe) {
      p.design = null;
      continue;
    }
    let list = byTable.get(p.table);
    if (!list) byTable.set(p.table, (list = []));
    list.push(p);
  }
  const tables: TableComparison[] = [];
  const unmatchedTables: string[] = [];
  for (const [logTable, parts] of byTable) {
    const chosen = forced ?? choose(logTable, parts, patterns);
    for (const p of parts) {
      const own = chosen && matches(chosen, p.partitionKey) ? chosen : patterns.find((q) => matches(q, p.partitionKey));
      p.design = own ? { table: own.table, partitionKey: own.expression } : null;
    }
    if (!chosen) {
      unmatchedTables.push(logTable);
      continue;
    }
    const tm = analysis.tables.find((t) => t.table.name.text === chosen.table)!;
    tables.push(comparison(logTable, chosen, parts, tableFacts(tm.table, tm.props), options.scale ?? 1, offeredKinds(parts)));
  }
  return {
    file,
    tables,
    unmatchedTables,
    note: "Both count entities per second: the design at its declared peak (index rows and the entities a query scans included), the logs as the emulator's heatmap does (a batch its operations, a query page one). The observed rate is a partition's busiest bucket, over the bucket's length.",
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
  // A stress run's table has a random name: it is the design table whose key renders most of its keys, any at all.
  if (best && isStressTable(logTable)) return best.p;
  return best && best.n * 2 >= sample.length ? best.p : undefined;
}

const isStressTable = (name: string) => /^stress[0-9a-f]{10}$/i.test(name);

/** What the logs show was sent to a table: reads, writes (a pattern of a kind never sent is not predicted). */
function offeredKinds(parts: PartitionSummary[]): { read: boolean; written: boolean } {
  return {
    read: parts.some((p) => p.entities.read > 0 || p.reads > 0),
    written: parts.some((p) => p.entities.written > 0 || p.writes > 0),
  };
}

/** Entities a partition served: what the design's load is compared with (a throttled attempt is retried, and would count twice). */
const entitiesOf = (p: PartitionSummary) => p.entities.read + p.entities.written;

function comparison(
  logTable: string,
  chosen: KeyPattern,
  parts: PartitionSummary[],
  facts: ReturnType<typeof tableFacts>,
  scale: number,
  offered: { read: boolean; written: boolean },
): TableComparison {
  const { est } = facts;
  // Only the load the logs show was offered: a pattern of a kind the logs never carried (a run that sent no reads) is left out.
  const sent = facts.load.patterns.filter((p) => (p.written ? offered.written : offered.read));
  const left = facts.load.patterns.filter((p) => !sent.includes(p) && p.total > 0).map((p) => p.access.name.text);
  const sum = (k: "hottest" | "total") => sent.reduce((s, p) => s + p[k], 0);
  const load = { ...facts.load, patterns: sent, hottest: sum("hottest") * scale, total: sum("total") * scale };
  const entities = parts.reduce((s, p) => s + entitiesOf(p), 0);
  const hottest = [...parts].sort((a, b) => b.peakPerSecond - a.peakPerSecond || entitiesOf(b) - entitiesOf(a)).slice(0, HOTTEST_LISTED);
  const predictedShare = load.total > 0 ? load.hottest / load.total : est.partitions ? est.writeShare : null;
  const top = hottest[0];
  const share = (p: PartitionSummary) => (entities ? round(entitiesOf(p) / entities, 4) : 0);
  const observedShare = top ? Math.max(...parts.map(share)) : null;
  const patterns = [...load.patterns]
    .filter((p) => p.hottest > 0)
    .sort((a, b) => b.hottest - a.hottest)
    .slice(0, PATTERNS_LISTED)
    .map((p) => ({
      name: p.access.name.text,
      kind: p.access.kind === "write" ? p.access.op : p.access.kind,
      hottestPerSecond: round(p.hottest * scale, 1),
    }));
  const predicted = {
    scale,
    hottestPerSecond: round(load.hottest, 1),
    totalPerSecond: round(load.total, 1),
    hottestShare: predictedShare === null ? null : round(predictedShare, 4),
    partitions: est.partitions ?? null,
    temporal: load.temporal,
    patterns,
  };
  const error = {
    hottestPerSecond: top && load.hottest > 0 ? round((top.peakPerSecond - load.hottest) / load.hottest, 3) : null,
    hottestShare: observedShare !== null && predictedShare !== null ? round(observedShare - predictedShare, 4) : null,
  };
  return {
    logTable,
    designTable: chosen.table,
    partitionKey: chosen.expression,
    matched: parts.filter((p) => p.design?.table === chosen.table).length,
    unmatched: parts.filter((p) => p.design?.table !== chosen.table).length,
    predicted,
    observed: {
      hottest: hottest.map((p) => ({
        partitionKey: p.partitionKey,
        entities: entitiesOf(p),
        peakPerSecond: p.peakPerSecond,
        share: share(p),
      })),
      partitions: parts.length,
      entities,
    },
    error,
    said: {
      predicted:
        predictionInWords(predicted) +
        (left.length
          ? ` ${listNames(left)} ${left.length === 1 ? "is" : "are"} left out: the logs show no request of ${left.length === 1 ? "its" : "their"} kind on ${logTable}.`
          : ""),
      error: errorInWords(error),
    },
  };
}

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

function predictionInWords(p: TableComparison["predicted"]): string {
  if (!(p.totalPerSecond > 0)) return "The design declares no rates: it predicts no load.";
  const by = p.patterns.map((x) => `${x.name} ${formatCount(x.hottestPerSecond)}/s`).join(", ");
  const share = p.hottestShare === null ? "" : `, ${pct(p.hottestShare)} of the load`;
  const moving = p.temporal ? "; the key moves with time: the current partition takes it" : "";
  const scaled = p.scale === 1 ? "" : ` (the design's rates × ${formatFactor(p.scale)})`;
  return `Predicted hottest partition${scaled}: ${entityRate(p.hottestPerSecond)}${share}${by ? ` (${by})` : ""}${moving}.`;
}

function errorInWords(e: TableComparison["error"]): string {
  const rate = e.hottestPerSecond === null ? "unknown" : `${e.hottestPerSecond >= 0 ? "+" : ""}${pct(e.hottestPerSecond)}`;
  const share = e.hottestShare === null ? "unknown" : `${e.hottestShare >= 0 ? "+" : ""}${(e.hottestShare * 100).toFixed(1)} points`;
  return `Observed hottest against it: ${rate} in rate, ${share} in share.`;
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** The tables of the design in `text` that logs can be set against: those with a PartitionKey, in the design's order. */
export function comparableTables(text: string, analysis?: AnalysisOptions): string[] {
  return keyPatterns(analyzeTdl(text, analysis)).map((p) => p.table);
}
