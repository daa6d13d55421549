/**
 * Adds log records up into a heatmap in bounded memory, whatever the
 * log's length: per partition its totals, per bucket of time a cell per
 * partition. Buckets start at a second and widen (a minute, an hour, a
 * day) once the records span more than MAX_COLUMNS of them, or once the
 * cells pass MAX_CELLS; past MAX_PARTITIONS partitions the coldest half is
 * folded into one `#others` row per table (a key cannot hold `#`), and the
 * heatmap says by how much a folded partition's count may be short.
 */
import type { PartitionTraffic, TrafficSecond } from "@protocol/traffic";
import type { LogRecord } from "./record";

export const MAX_COLUMNS = 3600;
export const MAX_CELLS = 250_000;
export const MAX_PARTITIONS = 50_000;
/** Folding for cells stops at this many partitions: then the buckets widen instead. */
const KEEP_PARTITIONS = 1000;
/** The bucket lengths, shortest first. */
export const LADDER = [1000, 60_000, 3_600_000, 86_400_000] as const;
export const BUCKET_NAMES = ["second", "minute", "hour", "day"] as const;

/** The row of requests that name no partition (the emulator's recorder uses the same key). */
export const UNATTRIBUTED = "*";
/** The row of partitions folded for memory. */
export const OTHERS = "#others";
/** The table of a line that names none. */
export const NO_TABLE = "(unknown)";

export interface Totals {
  table: string;
  partitionKey: string;
  operations: number;
  reads: number;
  writes: number;
  batches: number;
  throttled: number;
  failed: number;
  requestUnits: number;
  via: Record<string, number>;
  byClass: Record<string, number>;
}

type Cell = PartitionTraffic;

export class HeatmapBuilder {
  readonly partitions = new Map<string, Totals>();
  private cells = new Map<number, Map<string, Cell>>();
  private cellCount = 0;
  private level = 0;
  minT = Infinity;
  maxT = -Infinity;
  folded = { partitions: 0, operations: 0, maxUndercount: 0 };

  get bucketMs(): number {
    return LADDER[this.level];
  }

  get bucketName(): (typeof BUCKET_NAMES)[number] {
    return BUCKET_NAMES[this.level];
  }

  /** Adds one record of entity traffic (the caller has kept out table operations and filtered lines). */
  add(r: LogRecord): void {
    const table = r.table ?? NO_TABLE;
    const pk = r.partitionKey ?? UNATTRIBUTED;
    const id = `${table}/${pk}`;
    let p = this.partitions.get(id);
    if (!p) {
      if (this.partitions.size >= MAX_PARTITIONS) this.fold();
      p = { table, partitionKey: pk, operations: 0, reads: 0, writes: 0, batches: 0, throttled: 0, failed: 0, requestUnits: 0, via: {}, byClass: {} };
      this.partitions.set(id, p);
    }
    p.operations++;
    if (r.requestUnits) p.requestUnits += r.requestUnits;
    if (r.via) p.via[r.via] = (p.via[r.via] ?? 0) + 1;
    if (pk === UNATTRIBUTED) {
      const cls = r.op === "batch" ? "batch" : (r.queryClass ?? r.op);
      p.byClass[cls] = (p.byClass[cls] ?? 0) + 1;
    }
    const what = r.throttled ? "throttled" : r.failed ? undefined : r.op === "read" || r.op === "query" ? "reads" : r.op === "write" || r.op === "batch" ? "writes" : undefined;
    if (r.throttled) p.throttled++;
    else if (r.failed) p.failed++;
    else if (what === "reads") p.reads++;
    else if (what === "writes") {
      p.writes++;
      if (r.op === "batch") p.batches++;
    }
    if (r.time < this.minT) this.minT = r.time;
    if (r.time > this.maxT) this.maxT = r.time;
    if ((this.maxT - this.minT) / this.bucketMs >= MAX_COLUMNS && this.level < LADDER.length - 1) this.widen();
    if (!what) return;
    const t = r.time - (r.time % this.bucketMs);
    let bucket = this.cells.get(t);
    if (!bucket) this.cells.set(t, (bucket = new Map()));
    let cell = bucket.get(id);
    if (!cell) {
      bucket.set(id, (cell = { reads: 0, writes: 0, throttled: 0 }));
      if (++this.cellCount > MAX_CELLS) this.shrink();
    }
    cell[what]++;
  }

