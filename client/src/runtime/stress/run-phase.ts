/**
 * The run phase: `concurrency` workers drive the plan until the deadline;
 * requests still in flight then get a bounded drain, after which they are
 * aborted. Every request has a timeout, so a stalled endpoint cannot
 * stretch the run; an endpoint that gives no answer at all for `outageMs`
 * ends the run with that failure. The clock says how long it really took.
 */
import { TableClient, TransactionAction } from "@azure/data-tables";
import { linked, sleep, withDeadline } from "./deadline";
import { EntityGenerator } from "./generator";
import { entitiesFor, Keys, pick, Work } from "./load";
import { Metrics } from "./metrics";
import { StressMode } from "./report";
import { errorCode, ErrorLike, STRESS_BACKOFF, withRetries } from "./retry";

/** The endpoint gave no answer (connection failures or timeouts only) for too long. */
export class EndpointSilent extends Error {
  constructor(readonly last: unknown, readonly silentMs: number) {
    super(`no answer for ${(silentMs / 1000).toFixed(1)} s`);
  }
}

export interface RunSettings {
  client: TableClient;
  gen: EntityGenerator;
  keys: Keys;
  /** The row-key sequence, shared with the preload so inserts never collide with it. */
  seq: { n: number };
  work: Work[];
  mode: StressMode;
  metrics: Metrics;
  concurrency: number;
  durationMs: number;
  drainMs: number;
  requestTimeoutMs: number;
  outageMs: number;
  signal?: AbortSignal;
  onDrain?: () => void;
  onProgress?: (p: { elapsedMs: number; entities: number; entitiesPerSecond: number }) => void;
}

/** When the run phase started and ended (`performance.now()`); `endedAt` is set however it ends. */
export interface RunClock {
  startedAt?: number;
  endedAt?: number;
}

/** A worker's pause after a request that got no answer: a dead endpoint must not make the workers spin. */
const NO_ANSWER_PAUSE_MS = 200;

/** Runs the load; throws the first worker failure after every worker has stopped. */
export async function runPhase(s: RunSettings, clock: RunClock): Promise<void> {
  const startedAt = (clock.startedAt = performance.now());
  s.metrics.start(startedAt);
  const deadline = startedAt + s.durationMs;
  const stop = linked(s.signal);
  let drainTimer: NodeJS.Timeout | undefined;
  const endTimer = setTimeout(() => {
    s.onDrain?.();
    drainTimer = setTimeout(() => stop.abort(), s.drainMs);
  }, s.durationMs);
  const progress = s.onProgress ? setInterval(() => {
    const elapsed = performance.now() - startedAt;
    s.onProgress!({ elapsedMs: Math.round(elapsed), entities: s.metrics.entities, entitiesPerSecond: Math.round(s.metrics.entities / Math.max(elapsed / 1000, 0.001)) });
  }, 500) : undefined;
  const health = { lastAnswer: startedAt };
  let failure: unknown;
  try {
    await Promise.all(Array.from({ length: s.concurrency }, () => worker(s, deadline, stop.signal, health).catch((e: unknown) => {
      // The first failure stops every worker: nothing may still be sending when the table is deleted.
      failure ??= e;
      stop.abort();
    })));
  } finally {
    clock.endedAt = performance.now();
    clearTimeout(endTimer);
    clearTimeout(drainTimer);
    clearInterval(progress);
    stop.abort();
    stop.dispose();
  }
  if (failure !== undefined) throw failure;
}

async function worker(s: RunSettings, deadline: number, signal: AbortSignal, health: { lastAnswer: number }): Promise<void> {
  const { client, metrics } = s;
  const send = <T>(op: (abortSignal: AbortSignal) => Promise<T>, type: Work["op"]) =>
    withRetries(() => withDeadline(signal, s.requestTimeoutMs, op), STRESS_BACKOFF, () => metrics.retry(type), signal);
  while (performance.now() < deadline && !signal.aborted) {
    // Reads need something written first; until then, write.
    const w = s.keys.length ? pick(s.work) : { op: "insert" as const, weight: 1, batch: s.work.find((x) => x.op === "insert")?.batch ?? 1 };
    const t0 = performance.now();
    let pk: string;
    let entities = 1;
    try {
      if (w.op === "insert") {
        const batch = entitiesFor(s.gen, w.batch, s.mode, s.seq);
        pk = batch[0].partitionKey;
        entities = batch.length;
        if (batch.length === 1) await send((abortSignal) => client.createEntity(batch[0], { abortSignal }), "insert");
        else {
          const actions: TransactionAction[] = batch.map((e) => ["create", e]);
          await send((abortSignal) => client.submitTransaction(actions, { abortSignal }), "insert");
        }
        for (const e of batch) if (s.keys.length < 100_000) s.keys.push({ pk: e.partitionKey, rk: e.rowKey });
      } else if (w.op === "pointRead") {
        const k = s.keys[Math.floor(Math.random() * s.keys.length)];
        pk = k.pk;
        await send((abortSignal) => client.getEntity(k.pk, k.rk, { abortSignal }), "pointRead");
      } else {
        const k = s.keys[Math.floor(Math.random() * s.keys.length)];
        pk = k.pk;
        const page = await send(async (abortSignal) => {
          const it = client.listEntities({ abortSignal, queryOptions: { filter: `PartitionKey eq '${k.pk.replace(/'/g, "''")}'` } }).byPage({ maxPageSize: 100 });
          return (await it.next()).value ?? [];
        }, "query");
        entities = Math.max(1, page.length);
        metrics.ops.query.scanned += page.length;
        metrics.ops.query.pages++;
      }
      const now = performance.now();
      metrics.success(w.op, pk, entities, now - t0, now);
      health.lastAnswer = now;
    } catch (e) {
      if (signal.aborted) return;
      const err = e as ErrorLike;
      const now = performance.now();
      metrics.failure(w.op, err.statusCode, errorCode(err), now);
      if (err.statusCode !== undefined) {
        health.lastAnswer = now;
        continue;
      }
      if (now - health.lastAnswer > s.outageMs) throw new EndpointSilent(e, now - health.lastAnswer);
      await sleep(NO_ANSWER_PAUSE_MS, signal);
    }
  }
}
