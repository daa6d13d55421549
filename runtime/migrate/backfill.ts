/**
 * `tdl migrate run`: the backfill from the old table into the new ones. The
 * old table is exported into the job folder first (resumable, checksummed:
 * runtime/bulk/export.ts) — after the dual writes are deployed, so every
 * change from then on reaches the new tables by the application's own
 * writes. Then the pre-flight (preflight.ts) re-keys every exported entity
 * and lists what the target cannot hold, before anything is written. Then
 * each entity's new rows are inserted only where absent (writes.ts): a row
 * there is a dual write's, newer, and wins. After each chunk the chunk's
 * old keys are read again (keys only): the new rows of an old entity deleted
 * meanwhile are deleted again, each by the ETag known before that read, so
 * a write that comes after the delete is never touched. A checkpoint after each chunk makes
 * the job resumable; a rerun redoes at most one chunk per range, which the
 * insert-if-absent makes harmless. Every request goes through the job's
 * throttle-aware path at its share of the target's targets.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SERVICES, type NewRow, type ServiceName, type TableMapping } from "@core";
import { stringLiteral } from "@core";
import type { EntityRow } from "@protocol/entities";
import type { AccountSession } from "../account/session";
import { exportTable, ExportResult } from "../bulk/export";
import { lockFolder } from "../bulk/folder";
import { checkSeal, sealed, writeAtomically, type RangeState } from "../bulk/manifest";
import { jobPaths } from "../bulk/pace";
import type { PaceState } from "../net/pace";
import type { RetryNotice, ThrottledPath } from "../net/throttled";
import { DamagedFolderError } from "../bulk/folder";
import { exportedLines, migrated, preflight, type Preflight } from "./preflight";
import { deleteIfMatch, insertAllIfAbsent } from "./writes";

/** Where a new design's table is written. */
export interface MigrationTarget {
  /** The table's name in the new design. */
  design: string;
  session: AccountSession;
  /** Its name in the account. */
  table: string;
}

export interface BackfillOptions {
  source: AccountSession;
  sourceTable: string;
  mapping: TableMapping;
  targets: readonly MigrationTarget[];
  targetService: ServiceName;
  dir: string;
  share?: number;
  rate?: number;
  /** Ranges written at once (default 4), and requests in flight per range (default 32). */
  concurrency?: number;
  inFlight?: number;
  skipInvalid?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: { phase: "export" | "preflight" | "backfill"; done: number; total?: number; pace?: PaceState }) => void;
  onRetry?: (n: RetryNotice) => void;
}

export interface BackfillReport {
  /** Old entities done, and the rows: inserted, found there already (a dual write's, kept), inserted then deleted again. */
  entities: number;
  inserted: number;
  present: number;
  removed: number;
  /** Entities skipped by the pre-flight (--skip-invalid). */
  skipped: number;
  resumed: boolean;
  cancelled: boolean;
  /** Rows (inserted or found) per second of writing, over every run of the job, and those seconds. */
  rowsPerSecond: number;
  seconds: number;
}

export interface BackfillResult {
  exported: ExportResult;
  preflight: Preflight;
  /** Undefined when nothing was written (the pre-flight failed, or the export was stopped). */
  backfill?: BackfillReport;
}

/** The job's checkpoint beside the export. */
interface RunState {
  seal?: string;
  table: string;
  targets: Record<string, string>;
  identities: Preflight["identities"];
  ranges: Record<string, { line: number; done: boolean }>;
  entities: number;
  inserted: number;
  present: number;
  removed: number;
  skipped: number;
  /** Seconds spent writing, over every run up to its last checkpoint (a killed run's time after it is lost, as its rows are redone). */
  seconds?: number;
}

/** Old entities re-keyed and written per checkpoint. */
const CHUNK = 500;
export const EXPORT_FOLDER = "export";
export const stateFile = (dir: string) => path.join(dir, "migrate.json");

export async function runBackfill(o: BackfillOptions): Promise<BackfillResult> {
  const exportDir = path.join(o.dir, EXPORT_FOLDER);
  const exported = await exportTable({
    session: o.source,
    table: o.sourceTable,
    dir: exportDir,
    share: o.share,
    rate: o.rate,
    signal: o.signal,
    onRetry: o.onRetry,
    onProgress: (p) => o.onProgress?.({ phase: "export", done: p.entities, pace: p.pace }),
  });
  if (exported.cancelled) return { exported, preflight: { failing: [], count: 0, identities: { count: 0, checksum: "0" } } };
  o.onProgress?.({ phase: "preflight", done: 0, total: exported.manifest.count });
  const checked = await preflight(o.mapping, exportDir, exported.manifest, o.targetService, o.signal);
  if ((checked.count && !o.skipInvalid) || o.signal?.aborted) return { exported, preflight: checked };
  const release = lockFolder(o.dir, `tdl migrate run of ${o.sourceTable}`);
  try {
    return { exported, preflight: checked, backfill: await backfillLocked(o, exportDir, exported, checked) };
  } finally {
    release();
  }
}

