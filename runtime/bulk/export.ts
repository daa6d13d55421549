/**
 * `tdl export`: every entity of a table as JSON lines with their Edm types,
 * one file per PartitionKey range, ranges read in parallel, at most a share
 * of the service's targets, with the guide's back-off. Resumable: the
 * manifest is the checkpoint, rewritten after each page; a second run on the
 * same folder cuts each file back to its last checkpoint and reads on after
 * the last keys written, so after a crash or Ctrl+C nothing is lost and
 * nothing is written twice.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SERVICES, ServiceName } from "@core";
import { RefusedError } from "@core/errors";
import type { AccountSession } from "../account/explorer";
import { sampleTable } from "../infer/sample";
import { sessionReader } from "../infer/sample-reader";
import { endpointHost } from "../stress/phases";
import { Checksum } from "./checksum";
import { entityObject } from "../transfer/json";
import { loadManifest, Manifest, MANIFEST_VERSION, RangeState, saveManifest } from "./manifest";
import { Pace, pacesFor, throttleAware } from "./pace";
import { rangeFilter, splitRanges } from "./ranges";

export interface ExportOptions {
  session: AccountSession;
  table: string;
  dir: string;
  /** Ranges read at once (default 4). */
  concurrency?: number;
  /** Ranges to split the table into (default 4 × concurrency). */
  ranges?: number;
  /** Share of the service's targets the job may use (default 0.8). */
  share?: number;
  service?: ServiceName;
  signal?: AbortSignal;
  onProgress?: (p: { entities: number; ranges: number; rangesDone: number }) => void;
  onRetry?: (delayMs: number) => void;
}

export interface ExportResult {
  manifest: Manifest;
  /** The run went on from an earlier one's checkpoint. */
  resumed: boolean;
  /** Stopped by the signal before every range was read (the manifest says how far each got). */
  cancelled: boolean;
}

const PAGE = 1000;

export async function exportTable(o: ExportOptions): Promise<ExportResult> {
  fs.mkdirSync(o.dir, { recursive: true });
  const earlier = loadManifest(o.dir);
  if (earlier && earlier.table !== o.table)
    throw new RefusedError(`${o.dir} holds an export of the table ${earlier.table}, not ${o.table}: choose another folder`);
  const concurrency = o.concurrency ?? 4;
  const manifest = earlier ?? (await plan(o, concurrency));
  if (earlier?.finished) return { manifest, resumed: true, cancelled: false };
  saveManifest(o.dir, manifest);
  const paces = pacesFor(SERVICES[o.service ?? "azure-table"], o.share ?? 0.8);
  const pending = manifest.ranges.filter((r) => !r.done);
  const progress = () =>
    o.onProgress?.({
      entities: manifest.ranges.reduce((n, r) => n + r.count, 0),
      ranges: manifest.ranges.length,
      rangesDone: manifest.ranges.filter((r) => r.done).length,
    });
  const worker = async () => {
    for (let r = pending.shift(); r && !o.signal?.aborted; r = pending.shift()) {
      try {
        await readRange(o, r, paces.job, paces.worker(), () => {
          saveManifest(o.dir, manifest);
          progress();
        });
      } catch (e) {
        // Cancelled mid-request: the range's checkpoint is where it was, and a rerun goes on from there.
        if (!o.signal?.aborted) throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
  const cancelled = manifest.ranges.some((r) => !r.done);
  if (!cancelled) {
    const total = new Checksum();
    for (const r of manifest.ranges) total.merge(r);
    manifest.count = total.count;
    manifest.checksum = total.hex;
    manifest.finished = new Date().toISOString();
  }
  saveManifest(o.dir, manifest);
  return { manifest, resumed: !!earlier, cancelled };
}

/** The ranges of a new export, from a spread-out sample of the table's partition keys. */
async function plan(o: ExportOptions, concurrency: number): Promise<Manifest> {
  const sample = await sampleTable(sessionReader(o.session, o.table), { sample: 2000, signal: o.signal });
  const ranges = splitRanges(
    sample.entities.map((e) => e.partitionKey),
    o.ranges ?? concurrency * 4,
  );
  return {
    version: MANIFEST_VERSION,
    table: o.table,
    source: endpointHost(o.session.connection.endpoint),
    started: new Date().toISOString(),
    ranges: ranges.map((r, index) => ({
      index,
      ...r,
      file: `range-${String(index).padStart(4, "0")}.jsonl`,
      count: 0,
      checksum: "0000000000000000",
      bytes: 0,
      done: false,
    })),
    count: 0,
    checksum: "0000000000000000",
  };
}

/** Reads one range to its end (or the signal), appending to its file and checkpointing after each page. */
async function readRange(o: ExportOptions, r: RangeState, job: Pace, own: Pace, checkpoint: () => void): Promise<void> {
  const file = path.join(o.dir, r.file);
  // Whatever a crash left past the checkpoint is cut off: it will be read again.
  const fd = fs.openSync(file, fs.existsSync(file) ? "r+" : "w");
  try {
    fs.ftruncateSync(fd, r.bytes);
    const sum = new Checksum(r.checksum, r.count);
    const filter = r.next ? r.next.filter : rangeFilter(r);
    let token = r.next?.token;
    do {
      await job.ready(o.signal);
      await own.ready(o.signal);
      if (o.signal?.aborted) return;
      const page = await throttleAware(
        () => o.session.page(o.table, { filter, continuationToken: token, pageSize: PAGE, signal: o.signal }),
        o.signal,
        o.onRetry,
      );
      job.spend(page.entities.length);
      own.spend(page.entities.length);
      const text = page.entities.map((e) => JSON.stringify(entityObject(e)) + "\n").join("");
      fs.writeSync(fd, text, r.bytes);
      fs.fsyncSync(fd);
      for (const e of page.entities) sum.add(e);
      r.bytes += Buffer.byteLength(text);
      r.count = sum.count;
      r.checksum = sum.hex;
      token = page.continuationToken;
      r.next = token ? { filter, token } : undefined;
      r.done = !token;
      checkpoint();
    } while (token);
  } finally {
    fs.closeSync(fd);
  }
}
