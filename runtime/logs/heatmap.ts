/**
 * Adds log records up into a heatmap in bounded memory, whatever the
 * log's length: per partition its totals (requests, and entities as the
 * emulator's heatmap counts them), per bucket of time a cell per partition
 * (entities read, written, throttled). Buckets start at a second and widen
 * (a minute, an hour, a day) once the records span more than MAX_COLUMNS
 * of them, or once the cells pass MAX_CELLS; past MAX_PARTITIONS
 * partitions the coldest half is folded into one `#others` row per table
 * (a key cannot hold `#`). A partition seen again after a fold starts a new
 * row, which may lack what its folded row held: each row carries that bound
 * (`shortBy`, 0 for a row exact to the entity), so a figure is exact or says
 * by how much it may be short.
 */
import type { PartitionTraffic, TrafficSecond } from "@protocol/traffic";
import type { EntityCounts, PartitionSummary, QueriedRange } from "@protocol/log-heatmap";
import type { LogRecord } from "./record";

export const MAX_COLUMNS = 3600;
export const MAX_CELLS = 250_000;
export const MAX_PARTITIONS = 50_000;
/** PartitionKey ranges counted per table (the most queried are listed). */
export const MAX_RANGES = 1000;
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

/** A partition's running totals: the summary's counts, and for the unattributed row its classes and ranges. */
export interface Totals extends Omit<PartitionSummary, "peakPerSecond" | "peakAt" | "design" | "requestUnits" | "shortBy"> {
  requestUnits: number;
  /** The most entities (and as many requests) this row may lack: what a folded row of the same key may have held (0: exact). */
  shortBy: number;
  byClass: Record<string, number>;
  ranges: Map<string, QueriedRange>;
}

type Cell = PartitionTraffic;
type Counted = keyof EntityCounts;
const CELL_OF: Record<Counted, keyof Cell> = { read: "reads", written: "writes", throttled: "throttled" };

/** What a record counts as in entities: read, written, throttled, or nothing (a failure, an operation of no class). */
function countedAs(r: LogRecord): Counted | undefined {
  if (r.throttled) return "throttled";
  if (r.failed) return undefined;
  return r.op === "read" || r.op === "query" ? "read" : r.op === "write" || r.op === "batch" ? "written" : undefined;
}

const total = (e: EntityCounts) => e.read + e.written + e.throttled;

export class HeatmapBuilder {
  readonly partitions = new Map<string, Totals>();
  private cells = new Map<number, Map<string, Cell>>();
  private cellCount = 0;
  private level = 0;
  minT = Infinity;
  maxT = -Infinity;
  folded = { partitions: 0, entities: 0, maxUndercount: 0 };

  get bucketMs(): number {
    return LADDER[this.level];
  }

  get bucketName(): (typeof BUCKET_NAMES)[number] {
    return BUCKET_NAMES[this.level];
  }

  /** Cells held now (at most MAX_CELLS). */
  get cellsHeld(): number {
    return this.cellCount;
  }

  /** Adds one request of entity traffic (the caller has kept out table operations and filtered lines). */
  add(r: LogRecord): void {
    const { id, p } = this.partition(r);
    p.operations++;
    if (r.requestUnits) p.requestUnits += r.requestUnits;
    if (r.via) p.via[r.via] = (p.via[r.via] ?? 0) + 1;
    if (p.partitionKey === UNATTRIBUTED) {
      const cls = r.op === "batch" ? "batch" : (r.queryClass ?? r.op);
      p.byClass[cls] = (p.byClass[cls] ?? 0) + 1;
      if (r.range) this.range(p, r.range);
    }
    const what = countedAs(r);
    if (r.throttled) p.throttled++;
    else if (r.failed) p.failed++;
    else if (what === "read") p.reads++;
    else if (what === "written") {
      p.writes++;
      if (r.op === "batch") p.batches++;
    }
    if (r.time < this.minT) this.minT = r.time;
    if (r.time > this.maxT) this.maxT = r.time;
    if ((this.maxT - this.minT) / this.bucketMs >= MAX_COLUMNS && this.level < LADDER.length - 1) this.widen();
    // A request is one entity until it says more: a point operation is one, a query page counts one, a batch its operations.
    if (what) this.count(id, p, what, r.time, 1);
  }

