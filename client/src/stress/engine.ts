/**
 * The partition stress test (seeds 000/003/004, "stress-testing partitions";
 * `interfaces.md`, "Stress test"), free of `vscode`: create a fresh
 * `stress…` table, load it from the design, drive peak load in one of three
 * modes, measure, and always delete the table — after success, failure,
 * cancellation and timeout.
 */
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { TableClient, TableServiceClient, TableServiceClientOptions, TransactionAction } from "@azure/data-tables";
import { analyzeTdl, TableModel } from "../../../server/src/service";
import { profileFor } from "../../../server/src/model/profiles";
import { makeClients, Secret } from "../account/clients";
import { ConnectionInfo } from "../account/model";
import { isLoopback } from "../account/connection-string";
import { describeError } from "../account/errors";
import { EntityGenerator } from "./generator";
import { Metrics, OpType } from "./metrics";
import { buildReport, StressMode, StressReport } from "./report";
import { errorCode, ErrorLike, STRESS_BACKOFF, withRetries } from "./retry";

export const MAX_CONCURRENCY = 256;

export interface StressOptions {
  connection: ConnectionInfo;
  secret: Secret;
  /** The target is the embedded or a local emulator (loopback): no confirmation needed. */
  emulator?: boolean;
  /** Explicit consent to load a real account (`--yes-real-account`, or the VS Code modal). */
  confirmedRealAccount?: boolean;
  design: { text: string; file: string; table: string };
  mode: StressMode;
  durationMs: number;
  maxDurationMs?: number;
  concurrency: number;
  /** Shares of writes and point reads (single-partition and spread modes). */
  mix?: { read: number; write: number };
  /** Inserts per batch (entity group transaction); the design's `batch` in design mode. */
  batch?: number;
  /** Design mode: multiply the design's rates by this. */
  scale?: number;
  /** Entities written before the load starts, for reads. */
  preload?: number;
  keepTable?: boolean;
  /** Per-partition target; the profile's when omitted. */
  partitionTarget?: number;
  signal?: AbortSignal;
  onProgress?: (p: { elapsedMs: number; entities: number; entitiesPerSecond: number }) => void;
  /** Called once the table exists (tests use it to check the table is gone afterwards). */
  onTable?: (name: string) => void;
  /** Extra pipeline policy (tests inject faults with it). */
  clientOptions?: { additionalPolicies?: unknown[] };
}

export class StressRefused extends Error {}

interface Work {
  op: OpType;
  weight: number;
  batch: number;
  /** Design mode: the pattern's rate share. */
  source?: string;
}

