/**
 * What a stress run sends: the work plan (the mix, or the design's access
 * patterns weighted by their rates), the entities of each operation, and
 * the preload that gives reads something to read. Every request carries
 * the run's cancellation and its own timeout.
 */
import { TableClient } from "@azure/data-tables";
import { TableModel } from "../../../../server/src/core";
import { withDeadline } from "./deadline";
import { EntityGenerator } from "./generator";
import { OpType } from "./metrics";
import { StressInputError } from "./phases";
import { StressMode } from "./report";
import { STRESS_BACKOFF, withRetries } from "./retry";

export interface Work {
  op: OpType;
  weight: number;
  batch: number;
  /** Design mode: the access pattern it comes from. */
  source?: string;
}

export type Keys = Array<{ pk: string; rk: string }>;

/** Preload requests in flight at once. */
const PRELOAD_CONCURRENCY = 32;

/** What each worker picks from: the mix (single-partition, spread) or the design's patterns scaled by their rates. */
export function plan(o: { mode: StressMode; mix?: { read: number; write: number }; batch?: number; scale?: number }, tm: TableModel): Work[] {
  if (o.mode !== "design") {
    const mix = o.mix ?? { read: 0, write: 100 };
    return [
      { op: "insert" as const, weight: mix.write, batch: Math.max(1, Math.min(100, o.batch ?? 1)) },
      { op: "pointRead" as const, weight: mix.read, batch: 1 },
    ].filter((w) => w.weight > 0);
  }
  const scale = o.scale ?? 1;
  const work: Work[] = [];
  for (const a of tm.table.accesses) {
    const rate = (a.rate?.perSecond ?? 0) * scale;
    if (rate <= 0) continue;
    if (a.kind === "query") work.push({ op: a.where?.every((c) => c.op === "=") ? "pointRead" : "query", weight: rate, batch: 1, source: a.name.text });
    else if (a.kind === "transaction") work.push({ op: "insert", weight: rate, batch: Math.max(1, Math.min(100, a.entities?.value ?? 1)), source: a.name.text });
    else if (a.kind === "write") work.push({ op: "insert", weight: rate, batch: Math.max(1, Math.min(100, o.batch ?? a.batch?.value ?? 1)), source: a.name.text });
  }
  if (!work.length) throw new StressInputError(`table '${tm.table.name.text}' declares no access pattern with a rate: design mode needs rates (or use --mode spread)`);
  return work;
}

export function pick(work: Work[]): Work {
  const total = work.reduce((s, w) => s + w.weight, 0);
  let r = Math.random() * total;
  for (const w of work) if ((r -= w.weight) <= 0) return w;
  return work[work.length - 1];
}

/** Entities of one operation: batches share a partition; single and spread modes set the keys themselves. */
export function entitiesFor(gen: EntityGenerator, count: number, mode: StressMode, seq: { n: number }) {
  const designKeys = mode === "design";
  const first = gen.next(undefined, designKeys);
  const out = [first.entity];
  const fixed = designKeys ? gen.partitionValues(first.values) : undefined;
  for (let i = 1; i < count; i++) out.push(gen.next(fixed, designKeys).entity);
  if (mode !== "design") {
    const pk = mode === "single-partition" ? "stress-hot" : `stress-${(seq.n % 1024).toString().padStart(4, "0")}`;
    for (const e of out) {
      e.partitionKey = pk;
      e.rowKey = String(seq.n++).padStart(12, "0");
    }
  }
  return out;
}

/**
 * Writes up to `count` entities for reads to find, keyed as the mode keys
 * its writes (so reads hit the same partitions). Stops early, without
 * error, when `signal` aborts (cancelled, or the phase's time is up);
 * returns how many were written. Only written keys are kept for reads.
 */
export async function preload(client: TableClient, gen: EntityGenerator, keys: Keys, count: number, mode: StressMode, seq: { n: number },
  signal: AbortSignal, requestTimeoutMs: number): Promise<number> {
  let written = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  for (let i = 0; i < count && !signal.aborted && failure === undefined; i++) {
    const [entity] = entitiesFor(gen, 1, mode, seq);
    const p = withRetries(() => withDeadline(signal, requestTimeoutMs, (abortSignal) => client.upsertEntity(entity, "Replace", { abortSignal })), STRESS_BACKOFF, () => undefined, signal)
      .then(() => { written++; keys.push({ pk: entity.partitionKey, rk: entity.rowKey }); }, (e: unknown) => { if (!signal.aborted) failure ??= e; })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    // A sliding window: one slow request does not hold the others back.
    if (inFlight.size >= PRELOAD_CONCURRENCY) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return written;
}
