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
import { InputError, RefusedError } from "@core/errors";
import type { EntityRow } from "@protocol/entities";
import { REFUSE_ALL } from "@protocol/transfer";
import type { AccountSession } from "../account/session";
import { readJsonObject } from "../transfer/json";
import { Problems } from "../transfer/records";
import { typeRecord } from "../transfer/typing";
import { checkSeal, loadManifest, Manifest, RangeState, sealed, writeAtomically } from "./manifest";
import { jobPaths } from "./pace";
import { checkFinished, DamagedFolderError, lockFolder } from "./folder";
import { existingKeys, IfExists, keyOf, occupiedSentence } from "./occupied";
import { LONE_SURROGATE } from "./ranges";
import type { Pace, PaceState } from "../net/pace";
import type { RetryNotice, ThrottledPath } from "../net/throttled";

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
  onProgress?: (p: { written: number; total: number; pace: PaceState }) => void;
  onRetry?: (n: RetryNotice) => void;
  /** Says why an entity must not be written (a copy's pre-flight against the target's limits): it is skipped like a bad line. */
  reject?: (row: EntityRow) => string | undefined;
  /** What to do with the export's keys the table holds already (occupied.ts); default fail. */
  ifExists?: IfExists;
  /** Count the keys there and say what would happen; write nothing. */
  dryRun?: boolean;
  /** An entity the service refuses (400, 409, 413): skipped and named, or the job stops naming it (default). */
  onError?: "skip" | "stop";
}

/** A line that was not imported, and why. */
export interface SkippedLine {
  file: string;
  line: number;
  message: string;
}

/** Per range: the lines done (written or skipped), the entities written. */
interface ImportState {
  seal?: string;
  table: string;
  /** The export it imports (its start and checksum): a checkpoint is never applied to another export's files. */
  export?: string;
  /** The choice the import began with: a resume keeps it. */
  ifExists?: IfExists;
  ranges: Record<string, { line: number; written: number; done: boolean }>;
  skipped: SkippedLine[];
}

export interface ImportResult {
  /** The export's keys the table held before the import (counted unless --if-exists replace, and by a dry run). */
  existing?: number;
  /** Nothing was written: a dry run. */
  dryRun?: boolean;
  written: number;
  skipped: SkippedLine[];
  resumed: boolean;
  cancelled: boolean;
}

/** The longest an import writes between checkpoints (ms). */
const CHECKPOINT_MS = 1000;
const stateFile = (dir: string, table: string) => path.join(dir, `import.${table}.json`);

export async function importTable(o: ImportOptions): Promise<ImportResult> {
  const release = lockFolder(o.dir, `tdl import into ${o.table}`);
  try {
    return await importLocked(o);
  } finally {
    release();
  }
}

