/**
 * What the heatmap shows, apart from how it is drawn: the seconds received
 * (a second sent twice is added up), the window in view (the newest
 * seconds, or a zoomed time range and key range), the partition keys in
 * that window grouped into rows in key order, a cell per row and second,
 * and the summary sentence — which says "idle" once the newest second
 * holds no traffic.
 */
import type { TrafficSecond } from "@protocol/traffic";
import { type Cell, type Grid, keyGrid } from "@protocol/heatmap-grid";
import { formatCount, plural } from "@core/text/words";

export type { Cell } from "@protocol/heatmap-grid";

/** Seconds kept (the host keeps ten minutes for a heatmap opened late). */
export const KEEP_SECONDS = 600;
/** Seconds in view when not zoomed. */
export const DEFAULT_SPAN = 120;

/** A zoom: a time range (`live`: it ends at the newest second and moves with it) and a key range (inclusive). */
export interface Zoom {
  span: number;
  /** The last second in view (ms) when not live. */
  end?: number;
  keys?: { first: string; last: string };
}

/** The grid in view (keyGrid) and its columns' times. */
export interface Layout extends Grid {
  /** The columns in view, oldest first (ms, whole buckets), `span` of them. */
  times: number[];
  /** A column's length: 1,000 (a second) live; a log's bucket in a heatmap of logs. */
  bucketMs: number;
}

/**
 * The buckets received (seconds, live), by time; a bucket that comes again
 * is added to the one kept. Past `keep` buckets the oldest are dropped.
 */
export class TrafficLog {
  private readonly seconds = new Map<number, Map<string, Cell>>();
  private newestT: number | undefined;
  private lastTraffic: number | undefined;

  constructor(
    readonly bucketMs = 1000,
    private readonly keep = KEEP_SECONDS,
  ) {}

  add(second: TrafficSecond): void {
    const t = second.t - (second.t % this.bucketMs);
    let kept = this.seconds.get(t);
    if (!kept) {
      kept = new Map();
      this.seconds.set(t, kept);
    }
    for (const [key, p] of Object.entries(second.partitions)) {
      const cell = kept.get(key) ?? { reads: 0, writes: 0, throttled: 0 };
      cell.reads += p.reads;
      cell.writes += p.writes;
      cell.throttled += p.throttled;
      kept.set(key, cell);
    }
    if (kept.size && (this.lastTraffic === undefined || t > this.lastTraffic)) this.lastTraffic = t;
    if (this.newestT === undefined || t > this.newestT) this.newestT = t;
    if (this.seconds.size > this.keep) {
      const oldest = [...this.seconds.keys()].sort((a, b) => a - b).slice(0, this.seconds.size - this.keep);
      for (const o of oldest) this.seconds.delete(o);
    }
  }

  get newest(): number | undefined {
    return this.newestT;
  }

  /** The newest second that had traffic. */
  get lastActive(): number | undefined {
    return this.lastTraffic;
  }

  second(t: number): Map<string, Cell> | undefined {
    return this.seconds.get(t);
  }

  /** What is in view under `zoom`, the keys grouped into at most `maxRows` rows. */
  layout(zoom: Zoom, maxRows: number): Layout {
    const end = zoom.end ?? this.newestT ?? 0;
    const step = this.bucketMs;
    const times = Array.from({ length: zoom.span }, (_, i) => end - (zoom.span - 1 - i) * step);
    const inRange = (k: string) => !zoom.keys || (k >= zoom.keys.first && k <= zoom.keys.last);
    const grid = keyGrid(
      times.map((t) => this.seconds.get(t)),
      maxRows,
      inRange,
    );
    return { ...grid, times, bucketMs: step };
  }
}

const n = formatCount;

/** `12:00:05` in the page's time zone. */
export function clock(t: number): string {
  return new Date(t).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
}

/**
 * The summary: the newest second's traffic, or "idle" (since when) once it
 * holds none; `keys` is how many partition keys the map shows.
 */
export function summary(log: TrafficLog, keys: number): { idle: boolean; text: string } {
  const t = log.newest;
  if (t === undefined || log.lastActive === undefined) {
    return { idle: true, text: "Idle: no traffic yet — run your app, tests or a stress test against the emulator." };
  }
  const second = log.second(t);
  if (!second?.size) {
    const ago = Math.round((t - log.lastActive) / 1000);
    return {
      idle: true,
      text: `Idle: no traffic since ${clock(log.lastActive)} (${plural(ago, "second", "seconds")} before ${clock(t)}) · ${plural(keys, "partition key", "partition keys")} in view.`,
    };
  }
  let reads = 0;
  let writes = 0;
  let throttled = 0;
  for (const c of second.values()) {
    reads += c.reads;
    writes += c.writes;
    throttled += c.throttled;
  }
  return {
    idle: false,
    text:
      `${plural(keys, "partition key", "partition keys")} in view · last second: ${n(reads + writes)} entities/s at ${clock(t)} ` +
      `(${n(reads)} read, ${n(writes)} written, over ${plural(second.size, "partition", "partitions")})${throttled ? ` · ${n(throttled)} throttled` : ""}`,
  };
}

/** Columns between time-axis labels so that labels are at least `minPx` apart (seconds live; minutes, hours… for logs). */
export function tickStep(pxPerColumn: number, minPx = 64): number {
  for (const s of [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600]) if (s * pxPerColumn >= minPx) return s;
  return 3600;
}