/** Runs one stress test and returns its report (also when stopped early: see `stopped`). */
export async function runStress(o: StressOptions): Promise<StressReport> {
  const emulator = o.emulator ?? isLoopback(new URL(o.connection.endpoint).hostname);
  if (!emulator && !o.confirmedRealAccount) {
    throw new StressRefused(`${o.connection.endpoint} is not an emulator: a stress test loads it at peak and costs money. Confirm with --yes-real-account (or in the VS Code dialog).`);
  }
  const analysis = analyzeTdl(o.design.text);
  const tm = analysis.tables.find((t) => t.table.name.text === o.design.table);
  if (!tm) throw new Error(`${o.design.file} has no table '${o.design.table}' (it has ${analysis.tables.map((t) => t.table.name.text).join(", ") || "none"})`);
  if (tm.table.hasSyntaxError || !tm.table.partitionKey || !tm.table.rowKey) throw new Error(`table '${o.design.table}' does not parse or has no keys: fix the design first`);
  const profile = profileFor(analysis.service?.value);
  const durationMs = Math.min(o.durationMs, o.maxDurationMs ?? 300_000);
  const concurrency = Math.max(1, Math.min(MAX_CONCURRENCY, Math.floor(o.concurrency)));
  const { service, table: tableClient } = clientsWithoutRetries(o);
  const table = `stress${randomBytes(5).toString("hex")}`;
  const metrics = new Metrics(0);
  let stopped: string | undefined;
  let startedAt = performance.now();
  let created = false;
  try {
    await service.createTable(table, { abortSignal: AbortSignal.timeout(30_000) });
    created = true;
    o.onTable?.(table);
    const client = tableClient(table);
    const gen = new EntityGenerator(tm);
    const keys: Array<{ pk: string; rk: string }> = [];
    const seq = { n: 0 };
    await preload(client, gen, keys, o.preload ?? 200, o.mode, seq, o.signal);
    const work = plan(o, tm);
    startedAt = performance.now();
    metrics.start(startedAt);
    const deadline = startedAt + durationMs;
    const stop = new AbortController();
    // Every in-flight request listens on this signal: as many listeners as the concurrency.
    setMaxListeners(0, stop.signal);
    const onAbort = () => { stopped ??= "cancelled"; stop.abort(); };
    o.signal?.addEventListener("abort", onAbort, { once: true });
    const progress = o.onProgress ? setInterval(() => {
      const elapsed = performance.now() - startedAt;
      o.onProgress!({ elapsedMs: Math.round(elapsed), entities: metrics.entities, entitiesPerSecond: Math.round(metrics.entities / Math.max(elapsed / 1000, 0.001)) });
    }, 500) : undefined;
    try {
      const health = { connectionFailures: 0, limit: 3 * concurrency + 10 };
      await Promise.all(Array.from({ length: concurrency }, () => worker(client, gen, keys, work, o.mode, metrics, deadline, stop.signal, seq, health)));
    } finally {
      clearInterval(progress);
      o.signal?.removeEventListener("abort", onAbort);
    }
    if (o.signal?.aborted) stopped ??= "cancelled";
  } catch (e) {
    stopped = `failed: ${describeError(e, o.connection.endpoint, 30_000).message}`;
    throw Object.assign(new Error(stopped), { report: report() });
  } finally {
    if (created && !o.keepTable) {
      const problem = await deleteTable(service, table);
      if (problem) stopped = stopped ? `${stopped}; ${problem}` : problem;
    }
  }
  return report();

  function report(): StressReport {
    return buildReport({
      metrics, durationMs: Math.min(performance.now() - startedAt, durationMs + 5000), target: emulator ? "emulator" : "account", table,
      design: { file: o.design.file, table: o.design.table }, mode: o.mode, concurrency,
      partitionTarget: o.partitionTarget ?? (profile.partitionTarget?.unit === "entities/s" ? profile.partitionTarget.value : 2000), stopped,
    });
  }
}

/** Clients with the SDK's own retries off: the test applies and counts the guide's policy itself. */
function clientsWithoutRetries(o: StressOptions): { service: TableServiceClient; table: (name: string) => TableClient } {
  const pair = makeClients(o.connection, o.secret, { retryOptions: { maxRetries: 0 }, ...(o.clientOptions ?? {}) } as TableServiceClientOptions);
  return { service: pair.service, table: pair.table };
}

/**
 * The table is deleted with its own time bound, whatever happened to the
 * run; a few spaced attempts ride out an endpoint that is briefly gone.
 */
async function deleteTable(service: TableServiceClient, table: string): Promise<string | undefined> {
  const delays = [0, 500, 1000, 2000, 4000];
  let last = "";
  for (const delay of delays) {
    if (delay) await new Promise((r) => setTimeout(r, delay));
    try {
      await service.deleteTable(table, { abortSignal: AbortSignal.timeout(10_000) });
      return undefined;
    } catch (e) {
      if ((e as ErrorLike).statusCode === 404) return undefined;
      last = (e as Error).message.split("\n")[0];
    }
  }
  return `could not delete the stress table ${table} (${last}): delete it by hand`;
}

