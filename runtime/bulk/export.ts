/**
 * `tdl export`: every entity of a table as JSON lines with their Edm types,
 * one file per PartitionKey range, ranges read in parallel, at most a share
 * of the service's targets, with the guide's back-off. Resumable: the
 * manifest is the checkpoint, rewritten (off the event loop, one write for
 * the readers that ask at once) when a range ends and at most every second
 * while it reads; a second run on the same folder cuts each file back to its
 * last checkpoint and reads on after the last keys written, so after a crash
 * or Ctrl+C nothing is lost and nothing is written twice.
 *
 * Ranges planned from a few keys are never equal, so the work is rebalanced
 * as it goes (where the service returns keys in order): a worker with no
 * range left takes the upper half of the unread rest of the range that has
 * the most left, and that range's reader stops where the new one starts —
 * unless the job's pace is what holds the readers back (a throttling
 * service): then a split only costs a query and a last page of its own.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SERVICES, ServiceName } from "@core";
import type { AccountSession } from "../account/session";
import { sessionReader } from "../infer/sample-reader";
import { endpointHost } from "../net/endpoint-host";
import { Checksum } from "./checksum";
import { entityObject } from "../transfer/json";
import { loadManifest, Manifest, MANIFEST_VERSION, ManifestSaver, RangeState } from "./manifest";
import { jobPaths } from "./pace";
import type { Pace } from "../net/pace";
import type { ThrottledPath, RetryNotice } from "../net/throttled";
import type { PaceState } from "../net/pace";
import { anchorKeys, KeySpace, PLAN_PROBES, rangeFilter, splitRanges } from "./ranges";
import { END } from "../infer/key-space";
import { throttledReader } from "./requests";
import { checkCoverage, checkFinished, checkRangeFile, checkSource, lockFolder } from "./folder";

export interface ExportOptions {
  session: AccountSession;
  table: string;
  dir: string;
  /** Ranges read at once (default 4). */
  concurrency?: number;
  /** Ranges to split the table into at first (default 2 × concurrency; ranges with much left are split as readers run out). */
  ranges?: number;
  /** Share of the service's targets the job may use (default 0.8). */
  share?: number;
  /** Entities per second the whole job may use, instead of the account's share; Infinity: no pace. */
  rate?: number;
  service?: ServiceName;
  signal?: AbortSignal;
  onProgress?: (p: { entities: number; ranges: number; rangesDone: number; pace: PaceState }) => void;
  onRetry?: (n: RetryNotice) => void;
  /** A copy's refresh this export belongs to (the last copy's export start): recorded in a new manifest. */
  refreshOf?: string;
}

export interface ExportResult {
  manifest: Manifest;
  /** The run went on from an earlier one's checkpoint. */
  resumed: boolean;
  /** Stopped by the signal before every range was read (the manifest says how far each got). */
  cancelled: boolean;
  /** The folder held a finished export already: it is handed on as it is (read from the source at its `started`). */
  reused?: boolean;
}

const PAGE = 1000;
/** A range is split only when its reader expects this many entities left (two pages). */
const MIN_SPLIT = 2 * PAGE;
/** Keys a reader keeps to measure its range's key space with. */
const SAMPLE = 32;
/** The longest a range reads between checkpoints (ms). */
const CHECKPOINT_MS = 1000;

export async function exportTable(o: ExportOptions): Promise<ExportResult> {
  const release = lockFolder(o.dir, `tdl export of ${o.table}`);
  try {
    return await exportLocked(o);
  } finally {
    release();
  }
}