async function backfillLocked(o: BackfillOptions, exportDir: string, exported: ExportResult, checked: Preflight): Promise<BackfillReport> {
  const targets = Object.fromEntries(o.targets.map((t) => [t.design, t.table]));
  const earlier = readState(o.dir, o.sourceTable, targets);
  const state: RunState = earlier ?? {
    table: o.sourceTable,
    targets,
    identities: checked.identities,
    ranges: {},
    entities: 0,
    inserted: 0,
    present: 0,
    removed: 0,
    skipped: 0,
  };
  let mark = performance.now();
  const save = () => {
    const now = performance.now();
    state.seconds = (state.seconds ?? 0) + (now - mark) / 1000;
    mark = now;
    writeAtomically(stateFile(o.dir), sealed(state));
  };
  const profile = SERVICES[o.targetService];
  const paces = jobPaths(profile, o);
  const byDesign = new Map(o.targets.map((t) => [t.design, t]));
  for (const t of o.targets)
    await paces.path
      .send(() => t.session.createTable(t.table))
      .catch((e: { code?: string }) => {
        if (e.code !== "TableAlreadyExists") throw e;
      });
  if (!earlier) save();
  const pending = exported.manifest.ranges.filter((r) => !state.ranges[r.file]?.done);
  const worker = async () => {
    for (let r = pending.shift(); r && !o.signal?.aborted; r = pending.shift()) {
      const progress = (state.ranges[r.file] ??= { line: 0, done: false });
      let chunk: Array<{ line: number; old: EntityRow; rows: NewRow[] }> = [];
      const flush = async () => {
        const done = await writeChunk(o, chunk, byDesign, paces.path, state);
        if (!done) return false;
        state.entities += chunk.length;
        if (chunk.length) progress.line = chunk[chunk.length - 1].line;
        chunk = [];
        save();
        o.onProgress?.({ phase: "backfill", done: state.entities, total: exported.manifest.count, pace: paces.path.state() });
        return true;
      };
      let stopped = false;
      for await (const { line, row } of exportedLines(exportDir, r, progress.line)) {
        if (o.signal?.aborted) return;
        const m = row && migrated(o.mapping, row, o.targetService);
        if (!m || "why" in m) {
          // Listed by the pre-flight; written past only with --skip-invalid.
          state.skipped++;
          if (!chunk.length) progress.line = line;
          continue;
        }
        chunk.push({ line, old: row!, rows: m.rows });
        if (chunk.length >= CHUNK && !(await flush())) {
          stopped = true;
          break;
        }
      }
      if (stopped || !(await flush())) return;
      progress.done = true;
      save();
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency ?? 4, pending.length) }, worker));
  save();
  const seconds = state.seconds ?? 0;
  const rows = state.inserted + state.present;
  const cancelled = exported.manifest.ranges.some((r: RangeState) => !state.ranges[r.file]?.done);
  return {
    entities: state.entities,
    inserted: state.inserted,
    present: state.present,
    removed: state.removed,
    skipped: state.skipped,
    resumed: !!earlier,
    cancelled,
    rowsPerSecond: seconds > 0 ? rows / seconds : 0,
    seconds,
  };
}

/**
 * Inserts a chunk's rows where absent, then deletes again those whose old
 * entity is gone; false when stopped before it was done. Each row's ETag is
 * known before the old keys are read again — its insert's, or read for a
 * row that was there (a dual write's, or this job's before a crash) — so a
 * delete by it can only remove a row written before the entity's delete: an
 * entity written again afterwards has its old row back first, then new rows
 * with new ETags.
 */
