/**
 * What a stress run measures: per operation type, entities and requests,
 * latency percentiles (an HDR histogram, not sorting), errors by status and
 * code, retries; per partition, entities and throttled entities; the
 * inserts that landed beyond either end of the key order (the load of the
 * range partition there); per second, the timeline.
 */
import * as hdr from "hdr-histogram-js";
import { OP_TYPES, OpType, TimelinePoint } from "@protocol/stress-report";

const histogram = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });

export class OpStats {
  requests = 0;
  entities = 0;
  retries = 0;
  scanned = 0;
  pages = 0;
  /** Failures by HTTP status (or network error code when there is none). */
  readonly errors: Record<string, number> = {};
  /** Failures by the service's error code (ServerBusy, OperationTimedOut, EntityAlreadyExists…). */
  readonly errorCodes: Record<string, number> = {};
  /** Latency in microseconds. */
  readonly latency = histogram();
}

interface Second {
  entities: number;
  byOperation: Record<OpType, number>;
  errors: number;
  latency: hdr.Histogram;
}

/** One partition's figures: entities served, and entities the service refused (503 at the partition or its range). */
export interface PartitionCount {
  entities: number;
  throttled: number;
}

/** Requests refused with 503 Server Busy, by what refused them. */
export interface ThrottleCount {
  /** By a partition, or the range partition at an end of the key order. */
  partition: number;
  /** By the account's target. */
  account: number;
}

/** A second of one operation as a Locust worker records it (runtime/locust/records.ts reads the lines). */
export interface AbsorbedSecond {
  requests: number;
  entities: number;
  retries: number;
  scanned: number;
  pages: number;
  errors: Record<string, number>;
  codes: Record<string, number>;
  latencyUs: Array<[number, number]>;
}

/** An access pattern's calls; `throttled` only where the engine counts 503 answers per pattern. */
export interface SourceCount {
  calls: number;
  failed: number;
  throttled?: number;
}

const zeroOps = (): Record<OpType, number> => ({ insert: 0, update: 0, delete: 0, pointRead: 0, query: 0, scan: 0, transaction: 0 });

export class Metrics {
  readonly ops = Object.fromEntries(OP_TYPES.map((op) => [op, new OpStats()])) as Record<OpType, OpStats>;
  readonly partitions = new Map<string, PartitionCount>();
  readonly throttled: ThrottleCount = { partition: 0, account: 0 };
  /** Entities written beyond the highest (`end`) and lowest (`start`) partition key written before them. */
  readonly beyond = { end: 0, start: 0 };
  /** Design mode: calls per access pattern, how many failed, and the 503 answers they got (retries included). */
  readonly bySource = new Map<string, SourceCount>();
  private ends: { min: string; max: string } | undefined;
  private readonly seconds: Second[] = [];

  constructor(private startedAt: number) {}

  /** Starts the clock (after the table is created and loaded). */
  start(now: number): void {
    this.startedAt = now;
  }

  private second(now: number): Second {
    const i = Math.max(0, Math.floor((now - this.startedAt) / 1000));
    while (this.seconds.length <= i) this.seconds.push({ entities: 0, byOperation: zeroOps(), errors: 0, latency: histogram() });
    return this.seconds[i];
  }

  private partition(pk: string): PartitionCount {
    let p = this.partitions.get(pk);
    if (!p) this.partitions.set(pk, (p = { entities: 0, throttled: 0 }));
    return p;
  }

  /** A call that succeeded; `partitionKey` when it addressed one partition (a range read counts its entities with `touched`). */
  success(op: OpType, partitionKey: string | undefined, entities: number, latencyMs: number, now: number): void {
    const s = this.ops[op];
    s.requests++;
    s.entities += entities;
    const us = Math.max(1, Math.round(latencyMs * 1000));
    s.latency.recordValue(us);
    if (partitionKey !== undefined) this.touched(partitionKey, entities);
    const sec = this.second(now);
    sec.entities += entities;
    sec.byOperation[op] += entities;
    sec.latency.recordValue(us);
  }

  /** Entities served from `partitionKey`. */
  touched(partitionKey: string, entities: number): void {
    this.partition(partitionKey).entities += entities;
  }

  /**
   * New entities written to `partitionKey`: counted against the end of the
   * key order they land beyond, if any. `counted: false` only moves the ends
   * (entities written before the run, which set where the ends are).
   */
  inserted(partitionKey: string, entities: number, counted = true): void {
    const e = this.ends;
    if (!e) {
      this.ends = { min: partitionKey, max: partitionKey };
      return;
    }
    if (partitionKey > e.max) {
      e.max = partitionKey;
      if (counted) this.beyond.end += entities;
    } else if (partitionKey < e.min) {
      e.min = partitionKey;
      if (counted) this.beyond.start += entities;
    }
  }

