/**
 * What a stress run measures: per operation type, entities and requests,
 * latency percentiles (an HDR histogram, not sorting), errors by status and
 * code, retries; per partition, entities; per second, the timeline.
 */
import * as hdr from "hdr-histogram-js";

export type OpType = "insert" | "pointRead" | "query";
export const OP_TYPES: OpType[] = ["insert", "pointRead", "query"];

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

export class Metrics {
  readonly ops: Record<OpType, OpStats> = { insert: new OpStats(), pointRead: new OpStats(), query: new OpStats() };
  readonly partitions = new Map<string, number>();
  private readonly seconds: Second[] = [];

  constructor(private startedAt: number) {}

  /** Starts the clock (after the table is created and loaded). */
  start(now: number): void {
    this.startedAt = now;
  }

  private second(now: number): Second {
    const i = Math.max(0, Math.floor((now - this.startedAt) / 1000));
    while (this.seconds.length <= i) this.seconds.push({ entities: 0, byOperation: { insert: 0, pointRead: 0, query: 0 }, errors: 0, latency: histogram() });
    return this.seconds[i];
  }

  success(op: OpType, partitionKey: string, entities: number, latencyMs: number, now: number): void {
    const s = this.ops[op];
    s.requests++;
    s.entities += entities;
    const us = Math.max(1, Math.round(latencyMs * 1000));
    s.latency.recordValue(us);
    this.partitions.set(partitionKey, (this.partitions.get(partitionKey) ?? 0) + entities);
    const sec = this.second(now);
    sec.entities += entities;
    sec.byOperation[op] += entities;
    sec.latency.recordValue(us);
  }

  failure(op: OpType, status: number | undefined, code: string, now: number): void {
    const s = this.ops[op];
    const key = status !== undefined ? String(status) : code;
    s.errors[key] = (s.errors[key] ?? 0) + 1;
    s.errorCodes[code] = (s.errorCodes[code] ?? 0) + 1;
    this.second(now).errors++;
  }

  retry(op: OpType): void {
    this.ops[op].retries++;
  }

  get entities(): number {
    return OP_TYPES.reduce((n, op) => n + this.ops[op].entities, 0);
  }

  timeline(): Array<{ tMs: number; entitiesPerSecond: number; p99Ms: number; errors: number; byOperation: Record<OpType, number> }> {
    return this.seconds.map((s, i) => ({
      tMs: (i + 1) * 1000, entitiesPerSecond: s.entities, p99Ms: s.latency.totalCount ? round(Math.min(s.latency.getValueAtPercentile(99), s.latency.maxValue) / 1000) : 0,
      errors: s.errors, byOperation: { ...s.byOperation },
    }));
  }
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
