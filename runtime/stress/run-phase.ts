/**
 * The run phase: `concurrency` workers drive the plan until the deadline;
 * requests still in flight then get a bounded drain, after which they are
 * aborted. Every request has a timeout, so a stalled endpoint cannot
 * stretch the run; an endpoint that gives no answer at all for `outageMs`
 * ends the run with that failure. The clock says how long it really took.
 */
import type { TableClient } from "@azure/data-tables";
import { narrowed, type NarrowBound, type PhaseBound } from "./bound";
import { sleep } from "../net/deadline";
import type { EntityGenerator } from "./generator";
import { Call, prepare } from "./operations";
import type { Metrics } from "./metrics";
import type { OpType, StressMode } from "@protocol/stress-report";
import { Pacer } from "./pacer";
import { errorCode, ErrorLike, STRESS_BACKOFF, throttleScope, withRetries } from "../net/retry";
import { pick, Work } from "./workload";
import type { WrittenPool } from "./written";

/** The endpoint gave no answer (connection failures or timeouts only) for too long. */
export class EndpointSilent extends Error {
  constructor(
    readonly last: unknown,
    readonly silentMs: number,
  ) {
    super(`no answer for ${(silentMs / 1000).toFixed(1)} s`);
  }
}

export interface RunSettings {
  client: TableClient;
  gen: EntityGenerator;
  /** What was written (preload included): reads, updates and deletes address it. */
  pool: WrittenPool;
  /** The row-key sequence, shared with the preload so inserts never collide with it. */
  seq: { n: number };
  work: Work[];
  mode: StressMode;
  metrics: Metrics;
  concurrency: number;
  durationMs: number;
  drainMs: number;
  outageMs: number;
  /** Calls per second of an open load at the design's rates (design mode); without it, every worker sends as fast as it gets answers. */
  pace?: number;
  /** The phase's bounds: the run's cancel and one request's bound. */
  bound: PhaseBound;
  onDrain?: () => void;
  onProgress?: (p: { elapsedMs: number; entities: number; entitiesPerSecond: number }) => void;
}

/** When the run phase started and ended (`performance.now()`); `endedAt` is set however it ends. */
export interface RunClock {
  startedAt?: number;
  endedAt?: number;
  /** The open load's pacer, when the run had a pace (its counts go into the report). */
  pacer?: Pacer;
}

/** A worker's pause after a request that got no answer: a dead endpoint must not make the workers spin. */
const NO_ANSWER_PAUSE_MS = 200;

/** Runs the load; throws the first worker failure after every worker has stopped. */
export async function runPhase(s: RunSettings, clock: RunClock): Promise<void> {
  const startedAt = (clock.startedAt = performance.now());
  s.metrics.start(startedAt);
  const deadline = startedAt + s.durationMs;
  const pacer = s.pace !== undefined && s.pace > 0 ? (clock.pacer = new Pacer(s.pace, startedAt)) : undefined;
  const stop = narrowed(s.bound);
  let drainTimer: NodeJS.Timeout | undefined;
  const endTimer = setTimeout(() => {
    s.onDrain?.();
    drainTimer = setTimeout(() => stop.cut(), s.drainMs);
  }, s.durationMs);
  const progress = s.onProgress
    ? setInterval(() => {
        const elapsed = performance.now() - startedAt;
        s.onProgress!({
          elapsedMs: Math.round(elapsed),
          entities: s.metrics.entities,
          entitiesPerSecond: Math.round(s.metrics.entities / Math.max(elapsed / 1000, 0.001)),
        });
      }, 500)
    : undefined;
  const health = { lastAnswer: startedAt };
  let failure: unknown;
  try {
    await Promise.all(
      Array.from({ length: s.concurrency }, () =>
        worker(s, pacer, deadline, stop, health).catch((e: unknown) => {
          // The first failure stops every worker: nothing may still be sending when the table is deleted.
          failure ??= e;
          stop.cut();
        }),
      ),
    );
  } finally {
    clock.endedAt = performance.now();
    clearTimeout(endTimer);
    clearTimeout(drainTimer);
    clearInterval(progress);
    stop.dispose();
  }
  if (failure !== undefined) throw failure;
}

async function worker(
  s: RunSettings,
  pacer: Pacer | undefined,
  deadline: number,
  bound: NarrowBound,
  health: { lastAnswer: number },
): Promise<void> {
  const { client, metrics } = s;
  const signal = bound.signal;
  const context = { gen: s.gen, mode: s.mode, seq: s.seq, pool: s.pool };
  while (performance.now() < deadline && !signal.aborted) {
    if (pacer && !(await pacer.slot(deadline, signal))) return;
    const w = pick(s.work);
    const call = prepare(w, context);
    // A call that stands in for another (a write before anything is written to read) is not the pattern's.
    const source = call.op === w.op ? w.source : undefined;
    const t0 = performance.now();
    if (call.refused) {
      // Refused before it was sent (the SDK will not send it): an answer, not a silence.
      metrics.failure(call.op, undefined, call.refused, t0);
      metrics.called(source, false);
      health.lastAnswer = t0;
      continue;
    }
    // Every 503 Server Busy is counted where it happened, retried or not.
    const onRetry = (_delay: number, e: ErrorLike) => {
      metrics.retry(call.op);
      countThrottle(metrics, call, e, source);
    };
    try {
      const got = await withRetries(() => bound.request((abortSignal) => call.run(client, abortSignal)), STRESS_BACKOFF, onRetry, signal);
      const now = performance.now();
      succeeded(metrics, call, got, now - t0, now);
      metrics.called(source, true);
      for (const w of call.written ?? []) s.pool.add(w);
      health.lastAnswer = now;
    } catch (e) {
      if (signal.aborted) return;
      const err = e as ErrorLike;
      const now = performance.now();
      metrics.failure(call.op, err.statusCode, errorCode(err), now);
      metrics.called(source, false);
      countThrottle(metrics, call, err, source);
      if (err.statusCode !== undefined) {
        health.lastAnswer = now;
        continue;
      }
      if (now - health.lastAnswer > s.outageMs) throw new EndpointSilent(e, now - health.lastAnswer);
      await sleep(NO_ANSWER_PAUSE_MS, signal);
    }
  }
}

function countThrottle(metrics: Metrics, call: Call, e: ErrorLike, source: string | undefined): void {
  const scope = throttleScope(e);
  if (!scope) return;
  metrics.refused(call.pk, call.entities || 1, scope);
  metrics.throttledCall(source);
}

/** A success: reads count what came back, per partition; new entities also count against the ends of the key order. */
function succeeded(metrics: Metrics, call: Call, got: unknown, latencyMs: number, now: number): void {
  const op: OpType = call.op;
  if (Array.isArray(got)) {
    const page = got as Array<{ partitionKey?: string }>;
    metrics.ops[op].scanned += page.length;
    metrics.ops[op].pages++;
    metrics.success(op, undefined, page.length, latencyMs, now);
    for (const e of page) if (typeof e.partitionKey === "string") metrics.touched(e.partitionKey, 1);
    return;
  }
  metrics.success(op, call.pk, call.entities, latencyMs, now);
  if (call.inserted && call.pk !== undefined) metrics.inserted(call.pk, call.entities);
}