async function exportLocked(o: ExportOptions): Promise<ExportResult> {
  const earlier = loadManifest(o.dir);
  if (earlier) {
    checkSource(o.dir, earlier, {
      source: endpointHost(o.session.connection.endpoint),
      table: o.table,
      service: o.service ?? "azure-table",
    });
    // Every file is checked against its checkpoint before a line is added to it (or, finished, before it is handed on).
    if (earlier.finished) await checkFinished(o.dir, earlier);
    else {
      checkCoverage(o.dir, earlier);
      for (const r of earlier.ranges) await checkRangeFile(o.dir, r, false);
    }
  }
  const concurrency = o.concurrency ?? 4;
  const profile = SERVICES[o.service ?? "azure-table"];
  const paces = jobPaths(profile, o);
  const manifest = earlier ?? (await plan(o, concurrency, paces.path));
  if (earlier?.finished) return { manifest, resumed: true, cancelled: false, reused: true };
  const saver = new ManifestSaver(o.dir, manifest);
  await saver.save();
  const pending = manifest.ranges.filter((r) => !r.done);
  const reading = new Map<RangeState, Progress>();
  /** Settles at the next page any reader reads (or when one stops): a worker with nothing to do waits for it. */
  let moved!: Promise<void>;
  let wake!: () => void;
  const rearm = () => (moved = new Promise<void>((resolve) => (wake = resolve)));
  rearm();
  const notify = () => {
    wake();
    rearm();
  };
  o.signal?.addEventListener("abort", notify, { once: true });
  /**
   * The upper half of the unread rest of the range with the most left, as a
   * new range; undefined when no range has MIN_SPLIT entities left by its
   * reader's estimate (a split costs a query and a last page of its own).
   */
  const split = (): RangeState | undefined => {
    // Held back by the pace (the service's rate, or the job's share): another reader adds a query and a last page, not speed.
    if (!profile.sorted || paces.path.pace.holding()) return undefined;
    let best: { r: RangeState; left: number; at: string } | undefined;
    for (const [r, p] of reading) {
      if (r.done || p.last === undefined) continue;
      // The last range ends where the plan found no key at or after.
      const end = r.to ?? (manifest.ceiling !== undefined && manifest.ceiling > p.last ? manifest.ceiling : END);
      const space = p.space();
      const at = space.middle(p.last, end);
      // What is left, as entities: the keys met over the key space read, times the space not read.
      const left = (space.width(p.last, end) * p.count) / Math.max(space.width(p.first ?? p.last, p.last), 1e-300);
      if (at !== undefined && at > p.last && left >= MIN_SPLIT && (!best || left > best.left)) best = { r, left, at };
    }
    if (!best) return undefined;
    const index = manifest.ranges.length;
    const added: RangeState = {
      index,
      from: best.at,
      to: best.r.to,
      file: rangeFile(index),
      count: 0,
      checksum: "0000000000000000",
      bytes: 0,
      done: false,
    };
    best.r.to = best.at;
    manifest.ranges.push(added);
    return added;
  };
  const progress = () =>
    o.onProgress?.({
      entities: manifest.ranges.reduce((n, r) => n + r.count, 0),
      ranges: manifest.ranges.length,
      rangesDone: manifest.ranges.filter((r) => r.done).length,
      pace: paces.path.state(),
    });
  const worker = async () => {
    while (!o.signal?.aborted) {
      let r = pending.shift();
      if (!r) {
        r = split();
        // Nothing to split yet: wait for the readers to go on, and stop when none is left.
        if (!r) {
          if (!reading.size) return;
          await moved;
          continue;
        }
        // The checkpoint names the new range before its reader writes a line (the old one only stops sooner).
        await saver.save();
      }
      const p = new Progress(r.from, r.count, notify);
      reading.set(r, p);
      try {
        await readRange(o, r, p, paces.path, paces.worker(), async () => {
          await saver.save();
          progress();
        });
      } catch (e) {
        // Cancelled mid-request: the range's checkpoint is where it was, and a rerun goes on from there.
        if (!o.signal?.aborted) throw e;
      } finally {
        reading.delete(r);
        notify();
      }
    }
  };
  await Promise.all(Array.from({ length: profile.sorted ? concurrency : Math.min(concurrency, pending.length) }, worker));
  const cancelled = manifest.ranges.some((r) => !r.done);
  if (!cancelled) {
    const total = new Checksum();
    for (const r of manifest.ranges) total.merge(r);
    manifest.count = total.count;
    manifest.checksum = total.hex;
    manifest.finished = new Date().toISOString();
  }
  await saver.save();
  return { manifest, resumed: !!earlier, cancelled };
}