  /** The cells, oldest bucket first, in the panel's shape. */
  seconds(): TrafficSecond[] {
    return [...this.cells.keys()]
      .sort((a, b) => a - b)
      .map((t) => ({ t, partitions: Object.fromEntries(this.cells.get(t)!) }));
  }

  /** Each partition's busiest bucket: its requests (reads, writes and throttled) and when. */
  peaks(): Map<string, { count: number; t: number }> {
    const out = new Map<string, { count: number; t: number }>();
    for (const [t, bucket] of this.cells)
      for (const [id, c] of bucket) {
        const n = c.reads + c.writes + c.throttled;
        const best = out.get(id);
        if (!best || n > best.count || (n === best.count && t < best.t)) out.set(id, { count: n, t });
      }
    return out;
  }

  /** Widens the buckets until the span fits MAX_COLUMNS (or the widest is reached). */
  private widen(): void {
    let level = this.level;
    while (level < LADDER.length - 1 && (this.maxT - this.minT) / LADDER[level] >= MAX_COLUMNS) level++;
    this.rebucket(level);
  }

  /**
   * Too many cells: down to half of MAX_CELLS, by widening the buckets to a
   * minute, then folding the coldest partitions while more than
   * KEEP_PARTITIONS remain, then widening further.
   */
  private shrink(): void {
    while (this.cellCount > MAX_CELLS / 2) {
      if (this.level < 1) this.rebucket(this.level + 1);
      else if (this.partitions.size > KEEP_PARTITIONS) this.fold();
      else if (this.level < LADDER.length - 1) this.rebucket(this.level + 1);
      else return;
    }
  }

  private rebucket(level: number): void {
    const step = LADDER[level];
    const merged = new Map<number, Map<string, Cell>>();
    let count = 0;
    for (const [t, bucket] of this.cells) {
      const nt = t - (t % step);
      let into = merged.get(nt);
      if (!into) merged.set(nt, (into = new Map()));
      for (const [id, c] of bucket) {
        const have = into.get(id);
        if (have) add(have, c);
        else {
          into.set(id, c);
          count++;
        }
      }
    }
    this.cells = merged;
    this.cellCount = count;
    this.level = level;
  }

  /** Folds the coldest half of the partitions into their table's `#others` row, totals and cells alike. */
  private fold(): void {
    const real = [...this.partitions.values()].filter((p) => p.partitionKey !== OTHERS && p.partitionKey !== UNATTRIBUTED);
    if (!real.length) return;
    real.sort((a, b) => a.operations - b.operations);
    const cold = real.slice(0, Math.max(1, Math.floor(real.length / 2)));
    const into = new Map<string, string>();
    for (const p of cold) {
      const from = `${p.table}/${p.partitionKey}`;
      const to = `${p.table}/${OTHERS}`;
      into.set(from, to);
      let o = this.partitions.get(to);
      if (!o) this.partitions.set(to, (o = { ...p, partitionKey: OTHERS, operations: 0, reads: 0, writes: 0, batches: 0, throttled: 0, failed: 0, requestUnits: 0, via: {}, byClass: {} }));
      for (const k of ["operations", "reads", "writes", "batches", "throttled", "failed", "requestUnits"] as const) o[k] += p[k];
      this.partitions.delete(from);
      this.folded.partitions++;
      this.folded.operations += p.operations;
      this.folded.maxUndercount = Math.max(this.folded.maxUndercount, p.operations);
    }
    for (const bucket of this.cells.values()) {
      const moved: Array<[string, Cell]> = [];
      for (const [id, c] of bucket) if (into.has(id)) moved.push([id, c]);
      for (const [from, c] of moved) {
        const to = into.get(from)!;
        bucket.delete(from);
        const have = bucket.get(to);
        if (have) {
          add(have, c);
          this.cellCount--;
        } else bucket.set(to, c);
      }
    }
  }
}

function add(into: Cell, c: Cell): void {
  into.reads += c.reads;
  into.writes += c.writes;
  into.throttled += c.throttled;
}