  failure(op: OpType, status: number | undefined, code: string, now: number): void {
    const s = this.ops[op];
    const key = status !== undefined ? String(status) : code;
    s.errors[key] = (s.errors[key] ?? 0) + 1;
    s.errorCodes[code] = (s.errorCodes[code] ?? 0) + 1;
    this.second(now).errors++;
  }

  /** A 503 Server Busy answer (retried or final): where it came from, and how many entities it refused. */
  refused(partitionKey: string | undefined, entities: number, scope: "partition" | "account"): void {
    this.throttled[scope]++;
    if (scope === "partition" && partitionKey !== undefined) this.partition(partitionKey).throttled += entities;
  }

  private source(source: string): SourceCount {
    let c = this.bySource.get(source);
    if (!c) this.bySource.set(source, (c = { calls: 0, failed: 0 }));
    return c;
  }

  /** One call of a design's access pattern, answered (`ok`) or failed. */
  called(source: string | undefined, ok: boolean): void {
    if (source === undefined) return;
    const c = this.source(source);
    c.calls++;
    if (!ok) c.failed++;
  }

  /** A 503 Server Busy answer to a call of a design's access pattern (retried or final). */
  throttledCall(source: string | undefined): void {
    if (source !== undefined) this.throttledCalls(source, 1);
  }

  /** `n` 503 Server Busy answers to calls of one access pattern (as an engine's records count them). */
  throttledCalls(source: string, n: number): void {
    const c = this.source(source);
    c.throttled = (c.throttled ?? 0) + n;
  }

  retry(op: OpType): void {
    this.ops[op].retries++;
  }

  /**
   * One second of one operation measured elsewhere (a Locust worker's
   * record), `atMs` into the run: its calls, entities, retries, pages,
   * failures and latencies (microseconds with their counts).
   */
  absorb(op: OpType, atMs: number, r: AbsorbedSecond): void {
    const s = this.ops[op];
    s.requests += r.requests;
    s.entities += r.entities;
    s.retries += r.retries;
    s.scanned += r.scanned;
    s.pages += r.pages;
    const sec = this.second(this.startedAt + atMs);
    sec.entities += r.entities;
    sec.byOperation[op] += r.entities;
    for (const [key, n] of Object.entries(r.errors)) {
      s.errors[key] = (s.errors[key] ?? 0) + n;
      sec.errors += n;
    }
    for (const [code, n] of Object.entries(r.codes)) s.errorCodes[code] = (s.errorCodes[code] ?? 0) + n;
    for (const [us, n] of r.latencyUs) {
      const v = Math.max(1, Math.round(us));
      s.latency.recordValueWithCount(v, n);
      sec.latency.recordValueWithCount(v, n);
    }
  }

  /** Entities a partition's server refused (503 at the partition), measured elsewhere. */
  refusedAt(partitionKey: string, entities: number): void {
    this.partition(partitionKey).throttled += entities;
  }

  /** Calls of a design's access pattern measured elsewhere. */
  calledTimes(source: string, calls: number, failed: number): void {
    const c = this.source(source);
    c.calls += calls;
    c.failed += failed;
  }

  get entities(): number {
    return OP_TYPES.reduce((n, op) => n + this.ops[op].entities, 0);
  }

  /**
   * One point per second of the run, at the second's end. The last second
   * usually ends early (the run stops `endMs` after its start): its rate is
   * its entities over its real length, so the line does not drop at the
   * end; a last piece shorter than a quarter second joins the second before
   * it, whose rate it would otherwise only make noisy.
   */
  timeline(endMs: number): TimelinePoint[] {
    const spans = this.seconds.map((s, i) => ({ from: i * 1000, to: Math.max(i * 1000 + 1, Math.min((i + 1) * 1000, endMs)), s }));
    const last = spans[spans.length - 1];
    if (spans.length > 1 && last.to - last.from < 250) {
      const before = spans[spans.length - 2];
      spans.pop();
      before.to = last.to;
      before.s = merge(before.s, last.s);
    }
    return spans.map(({ from, to, s }) => {
      const perSecond = (n: number) => round(n / ((to - from) / 1000), 1);
      return {
        tMs: Math.round(to),
        entities: s.entities,
        entitiesPerSecond: perSecond(s.entities),
        p99Ms: s.latency.totalCount ? round(Math.min(s.latency.getValueAtPercentile(99), s.latency.maxValue) / 1000) : 0,
        errors: s.errors,
        byOperation: Object.fromEntries(OP_TYPES.map((op) => [op, perSecond(s.byOperation[op])])) as Record<OpType, number>,
      };
    });
  }
}

function merge(a: Second, b: Second): Second {
  const latency = histogram();
  latency.add(a.latency);
  latency.add(b.latency);
  const byOperation = zeroOps();
  for (const op of OP_TYPES) byOperation[op] = a.byOperation[op] + b.byOperation[op];
  return { entities: a.entities + b.entities, byOperation, errors: a.errors + b.errors, latency };
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
