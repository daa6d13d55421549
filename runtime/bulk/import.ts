/**
 * `tdl import`: a bulk export's folder written into a table — batches of one
 * partition, at most the target's operations and bytes, as idempotent
 * upserts (a rerun changes nothing), at most a share of the service's
 * targets, with the guide's back-off. Resumable: after each batch its last
 * line is checkpointed, so a rerun goes on after it. A line that is not an
 * entity (not JSON, a value that does not fit its type) is reported with its
 * file and line and skipped whole, never half-written.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { SERVICES, ServiceName } from "@core";
import { InputError } from "@core/errors";
import type { EntityRow } from "@protocol/entities";
import { REFUSE_ALL } from "@protocol/transfer";
import type { AccountSession } from "../account/session";
import { readJsonObject } from "../transfer/json";
import { Problems } from "../transfer/records";
import { typeRecord } from "../transfer/typing";
import { loadManifest, Manifest, RangeState, writeAtomically } from "./manifest";
import { Pace, pacesFor, throttleAware } from "./pace";

export interface ImportOptions {
  session: AccountSession;
  table: string;
  dir: string;
  concurrency?: number;
  share?: number;
  /** Entities per second the whole job may use, instead of the account's share; Infinity: no pace. */
  rate?: number;
  /** The target's profile: its batch limits (default azure-table). */
  service?: ServiceName;
  signal?: AbortSignal;
  onProgress?: (p: { written: number; total: number }) => void;
  onRetry?: (delayMs: number) => void;
  /** Says why an entity must not be written (a copy's pre-flight against the target's limits): it is skipped like a bad line. */
  reject?: (row: EntityRow) => string | undefined;
}

/** A line that was not imported, and why. */
export interface SkippedLine {
  file: string;
  line: number;
  message: string;
}

/** Per range: the lines done (written or skipped), the entities written. */
interface ImportState {
  table: string;
  ranges: Record<string, { line: number; written: number; done: boolean }>;
  skipped: SkippedLine[];
}

export interface ImportResult {
  written: number;
  skipped: SkippedLine[];
  resumed: boolean;
  cancelled: boolean;
}

/** The longest an import writes between checkpoints (ms). */
const CHECKPOINT_MS = 1000;
const stateFile = (dir: string, table: string) => path.join(dir, `import.${table}.json`);

export async function importTable(o: ImportOptions): Promise<ImportResult> {
  const manifest = finishedManifest(o.dir);
  await o.session.createTable(o.table).catch((e: { code?: string }) => {
    if (e.code !== "TableAlreadyExists") throw e;
  });
  const file = stateFile(o.dir, o.table);
  const earlier = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as ImportState) : undefined;
  const state: ImportState = earlier ?? { table: o.table, ranges: {}, skipped: [] };
  const save = () => writeAtomically(file, JSON.stringify(state) + "\n");
  // A checkpoint at most every CHECKPOINT_MS: upserts are idempotent, so a crash only means writing those batches again.
  let saved = performance.now();
  const checkpoint = (final = false) => {
    if (!final && performance.now() - saved < CHECKPOINT_MS) return;
    save();
    saved = performance.now();
  };
  const profile = SERVICES[o.service ?? "azure-table"];
  const paces = pacesFor(profile, o.share ?? 0.8, o.rate);
  const written = () => Object.values(state.ranges).reduce((n, r) => n + r.written, 0);
  const pending = manifest.ranges.filter((r) => !state.ranges[r.file]?.done);
  const worker = async () => {
    for (let r = pending.shift(); r && !o.signal?.aborted; r = pending.shift()) {
      try {
        await writeRange(
          o,
          r,
          state,
          { job: paces.job, own: paces.worker(), maxOps: profile.batchMaxOperations, maxBytes: profile.batchMaxBytes },
          (final) => {
            checkpoint(final);
            o.onProgress?.({ written: written(), total: manifest.count });
          },
        );
      } catch (e) {
        if (!o.signal?.aborted) throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency ?? 4, pending.length) }, worker));
  save();
  const cancelled = manifest.ranges.some((r) => !state.ranges[r.file]?.done);
  return { written: written(), skipped: state.skipped, resumed: !!earlier, cancelled };
}

/** The manifest of a complete export, or an input error that says what is wrong with the folder. */
export function finishedManifest(dir: string): Manifest {
  const manifest = loadManifest(dir);
  if (!manifest) throw new InputError(`${dir} holds no bulk export (no manifest.json)`);
  if (!manifest.finished) throw new InputError(`the export in ${dir} is not complete: run the export again to finish it`);
  return manifest;
}

interface Limits {
  job: Pace;
  own: Pace;
  maxOps: number;
  maxBytes: number;
}

/** Writes one range's file from its checkpoint on, a batch at a time. */
async function writeRange(
  o: ImportOptions,
  r: RangeState,
  state: ImportState,
  limits: Limits,
  checkpoint: (final?: boolean) => void,
): Promise<void> {
  const progress = (state.ranges[r.file] ??= { line: 0, written: 0, done: false });
  let batch: EntityRow[] = [];
  let bytes = 0;
  let batchEnd = progress.line;
  const flush = async () => {
    if (batch.length) {
      await limits.job.ready(o.signal);
      await limits.own.ready(o.signal);
      const rows = batch;
      const sent = await throttleAware(() => o.session.writeBatches(o.table, [rows], undefined, o.signal, true), o.signal, o.onRetry);
      // Cancelled before it was sent: not written, so the checkpoint stays before it.
      if (sent.written < rows.length) return false;
      limits.job.spend(rows.length);
      limits.own.spend(rows.length);
      progress.written += rows.length;
    }
    progress.line = batchEnd;
    batch = [];
    bytes = 0;
    checkpoint();
    return true;
  };
  // The service's batch body carries each entity's JSON and some framing: keep well under the limit.
  const byteBudget = limits.maxBytes * 0.9;
  const lines = createInterface({ input: fs.createReadStream(path.join(o.dir, r.file), "utf8"), crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) {
    const at = ++n;
    if (at <= progress.line) continue;
    if (o.signal?.aborted) return;
    const problems = new Problems(REFUSE_ALL);
    const row = typeRecord(readJsonObject(text, at, at, problems), problems);
    const refusal = problems.kept[0]?.message ?? (row ? o.reject?.(row) : "not an entity");
    if (!row || refusal) {
      if (!state.skipped.some((s) => s.file === r.file && s.line === at))
        state.skipped.push({ file: r.file, line: at, message: refusal ?? "not an entity" });
      if (!batch.length) batchEnd = at;
      continue;
    }
    const size = Buffer.byteLength(text) + 200;
    if (batch.length && (row.partitionKey !== batch[0].partitionKey || batch.length >= limits.maxOps || bytes + size > byteBudget))
      if (!(await flush())) return;
    batch.push(row);
    bytes += size;
    batchEnd = at;
  }
  if (!(await flush())) return;
  progress.done = true;
  checkpoint(true);
}