async function importLocked(o: ImportOptions): Promise<ImportResult> {
  const manifest = finishedManifest(o.dir);
  // Every range file is read and checked against the manifest before the first write: a damaged folder writes nothing.
  await checkFinished(o.dir, manifest);
  const profile = SERVICES[o.service ?? "azure-table"];
  const paces = jobPaths(profile, o);
  const file = stateFile(o.dir, o.table);
  const earlier = readState(file, o.table);
  const exportId = `${manifest.started} ${manifest.checksum}`;
  if (earlier?.export !== undefined && earlier.export !== exportId)
    throw new DamagedFolderError(
      file,
      `is the checkpoint of an import of another export than the one ${path.join(o.dir, "manifest.json")} describes (begun ${manifest.started})`,
      RESTART,
    );
  const mode = o.ifExists ?? earlier?.ifExists ?? "fail";
  if (earlier?.ifExists && o.ifExists && o.ifExists !== earlier.ifExists)
    throw new InputError(
      `the import into ${o.table} from ${o.dir} began with --if-exists ${earlier.ifExists}: resume it with the same choice`,
    );
  // The keys there are counted before the first write (a resume of `fail` counted them at its start; its own writes are no collision).
  let there: Set<string> | undefined;
  /** Stopped before the first write (while counting the keys there, or creating the table): nothing written, a rerun starts over. */
  const stopped = (): ImportResult => ({ written: 0, skipped: [], resumed: !!earlier, cancelled: true });
  if (o.dryRun || (mode !== "replace" && !(earlier && mode === "fail")))
    try {
      there = await existingKeys(o.session, o.table, o.dir, manifest, paces.path);
    } catch (e) {
      if (o.signal?.aborted) return stopped();
      throw e;
    }
  if (o.dryRun) return { existing: there!.size, dryRun: true, written: 0, skipped: [], resumed: !!earlier, cancelled: false };
  if (mode === "fail" && there?.size) throw new RefusedError(occupiedSentence(there.size, manifest.count, o.table, mode));
  const keep = mode === "skip" ? there : undefined;
  await paces.path
    .send(() => o.session.createTable(o.table))
    .catch((e: { code?: string }) => {
      if (e.code !== "TableAlreadyExists" && !o.signal?.aborted) throw e;
    });
  if (o.signal?.aborted) return stopped();
  const state: ImportState = earlier ?? { table: o.table, export: exportId, ifExists: mode, ranges: {}, skipped: [] };
  const save = () => writeAtomically(file, sealed(state));
  // Saved before the first write: a rerun after a crash knows the keys it finds are its own.
  if (!earlier) save();
  // A checkpoint at most every CHECKPOINT_MS: upserts are idempotent, so a crash only means writing those batches again.
  let saved = performance.now();
  const checkpoint = (final = false) => {
    if (!final && performance.now() - saved < CHECKPOINT_MS) return;
    save();
    saved = performance.now();
  };
  const written = () => Object.values(state.ranges).reduce((n, r) => n + r.written, 0);
  const pending = manifest.ranges.filter((r) => !state.ranges[r.file]?.done);
  const worker = async () => {
    for (let r = pending.shift(); r && !o.signal?.aborted; r = pending.shift()) {
      try {
        await writeRange(
          o,
          r,
          state,
          {
            net: paces.path,
            own: paces.worker(),
            maxOps: profile.batchMaxOperations,
            maxBytes: profile.batchMaxBytes,
            keep,
            merge: mode === "merge",
          },
          (final) => {
            checkpoint(final);
            o.onProgress?.({ written: written(), total: manifest.count, pace: paces.path.state() });
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
  return { existing: there?.size, written: written(), skipped: state.skipped, resumed: !!earlier, cancelled };
}

/** Why a row's keys cannot be sent (half of an astral character: no URL can carry it), with the position; undefined when they can. */
function loneSurrogate(row: EntityRow): string | undefined {
  for (const [name, key] of [
    ["PartitionKey", row.partitionKey],
    ["RowKey", row.rowKey],
  ] as const) {
    const at = key.search(LONE_SURROGATE);
    if (at >= 0)
      return `${name} holds a lone surrogate (U+${key.charCodeAt(at).toString(16).toUpperCase()}) at character ${at + 1}: no request can address it`;
  }
  return undefined;
}

const RESTART = "remove it to import from the start (with --if-exists replace: the keys written so far are the import's own)";

/** The checkpoint of an earlier import into `table`, or undefined; one that is not one is refused by name (never trusted, never an internal failure). */
function readState(file: string, table: string): ImportState | undefined {
  if (!fs.existsSync(file)) return undefined;
  let state: ImportState;
  try {
    state = JSON.parse(fs.readFileSync(file, "utf8")) as ImportState;
  } catch (e) {
    throw new DamagedFolderError(file, `is not an import's checkpoint (${(e as Error).message})`, RESTART);
  }
  if (state?.table !== table || typeof state.ranges !== "object" || !state.ranges || !Array.isArray(state.skipped))
    throw new DamagedFolderError(file, "is not the checkpoint of an import into this table", RESTART);
  checkSeal(file, state);
  delete state.seal;
  return state;
}

/** A refusal of what an entity holds (400 bad value, 409 duplicate key in a batch, 413 too large), not of the job. */
function refusedEntity(e: unknown): boolean {
  const status = (e as { status?: number; statusCode?: number }).status ?? (e as { statusCode?: number }).statusCode;
  return status === 400 || status === 409 || status === 413;
}

/** The manifest of a complete export, or an input error that says what is wrong with the folder. */
export function finishedManifest(dir: string): Manifest {
  const manifest = loadManifest(dir);
  if (!manifest) throw new InputError(`${dir} holds no bulk export (no manifest.json)`);
  if (!manifest.finished) throw new InputError(`the export in ${dir} is not complete: run the export again to finish it`);
  return manifest;
}

interface Limits {
  /** Keys not to write (--if-exists skip: the table holds them). */
  keep?: Set<string>;
  merge: boolean;
  net: ThrottledPath;
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
  /** The line of each entity of the batch, to name one the service refuses. */
  let lineOf: number[] = [];
  let refusedAny = false;
  /**
   * One entity the service refuses refuses the batch: each alone, then, in a
   * request of its own (not a batch of one: the emulator's `$batch` cannot
   * carry every key a lone request can), to name it and write the others;
   * -1 when cancelled.
   */
  const oneByOne = async (rows: EntityRow[]): Promise<number> => {
    let ok = 0;
    for (const [i, row] of rows.entries()) {
      try {
        await limits.net.send(() => o.session.upsertEntity(o.table, row, limits.merge, o.signal), { before: 1, own: limits.own });
        ok++;
      } catch (one) {
        if (o.signal?.aborted) return -1;
        if (!refusedEntity(one)) throw one;
        const why = `the service refused ${row.partitionKey} / ${row.rowKey}: ${(one as Error).message}`;
        if (o.onError !== "skip")
          throw new RefusedError(`${path.join(o.dir, r.file)}:${lineOf[i]}: ${why} (--on-error skip writes the others)`);
        refusedAny = true;
        if (!state.skipped.some((s) => s.file === r.file && s.line === lineOf[i]))
          state.skipped.push({ file: r.file, line: lineOf[i], message: why });
      }
    }
    return ok;
  };
  const send = (rows: EntityRow[]) =>
    limits.net.send(() => o.session.writeBatches(o.table, [rows], undefined, o.signal, true, limits.merge), {
      before: rows.length,
      own: limits.own,
    });
  let bytes = 0;
  let batchEnd = progress.line;
  const flush = async () => {
    if (batch.length) {
      const rows = batch;
      let wrote: number;
      try {
        wrote = (await send(rows)).written;
      } catch (e) {
        if (o.signal?.aborted) return false;
        if (!refusedEntity(e)) throw e;
        wrote = await oneByOne(rows);
        if (wrote < 0) return false;
      }
      // Cancelled before it was sent: not written, so the checkpoint stays before it.
      if (wrote < rows.length && !refusedAny) return false;
      progress.written += wrote;
    }
    refusedAny = false;
    progress.line = batchEnd;
    batch = [];
    lineOf = [];
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
    const refusal = problems.kept[0]?.message ?? (row ? (loneSurrogate(row) ?? o.reject?.(row)) : "not an entity");
    if (!row || refusal) {
      if (!state.skipped.some((s) => s.file === r.file && s.line === at))
        state.skipped.push({ file: r.file, line: at, message: refusal ?? "not an entity" });
      if (!batch.length) batchEnd = at;
      continue;
    }
    if (limits.keep?.has(keyOf(row.partitionKey, row.rowKey))) {
      if (!batch.length) batchEnd = at;
      continue;
    }
    const size = Buffer.byteLength(text) + 200;
    if (batch.length && (row.partitionKey !== batch[0].partitionKey || batch.length >= limits.maxOps || bytes + size > byteBudget))
      if (!(await flush())) return;
    batch.push(row);
    lineOf.push(at);
    bytes += size;
    batchEnd = at;
  }
  if (!(await flush())) return;
  progress.done = true;
  checkpoint(true);
}
