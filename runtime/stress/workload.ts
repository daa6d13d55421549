/**
 * What a run sends. In design mode each access pattern becomes the call
 * its class says, at its rate: queries by class (point reads, key ranges,
 * scans), writes as their operation (with their index rows, batched as
 * declared), transactions as entity group transactions of the declared
 * shape. The single-partition and spread modes send the mix at peak.
 */
import { type TableModel, tableFacts, type WriteOp } from "@core";
import type { OpType, StressMode, Skipped } from "@protocol/stress-report";
import { StressInputError } from "./phases";
import { ReadPlan, readPlan } from "./reads";

export interface Work {
  op: OpType;
  /** Design mode: calls per second at scale 1 (a rate of entities divided by the batch). Peak modes: the mix's share. */
  weight: number;
  /** Design mode: the design's declared calls per second, before `--scale` (the report's "planned"). */
  planned?: number;
  /** Entities per call for writes (a batch's or transaction's entities, before index rows). */
  batch: number;
  /** Design mode: the access pattern it comes from. */
  source?: string;
  /** Design mode: the query's class (reads). */
  queryClass?: ReadPlan["queryClass"];
  read?: ReadPlan;
  /** Design mode: the write's operation (insert, upsert, update, merge, delete). */
  write?: WriteOp;
  /** Transactions: the properties the entities share. */
  sharing?: string[];
}

/** At most this many operations in one entity group transaction (service-facts.md). */
export const MAX_BATCH = 100;

/** The work list: the mix (single-partition, spread), or the design's patterns at their rates. */
export function plan(
  o: { mode: StressMode; mix?: { read: number; write: number }; batch?: number },
  tm: TableModel,
): { work: Work[]; skipped: Skipped[] } {
  if (o.mode !== "design") {
    const mix = o.mix ?? { read: 0, write: 100 };
    const work: Work[] = [
      { op: "insert", weight: mix.write, batch: Math.max(1, Math.min(MAX_BATCH, o.batch ?? 1)) },
      { op: "pointRead", weight: mix.read, batch: 1 },
    ];
    return { work: work.filter((w) => w.weight > 0), skipped: [] };
  }
  const facts = tableFacts(tm.table, tm.props);
  const rows = 1 + tm.table.indexes.length;
  const indexes = tm.table.indexes.map((ix) => ({ name: ix.name.text, expr: ix.expr }));
  const work: Work[] = [];
  const skipped: Skipped[] = [];
  for (const a of tm.table.accesses) {
    const rate = a.rate?.perSecond ?? 0;
    if (!(rate > 0)) continue;
    const source = a.name.text;
    if (a.kind === "query") {
      const q = facts.queries.find((x) => x.query === a);
      const read = q && readPlan(q, facts.est, tm.props, indexes);
      if (!read) {
        skipped.push({ source, reason: q?.filterError ? q.filterError.message : "the analyzer could not classify it" });
        continue;
      }
      const op: OpType = read.queryClass === "point" ? "pointRead" : read.queryClass === "table-scan" ? "scan" : "query";
      work.push({ op, weight: rate, batch: 1, source, queryClass: read.queryClass, read });
    } else if (a.kind === "transaction") {
      // Every entity brings its index rows into the transaction: at most 100 operations in all.
      const entities = Math.max(1, Math.min(Math.floor(MAX_BATCH / rows), a.entities?.value ?? 1));
      work.push({ op: "transaction", weight: rate, batch: entities, source, sharing: a.sharing.map((n) => n.text) });
    } else {
      const batch = Math.max(1, Math.min(Math.floor(MAX_BATCH / rows), o.batch ?? a.batch?.value ?? 1));
      const op: OpType = a.op === "insert" || a.op === "upsert" ? "insert" : a.op === "delete" ? "delete" : "update";
      // A write's rate counts entities; `batch N` sends N of them per call.
      work.push({ op, weight: rate / batch, batch, source, write: a.op });
    }
  }
  if (!work.length) {
    const why = skipped.length ? ` (${skipped.map((s) => `${s.source}: ${s.reason}`).join("; ")})` : "";
    throw new StressInputError(
      `table '${tm.table.name.text}' declares no access pattern with a rate that can run${why}: design mode needs rates (or use --mode spread)`,
    );
  }
  return { work, skipped };
}

/** Calls per second of the whole plan at scale 1 (design mode). */
export function callsPerSecond(work: Work[]): number {
  return work.reduce((s, w) => s + w.weight, 0);
}

/** One work item, drawn by weight. */
export function pick(work: Work[], random: () => number = Math.random): Work {
  const total = work.reduce((s, w) => s + w.weight, 0);
  let r = random() * total;
  for (const w of work) if ((r -= w.weight) <= 0) return w;
  return work[work.length - 1];
}

/** Whether the plan reads what was written before (then a preload gives the first reads something to find). */
export function readsBack(work: Work[]): boolean {
  return work.some(
    (w) => w.op === "pointRead" || w.op === "update" || w.op === "delete" || (w.read !== undefined && w.queryClass !== "table-scan"),
  );
}