/** Entities to read back, keyed as the mode keys its writes (so reads hit the same partitions). */
async function preload(client: TableClient, gen: EntityGenerator, keys: Array<{ pk: string; rk: string }>, count: number, mode: StressMode, seq: { n: number }, signal?: AbortSignal): Promise<void> {
  const batch: Array<Promise<unknown>> = [];
  for (let i = 0; i < count && !signal?.aborted; i++) {
    const [entity] = entitiesFor(gen, 1, mode, seq);
    keys.push({ pk: entity.partitionKey, rk: entity.rowKey });
    batch.push(client.upsertEntity(entity, "Replace"));
    if (batch.length >= 32) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
}

/** What each worker picks from: the mix (single-partition, spread) or the design's patterns scaled by their rates. */
function plan(o: StressOptions, tm: TableModel): Work[] {
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
  if (!work.length) throw new Error(`table '${tm.table.name.text}' declares no access pattern with a rate: design mode needs rates (or use --mode spread)`);
  return work;
}

function pick(work: Work[]): Work {
  const total = work.reduce((s, w) => s + w.weight, 0);
  let r = Math.random() * total;
  for (const w of work) if ((r -= w.weight) <= 0) return w;
  return work[work.length - 1];
}

async function worker(client: TableClient, gen: EntityGenerator, keys: Array<{ pk: string; rk: string }>, work: Work[], mode: StressMode,
  metrics: Metrics, deadline: number, signal: AbortSignal, seq: { n: number }, health: { connectionFailures: number; limit: number }): Promise<void> {
  while (performance.now() < deadline && !signal.aborted) {
    const w = pick(work);
    const t0 = performance.now();
    let pk = "";
    let entities = 1;
    try {
      if (w.op === "insert") {
        const batch = entitiesFor(gen, w.batch, mode, seq);
        pk = batch[0].partitionKey;
        entities = batch.length;
        if (batch.length === 1) await withRetries(() => client.createEntity(batch[0], { abortSignal: signal }), STRESS_BACKOFF, () => metrics.retry("insert"), signal);
        else {
          const actions: TransactionAction[] = batch.map((e) => ["create", e]);
          await withRetries(() => client.submitTransaction(actions, { abortSignal: signal }), STRESS_BACKOFF, () => metrics.retry("insert"), signal);
        }
        for (const e of batch) if (keys.length < 100_000) keys.push({ pk: e.partitionKey, rk: e.rowKey });
      } else if (w.op === "pointRead") {
        const k = keys[Math.floor(Math.random() * keys.length)];
        pk = k.pk;
        await withRetries(() => client.getEntity(k.pk, k.rk, { abortSignal: signal }), STRESS_BACKOFF, () => metrics.retry("pointRead"), signal);
      } else {
        const k = keys[Math.floor(Math.random() * keys.length)];
        pk = k.pk;
        const page = await withRetries(async () => {
          const it = client.listEntities({ abortSignal: signal, queryOptions: { filter: `PartitionKey eq '${k.pk.replace(/'/g, "''")}'` } }).byPage({ maxPageSize: 100 });
          return (await it.next()).value ?? [];
        }, STRESS_BACKOFF, () => metrics.retry("query"), signal);
        entities = Math.max(1, page.length);
        metrics.ops.query.scanned += page.length;
        metrics.ops.query.pages++;
      }
      metrics.success(w.op, pk, entities, performance.now() - t0, performance.now());
      health.connectionFailures = 0;
    } catch (e) {
      if (signal.aborted) return;
      const err = e as ErrorLike;
      metrics.failure(w.op, err.statusCode, errorCode(err), performance.now());
      // A dead endpoint would otherwise spin: stop when connection failures keep coming with no success between them.
      if (err.statusCode === undefined && ++health.connectionFailures > health.limit) throw e;
    }
  }
}

/** Entities of one operation: batches share a partition; single and spread modes set the keys themselves. */
function entitiesFor(gen: EntityGenerator, count: number, mode: StressMode, seq: { n: number }) {
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
