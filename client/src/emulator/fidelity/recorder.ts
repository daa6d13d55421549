/**
 * Traffic per second and per partition key — entities read, written and
 * throttled — appended as JSON lines to a file and emitted live (the
 * webview's key-space heatmap draws it).
 */
import { appendFileSync } from "node:fs";
import { EventEmitter } from "node:events";

export interface PartitionTraffic {
  reads: number;
  writes: number;
  throttled: number;
}

/** One second of traffic: `t` is the second's start (ms since the epoch); keys are `table/partitionKey`. */
export interface TrafficSecond {
  t: number;
  partitions: Record<string, PartitionTraffic>;
}

export class TrafficRecorder extends EventEmitter {
  private current: TrafficSecond | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly file?: string) {
    super();
    this.timer = setInterval(() => this.tick(), 250);
    this.timer.unref();
  }

  add(table: string, partitionKey: string, what: keyof PartitionTraffic, entities: number): void {
    const now = Date.now();
    const second = now - (now % 1000);
    if (this.current && this.current.t !== second) this.flush();
    this.current ??= { t: second, partitions: {} };
    const key = `${table}/${partitionKey}`;
    const p = (this.current.partitions[key] ??= { reads: 0, writes: 0, throttled: 0 });
    p[what] += entities;
  }

  /** Writes out the last second once it is over, even when no request follows it. */
  private tick(): void {
    const now = Date.now();
    if (this.current && this.current.t < now - (now % 1000)) this.flush();
  }

  /** Writes out the second in progress (also on stop). */
  flush(): void {
    const s = this.current;
    this.current = undefined;
    if (!s || !Object.keys(s.partitions).length) return;
    if (this.file) appendFileSync(this.file, JSON.stringify(s) + "\n");
    this.emit("second", s);
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
