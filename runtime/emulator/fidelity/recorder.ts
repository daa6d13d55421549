/**
 * Traffic per second and per partition key — entities read, written and
 * throttled — emitted live (the webview's key-space heatmap draws it) and
 * appended to a record file: one JSON line per second (`traffic`, the
 * default), or one `StorageTableLogs` row per request
 * (`storage-table-logs`: what Azure Monitor would log, read back by
 * `tdl heatmap --logs`; a batch also has a row per operation). Request
 * rows are buffered and written four times a second, not once per request.
 */
import { appendFileSync } from "node:fs";
import { EventEmitter } from "node:events";
import type { PartitionTraffic, TrafficSecond } from "@protocol/traffic";
import { EmulatorRequest, storageTableLogRows } from "./storage-table-logs";

/** What a record file holds. */
export type RecordFormat = "traffic" | "storage-table-logs";
export const RECORD_FORMATS: readonly RecordFormat[] = ["traffic", "storage-table-logs"];

/** Request rows held before they are written regardless of the timer. */
const MAX_BUFFERED = 1 << 20;

export class TrafficRecorder extends EventEmitter {
  private current: TrafficSecond | undefined;
  private timer: NodeJS.Timeout | undefined;
  private rows: string[] = [];
  private buffered = 0;

  /** `log` hears of a record file that cannot be written (recording to it then stops; the emulator goes on). */
  constructor(
    private file?: string,
    private readonly log?: (line: string) => void,
    private readonly format: RecordFormat = "traffic",
  ) {
    super();
    this.timer = setInterval(() => this.tick(), 250);
    this.timer.unref();
  }

  /** Whether the layer should describe each request (`request()`): only a request log needs them. */
  get wantsRequests(): boolean {
    return this.format === "storage-table-logs" && this.file !== undefined;
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

  /** One answered request, as a StorageTableLogs row (request logs only). */
  request(e: EmulatorRequest): void {
    if (!this.wantsRequests) return;
    const line = storageTableLogRows(e)
      .map((row) => JSON.stringify(row) + "\n")
      .join("");
    this.rows.push(line);
    this.buffered += line.length;
    if (this.buffered > MAX_BUFFERED) this.writeRows();
  }

  /** Writes out the last second once it is over, even when no request follows it, and the rows buffered. */
  private tick(): void {
    const now = Date.now();
    try {
      if (this.current && this.current.t < now - (now % 1000)) this.flush();
      this.writeRows();
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
    if (this.format === "traffic") this.append(JSON.stringify(s) + "\n");
    this.emit("second", s);
  }

  private writeRows(): void {
    if (!this.rows.length) return;
    const text = this.rows.join("");
    this.rows = [];
    this.buffered = 0;
    this.append(text);
  }

  private append(text: string): void {
    if (!this.file) return;
    try {
      appendFileSync(this.file, text);
    } catch (e) {
      this.log?.(
        `the traffic record could not be written to ${this.file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); recording to the file stops, the emulator goes on`,
      );
      this.file = undefined;
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
    this.writeRows();
  }
}
