/**
 * Traffic per second and per partition key — entities read, written and
 * throttled — appended as JSON lines to a file and emitted live (the
 * webview's key-space heatmap draws it).
 */
import { appendFileSync } from "node:fs";
import { EventEmitter } from "node:events";
import type { PartitionTraffic, TrafficSecond } from "@protocol/traffic";

export class TrafficRecorder extends EventEmitter {
  private current: TrafficSecond | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** `log` hears of a record file that cannot be written (recording to it then stops; the emulator goes on). */
  constructor(
    private file?: string,
    private readonly log?: (line: string) => void,
  ) {
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
    try {
      if (this.current && this.current.t < now - (now % 1000)) this.flush();
    } catch (e) {
      // A timer callback that throws would end the process: a listener's failure is logged instead.
      this.log?.(`traffic recorder: ${(e as Error)?.stack ?? e}`);
    }
  }

  /** Writes out the second in progress (also on stop). */
  flush(): void {
    const s = this.current;
    this.current = undefined;
    if (!s || !Object.keys(s.partitions).length) return;
    if (this.file) {
      try {
        appendFileSync(this.file, JSON.stringify(s) + "\n");
      } catch (e) {
        this.log?.(
          `the traffic record could not be written to ${this.file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); recording to the file stops, the emulator goes on`,
        );
        this.file = undefined;
      }
    }
    this.emit("second", s);
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