async function writeChunk(
  o: BackfillOptions,
  chunk: ReadonlyArray<{ old: EntityRow; rows: NewRow[] }>,
  byDesign: ReadonlyMap<string, MigrationTarget>,
  net: ThrottledPath,
  state: RunState,
): Promise<boolean> {
  const work = chunk.flatMap((c) => c.rows.map((row) => ({ c, row, inserted: false, etag: undefined as string | undefined })));
  const lanes = o.inFlight ?? 32;
  const maxOps = SERVICES[o.targetService].batchMaxOperations;
  // The rows of one new partition go in one transaction (at most the target's operations): far fewer requests than rows.
  const groups = new Map<string, typeof work>();
  for (const w of work) {
    const k = JSON.stringify([w.row.table, w.row.partitionKey]);
    const g = groups.get(k) ?? [];
    if (g.length >= maxOps) groups.set(`${k}+${groups.size}`, g.splice(0));
    g.push(w);
    groups.set(k, g);
  }
  try {
    await inParallel([...groups.values()], lanes, async (g) => {
      const t = byDesign.get(g[0].row.table)!;
      const rows = g.map((w) => w.row);
      const answers = await net.send(() => insertAllIfAbsent(t.session, t.table, rows, o.signal), { before: rows.length });
      answers.forEach((a, i) => Object.assign(g[i], a));
    });
    await inParallel(
      work.filter((w) => !w.etag),
      lanes,
      async (w) => {
        const t = byDesign.get(w.row.table)!;
        w.etag = await net.send(() => etagOf(t, w.row));
      },
    );
    const gone = await vanished(
      o,
      chunk.map((c) => c.old),
      net,
    );
    let removed = 0;
    await inParallel(
      work.filter((w) => w.etag && gone.has(w.c.old)),
      lanes,
      async (w) => {
        const t = byDesign.get(w.row.table)!;
        if (await net.send(() => deleteIfMatch(t.session, t.table, w.row, w.etag!, o.signal))) removed++;
      },
    );
    state.inserted += work.filter((w) => w.inserted).length;
    state.present += work.filter((w) => !w.inserted).length;
    state.removed += removed;
    return true;
  } catch (e) {
    if (o.signal?.aborted) return false;
    throw e;
  }
}

/** The ETag of the row with these keys, or undefined when there is none. */
async function etagOf(t: MigrationTarget, key: { partitionKey: string; rowKey: string }): Promise<string | undefined> {
  try {
    return (await t.session.getEntity(t.table, key.partitionKey, key.rowKey)).etag;
  } catch (e) {
    if ((e as { status?: number }).status === 404) return undefined;
    throw e;
  }
}

/** The old entities of a chunk the old table no longer holds: its keys read again, one key-only query per old partition. */
async function vanished(o: BackfillOptions, olds: readonly EntityRow[], net: ThrottledPath): Promise<Set<EntityRow>> {
  const byPartition = new Map<string, EntityRow[]>();
  for (const e of olds) byPartition.set(e.partitionKey, [...(byPartition.get(e.partitionKey) ?? []), e]);
  const gone = new Set<EntityRow>();
  for (const [pk, es] of byPartition) {
    const rks = es.map((e) => e.rowKey).sort();
    const there = new Set<string>();
    const filter = `PartitionKey eq ${stringLiteral(pk)} and RowKey ge ${stringLiteral(rks[0])} and RowKey le ${stringLiteral(rks[rks.length - 1])}`;
    // Keys only, and a handful of them: a page is paced by what it returns, not by a page's worth (eachPage's 1,000).
    let token: string | undefined;
    do {
      const page = await net.send(
        () => o.source.page(o.sourceTable, { filter, select: ["PartitionKey", "RowKey"], continuationToken: token, signal: o.signal }),
        { after: (p) => Math.max(1, p.entities.length) },
      );
      for (const e of page.entities) there.add(e.rowKey);
      token = page.continuationToken;
    } while (token && !o.signal?.aborted);
    for (const e of es) if (!there.has(e.rowKey)) gone.add(e);
  }
  return gone;
}

async function inParallel<T>(items: readonly T[], limit: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await each(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

const RESTART = "remove it to run the backfill from the start (insert-if-absent makes a rerun harmless)";

function readState(dir: string, table: string, targets: Record<string, string>): RunState | undefined {
  const file = stateFile(dir);
  if (!fs.existsSync(file)) return undefined;
  let state: RunState;
  try {
    state = JSON.parse(fs.readFileSync(file, "utf8")) as RunState;
  } catch (e) {
    throw new DamagedFolderError(file, `is not a migration's checkpoint (${(e as Error).message})`, RESTART);
  }
  if (state?.table !== table || typeof state.ranges !== "object" || !state.ranges)
    throw new DamagedFolderError(file, `is not the checkpoint of a migration of ${table}`, RESTART);
  checkSeal(file, state);
  delete state.seal;
  if (JSON.stringify(state.targets) !== JSON.stringify(targets))
    throw new DamagedFolderError(file, `began writing into ${JSON.stringify(state.targets)}, not ${JSON.stringify(targets)}`, RESTART);
  return state;
}

/** The checkpoint of a backfill in `dir`, for `verify` (its identities' checksum); undefined when there is none. */
export function backfillState(dir: string): Pick<RunState, "table" | "targets" | "identities"> | undefined {
  const file = stateFile(dir);
  if (!fs.existsSync(file)) return undefined;
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as RunState;
  checkSeal(file, state);
  return state;
}