/** The ranges of a new export, split at partition keys spread over the table's key space. */
async function plan(o: ExportOptions, concurrency: number, net: ThrottledPath): Promise<Manifest> {
  // A range a reader to begin with, split at the keys the probes find: the splits as it goes even out the rest.
  const wanted = o.ranges ?? 2 * concurrency;
  const anchors = await anchorKeys(throttledReader(sessionReader(o.session, o.table), net), Math.min(PLAN_PROBES, wanted - 1), o.signal);
  const ranges = splitRanges(anchors.keys, wanted);
  return {
    version: MANIFEST_VERSION,
    table: o.table,
    source: endpointHost(o.session.connection.endpoint),
    service: o.service ?? "azure-table",
    started: new Date().toISOString(),
    ranges: ranges.map((r, index) => ({
      index,
      ...r,
      file: rangeFile(index),
      count: 0,
      checksum: "0000000000000000",
      bytes: 0,
      done: false,
    })),
    count: 0,
    checksum: "0000000000000000",
    ceiling: anchors.ceiling,
    ...(o.refreshOf !== undefined ? { refreshOf: o.refreshOf } : {}),
  };
}

const rangeFile = (index: number) => `range-${String(index).padStart(4, "0")}.jsonl`;

/** How far a range's reader got in this run: the last key it met, and keys to measure its key space with. */
class Progress {
  last?: string;
  /** Entities the range holds so far, this run's and earlier runs'. */
  count: number;
  /** The range's first key and up to SAMPLE of the keys met after it. */
  private readonly keys: string[];
  constructor(
    from: string,
    count: number,
    private readonly onMet: () => void,
  ) {
    this.count = count;
    this.keys = from ? [from] : [];
  }

  /** The range's first key: where it starts, or the first key met when it starts at the table's start. */
  get first(): string | undefined {
    return this.keys[0];
  }

  met(key: string, count: number): void {
    if (this.keys.length < SAMPLE && key !== this.last) this.keys.push(key);
    this.last = key;
    this.count = count;
    this.onMet();
  }

  space(): KeySpace {
    return new KeySpace(this.last === undefined ? this.keys : [...this.keys, this.last]);
  }
}

/**
 * Reads one range to its end (or the signal), appending to its file. A
 * checkpoint — the file flushed to disk, then the range's state in the
 * manifest — comes at most every CHECKPOINT_MS and at the end: a crash
 * loses at most that much reading, which the rerun does again. Its end may
 * move down while it reads (a split): entities at or past it are left to
 * the range that starts there, and where keys come in order the first of
 * them ends the read.
 */
async function readRange(
  o: ExportOptions,
  r: RangeState,
  p: Progress,
  net: ThrottledPath,
  own: Pace,
  checkpoint: () => Promise<void>,
): Promise<void> {
  const file = path.join(o.dir, r.file);
  // Whatever a crash left past the checkpoint is cut off: it will be read again.
  const handle = await fs.promises.open(file, fs.existsSync(file) ? "r+" : "w");
  const fd = handle.fd;
  const sum = new Checksum(r.checksum, r.count);
  let bytes = r.bytes;
  let next = r.next;
  let saved = performance.now();
  const commit = async () => {
    await handle.sync();
    Object.assign(r, { bytes, count: sum.count, checksum: sum.hex, next, done: !next });
    await checkpoint();
    saved = performance.now();
  };
  try {
    await handle.truncate(bytes);
    const filter = next ? next.filter : rangeFilter(r);
    let token = next?.token;
    do {
      if (o.signal?.aborted) break;
      const page = await net.send(() => o.session.page(o.table, { filter, continuationToken: token, pageSize: PAGE, signal: o.signal }), {
        own,
        before: PAGE,
        after: (p) => p.entities.length,
      });
      const to = r.to;
      const mine = to === undefined ? page.entities : page.entities.filter((e) => e.partitionKey < to);
      // Keys in order: past the end, the rest belongs to the next range.
      token = mine.length < page.entities.length ? undefined : page.continuationToken;
      const text = mine.map((e) => JSON.stringify(entityObject(e)) + "\n").join("");
      fs.writeSync(fd, text, bytes);
      for (const e of mine) sum.add(e);
      if (mine.length) p.met(mine[mine.length - 1].partitionKey, sum.count);
      bytes += Buffer.byteLength(text);
      next = token ? { filter, token } : undefined;
      if (!token || performance.now() - saved >= CHECKPOINT_MS) await commit();
    } while (token);
  } finally {
    // Stopped or failed: every page written is whole, so it is kept, and a rerun reads on after it.
    try {
      if (bytes > r.bytes) await commit();
    } finally {
      await handle.close();
    }
  }
}
