/**
 * `tdl copy`: a table into another table, account or service profile, by
 * way of a bulk export (so a copy resumes like one). Before anything is
 * written, every exported entity is checked against the target profile's
 * limits — on Cosmos DB for Table a RowKey of at most 255 bytes, items of at
 * most 2 MB — and the entities that would fail are listed with their file
 * and line. Nothing is written while any would fail, unless the caller
 * chose to skip them; results that Cosmos DB does not sort are no problem,
 * since the import batches by partition as it goes. A copy run again after
 * it finished reads the source again (copy-refresh.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { entityLimitProblems, SERVICES, ServiceName } from "@core";
import { REFUSE_ALL } from "@protocol/transfer";
import type { AccountSession } from "../account/session";
import { readJsonObject } from "../transfer/json";
import { Problems } from "../transfer/records";
import { typeRecord } from "../transfer/typing";
import { exportTable, ExportResult } from "./export";
import { importTable, ImportResult, SkippedLine } from "./import";
import type { PaceState } from "../net/pace";
import type { IfExists } from "./occupied";
import type { RetryNotice } from "../net/throttled";
import { jobPaths } from "./pace";
import { clearExport, exportKeys, finishedCopy, finishRefresh, PREVIOUS, previousCopy, PreviousCopy, setAside } from "./copy-refresh";
import { DamagedFolderError } from "./folder";
import { loadManifest } from "./manifest";

export interface CopyOptions {
  source: AccountSession;
  sourceTable: string;
  target: AccountSession;
  targetTable: string;
  targetService: ServiceName;
  /** Where the export goes (and the job's checkpoints). */
  dir: string;
  /** Write the entities that pass and report the others, instead of writing nothing. */
  skipInvalid?: boolean;
  /** The target table's keys that exist already (occupied.ts); default fail. */
  ifExists?: IfExists;
  signal?: AbortSignal;
  onProgress?: (p: { phase: "export" | "preflight" | "import"; done: number; total?: number; pace?: PaceState }) => void;
  onRetry?: (n: RetryNotice) => void;
}

export interface CopyResult {
  exported: ExportResult;
  /** Entities the target would refuse, with where they are in the export (the first 1,000) and how many in all. */
  preflight: { failing: SkippedLine[]; count: number };
  /** Undefined when nothing was written (the pre-flight failed, or the export was cancelled). */
  imported?: ImportResult;
  /**
   * The folder held a finished copy: the source was read again (copy-refresh.ts).
   * `from`: when the last copy's export had read it; `removed`: entities deleted
   * from the target because the source no longer holds them (undefined until that step ran).
   */
  refreshed?: { from: string; removed?: number };
}

const MAX_LISTED = 1000;

export async function copyTable(o: CopyOptions): Promise<CopyResult> {
  // A copy that finished is run again to bring the target up to date: the source is read again, never the old export reused.
  const aside = previousCopy(o.dir);
  let previous: PreviousCopy | undefined = aside?.done ? undefined : aside;
  const earlier = loadManifest(o.dir);
  if (!aside && earlier?.refreshOf !== undefined)
    throw new DamagedFolderError(
      path.join(o.dir, PREVIOUS),
      `is missing: the export in ${o.dir} refreshes the copy read at ${earlier.refreshOf}, and only that file says which entities the source no longer holds`,
      "copy into a new folder (or delete the target table and copy again)",
    );
  if (previous) {
    // Stopped between writing the keys aside and removing the old export: remove it now.
    if (earlier?.started === previous.started) clearExport(o.dir, o.targetTable, earlier);
  } else {
    const finished = finishedCopy(o.dir, o.targetTable);
    if (finished) previous = await setAside(o.dir, o.targetTable, finished);
  }
  const refreshed = previous && { from: previous.started };
  const exported = await exportTable({
    refreshOf: previous?.started,
    session: o.source,
    table: o.sourceTable,
    dir: o.dir,
    signal: o.signal,
    onRetry: o.onRetry,
    onProgress: (p) => o.onProgress?.({ phase: "export", done: p.entities, pace: p.pace }),
  });
  if (exported.cancelled) return { exported, preflight: { failing: [], count: 0 }, refreshed };
  const preflight = await checkAgainst(o.dir, exported, (row) => refusalOf(row, o.targetService), o);
  if (preflight.count && !o.skipInvalid) return { exported, preflight, refreshed };
  // An export read anew (its folder had none, or lost it): a checkpoint of an import there belongs to an export that is gone.
  if (!exported.resumed) fs.rmSync(path.join(o.dir, `import.${o.targetTable}.json`), { force: true });
  const imported = await importTable({
    session: o.target,
    table: o.targetTable,
    dir: o.dir,
    service: o.targetService,
    signal: o.signal,
    reject: (row) => refusalOf(row, o.targetService),
    // A refresh writes over the keys its last copy wrote: `fail` would refuse the copy's own entities.
    ifExists: previous && (o.ifExists ?? "fail") === "fail" ? "replace" : o.ifExists,
    onRetry: o.onRetry,
    onProgress: (p) => o.onProgress?.({ phase: "import", done: p.written, total: p.total, pace: p.pace }),
  });
  if (previous && !imported.cancelled) {
    const net = jobPaths(SERVICES[o.targetService], { signal: o.signal, onRetry: o.onRetry }).path;
    const removed = o.signal?.aborted
      ? 0
      : await finishRefresh(o.dir, previous, await exportKeys(o.dir, exported.manifest), o.target, o.targetTable, net);
    // Stopped before every key was checked: the list aside stays, and a rerun finishes the refresh.
    if (o.signal?.aborted) return { exported, preflight, imported: { ...imported, cancelled: true }, refreshed };
    return { exported, preflight, imported, refreshed: { from: previous.started, removed } };
  }
  return { exported, preflight, imported, refreshed };
}

function refusalOf(row: Parameters<typeof entityLimitProblems>[0], service: ServiceName): string | undefined {
  const problems = entityLimitProblems(row, SERVICES[service]);
  return problems.length ? problems.map((p) => p.message).join("; ") : undefined;
}

/** Reads every exported entity and lists those `refusal` names. */
async function checkAgainst(
  dir: string,
  exported: ExportResult,
  refusal: (row: Parameters<typeof entityLimitProblems>[0]) => string | undefined,
  o: CopyOptions,
): Promise<CopyResult["preflight"]> {
  const failing: SkippedLine[] = [];
  let count = 0;
  let done = 0;
  for (const r of exported.manifest.ranges) {
    const lines = createInterface({ input: fs.createReadStream(path.join(dir, r.file), "utf8"), crlfDelay: Infinity });
    let at = 0;
    for await (const text of lines) {
      at++;
      if (o.signal?.aborted) return { failing, count };
      const problems = new Problems(REFUSE_ALL);
      const row = typeRecord(readJsonObject(text, at, at, problems), problems);
      const why = row && refusal(row);
      if (why) {
        count++;
        if (failing.length < MAX_LISTED) failing.push({ file: r.file, line: at, message: `${row.partitionKey} / ${row.rowKey}: ${why}` });
      }
      if (++done % 10_000 === 0) o.onProgress?.({ phase: "preflight", done, total: exported.manifest.count });
    }
  }
  return { failing, count };
}