  /** One more entity of `batch` (an operation of it after its first, which the batch's own line counted). */
  addBatchEntity(batch: LogRecord): void {
    const what = countedAs(batch);
    if (!what) return;
    const { id, p } = this.partition(batch);
    this.count(id, p, what, batch.time, 1);
  }

  private partition(r: LogRecord): { id: string; p: Totals } {
    const table = r.table ?? NO_TABLE;
    const pk = r.partitionKey ?? UNATTRIBUTED;
    const id = `${table}/${pk}`;
    let p = this.partitions.get(id);
    if (!p) {
      if (this.partitions.size >= MAX_PARTITIONS) this.fold();
      // A key folded before may come back: its new row may lack up to the most any folded row held.
      p = blank(table, pk, this.folded.maxUndercount);
      this.partitions.set(id, p);
    }
    return { id, p };
  }

  private count(id: string, p: Totals, what: Counted, time: number, n: number): void {
    p.entities[what] += n;
    const t = time - (time % this.bucketMs);
    let bucket = this.cells.get(t);
    if (!bucket) this.cells.set(t, (bucket = new Map()));
    let cell = bucket.get(id);
    if (!cell) {
      bucket.set(id, (cell = { reads: 0, writes: 0, throttled: 0 }));
      if (++this.cellCount > MAX_CELLS) this.shrink();
    }
    cell[CELL_OF[what]] += n;
  }

  private range(p: Totals, r: NonNullable<LogRecord["range"]>): void {
    const key = `${r.from ?? ""}\u0000${r.to ?? ""}`;
    const have = p.ranges.get(key);
    if (have) have.pages++;
    else if (p.ranges.size < MAX_RANGES) p.ranges.set(key, { ...r, pages: 1 });
  }

  /** The cells, oldest bucket first, in the panel's shape. */
  seconds(): TrafficSecond[] {
    return [...this.cells.keys()].sort((a, b) => a - b).map((t) => ({ t, partitions: Object.fromEntries(this.cells.get(t)!) }));
  }

  /** Each partition's busiest bucket: the entities it served (read and written, as the heatmap colours them) and when. */
  peaks(): Map<string, { count: number; t: number }> {
    const out = new Map<string, { count: number; t: number }>();
    for (const [t, bucket] of this.cells)
      for (const [id, c] of bucket) {
        const n = c.reads + c.writes;
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
    real.sort((a, b) => total(a.entities) - total(b.entities) || a.operations - b.operations);
    const cold = real.slice(0, Math.max(1, Math.floor(real.length / 2)));
    const into = new Map<string, string>();
    for (const p of cold) {
      const from = `${p.table}/${p.partitionKey}`;
      const to = `${p.table}/${OTHERS}`;
      into.set(from, to);
      let o = this.partitions.get(to);
      if (!o) this.partitions.set(to, (o = blank(p.table, OTHERS)));
      for (const k of ["operations", "reads", "writes", "batches", "throttled", "failed", "requestUnits"] as const) o[k] += p[k];
      for (const k of ["read", "written", "throttled"] as const) o.entities[k] += p.entities[k];
      this.partitions.delete(from);
      this.folded.partitions++;
      this.folded.entities += total(p.entities);
      // What a later row of this key may lack: this row's entities, and what this row itself may have lacked.
      this.folded.maxUndercount = Math.max(this.folded.maxUndercount, total(p.entities) + p.shortBy, p.operations + p.shortBy);
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

function blank(table: string, partitionKey: string, shortBy = 0): Totals {
  return {
    table,
    partitionKey,
    shortBy,
    operations: 0,
    reads: 0,
    writes: 0,
    batches: 0,
    throttled: 0,
    failed: 0,
    requestUnits: 0,
    entities: { read: 0, written: 0, throttled: 0 },
    via: {},
    byClass: {},
    ranges: new Map(),
  };
}

function add(into: Cell, c: Cell): void {
  into.reads += c.reads;
  into.writes += c.writes;
  into.throttled += c.throttled;
}
