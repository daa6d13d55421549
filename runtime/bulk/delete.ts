/**
 * `tdl delete` and *Delete Matching Entities…*: the entities of a partition
 * or of a filter, found first (a dry run: how many, in which partitions,
 * each with the ETag it had), then deleted in batches of one partition —
 * each delete conditioned on that ETag, so an entity changed after the dry
 * run is kept and reported, never deleted unseen. What was deleted is
 * written to a file, one JSON line per entity, as it happens.
 */
import * as fs from "node:fs";
import { stringLiteral } from "@core";
import type { AccountSession } from "../account/session";
import { batchesByPartition } from "../account/batches";
import { SERVICES } from "@core";
import { InputError, RefusedError } from "@core/errors";
import type { ThrottledPath } from "../net/throttled";
import { jobPaths } from "./pace";
import { eachPage } from "./requests";
import { formatCount } from "@core/text/words";
import { LONE_SURROGATE } from "./ranges";

export interface DeleteSelection {
  table: string;
  /** Every entity of one partition… */
  partition?: string;
  /** …or every entity a filter matches. */
  filter?: string;
}

export interface DeleteTarget {
  partitionKey: string;
  rowKey: string;
  etag: string;
}

export interface DeletePlan {
  selection: DeleteSelection;
  entities: DeleteTarget[];
  partitions: number;
}

export interface DeleteReport {
  deleted: number;
  /** Changed since the dry run (their ETag no longer matches): kept. */
  changed: DeleteTarget[];
  /** Already gone when their turn came. */
  gone: number;
  /** Not attempted: the job was cancelled. */
  notAttempted: number;
  /**
   * Cancelled while a batch was on its way: the service deleted it whole or
   * not at all, and no answer came to say which (its entities, counted
   * neither as deleted nor as not attempted).
   */
  inDoubt?: number;
}

/** The filter of a selection. */
export function selectionFilter(s: DeleteSelection): string {
  if (s.partition !== undefined) return `PartitionKey eq ${stringLiteral(s.partition)}`;
  if (s.filter?.trim()) return s.filter;
  throw new InputError("a delete needs a partition or a filter that is not empty (to delete every entity, delete the table)");
}

/** A job's request path at the default share of Azure's targets (the back-off and the adaptive pace). */
const defaultPath = (signal?: AbortSignal) => jobPaths(SERVICES["azure-table"], { signal }).path;

/** The dry run: every matching entity's keys and ETag (only the keys are read), every page through `net`. */
export async function planDelete(
  session: AccountSession,
  s: DeleteSelection,
  signal?: AbortSignal,
  onProgress?: (found: number) => void,
  net: ThrottledPath = defaultPath(signal),
): Promise<DeletePlan> {
  const entities: DeleteTarget[] = [];
  const filter = selectionFilter(s);
  await eachPage(session, s.table, net, { filter, select: ["PartitionKey", "RowKey"] }, (page) => {
    for (const e of page) entities.push({ partitionKey: e.partitionKey, rowKey: e.rowKey, etag: e.etag ?? "*" });
    onProgress?.(entities.length);
  });
  return { selection: s, entities, partitions: new Set(entities.map((e) => e.partitionKey)).size };
}

/**
 * Deletes what the plan found, a batch (one partition, at most 100) at a
 * time, each entity only with its dry-run ETag. A batch refused because one
 * entity changed is retried entity by entity, so the others still go.
 * `log` receives each deleted entity's keys as a JSON line; a line that
 * cannot be written (a full disk) stops the job before the next delete,
 * saying how many were deleted and not logged.
 */
export async function runDelete(
  session: AccountSession,
  plan: DeletePlan,
  log: string,
  signal?: AbortSignal,
  onProgress?: (done: number, total: number) => void,
  net: ThrottledPath = defaultPath(signal),
): Promise<DeleteReport> {
  const report: DeleteReport = { deleted: 0, changed: [], gone: 0, notAttempted: 0 };
  unaddressable(plan);
  const fd = fs.openSync(log, "a");
  const logged = (rows: DeleteTarget[]) => {
    report.deleted += rows.length;
    if (!rows.length) return;
    try {
      fs.writeSync(fd, rows.map((r) => JSON.stringify({ PartitionKey: r.partitionKey, RowKey: r.rowKey }) + "\n").join(""));
      fs.fsyncSync(fd);
    } catch (e) {
      throw new LogWriteError(log, rows.length, report.deleted, e);
    }
  };
  try {
    const batches = batchesByPartition(plan.entities);
    const after = (i: number) => batches.slice(i + 1).reduce((n, b) => n + b.length, 0);
    for (const [i, batch] of batches.entries()) {
      if (signal?.aborted) {
        report.notAttempted = batch.length + after(i);
        break;
      }
      let deleted = false;
      try {
        await net.send(() => session.deleteBatchIfUnchanged(plan.selection.table, batch, signal), { before: batch.length });
        deleted = true;
      } catch {
        if (signal?.aborted) {
          // Cancelled on the way: the transaction went whole or not at all, and no answer says which.
          report.inDoubt = batch.length;
          report.notAttempted = after(i);
          break;
        }
        // One changed or missing entity refuses the whole batch: each on its own, then.
        let j = 0;
        for (; j < batch.length && !signal?.aborted; j++)
          await deleteOne(session, net, plan.selection.table, batch[j], report, logged, signal);
        if (signal?.aborted) {
          // What this batch had left and every batch after it (one cut off on its way is in doubt, counted by deleteOne).
          report.notAttempted = batch.length - j + after(i);
          break;
        }
      }
      // Outside the try: a log that cannot be written stops the job, it is no refusal of the batch.
      if (deleted) logged(batch);
      onProgress?.(report.deleted + report.changed.length + report.gone, plan.entities.length);
    }
  } finally {
    fs.closeSync(fd);
  }
  return report;
}

/**
 * Refuses, before the first delete, a plan with an entity no request can
 * address (a key holding half of a character: a lone surrogate the service
 * took in a body, which no URL can carry), naming the first by its keys and
 * the position: half a delete, stopped by "URI malformed", is worse.
 */
function unaddressable(plan: DeletePlan): void {
  const bad = plan.entities.filter((e) => LONE_SURROGATE.test(e.partitionKey) || LONE_SURROGATE.test(e.rowKey));
  if (!bad.length) return;
  const e = bad[0];
  const [name, key] = LONE_SURROGATE.test(e.partitionKey) ? ["PartitionKey", e.partitionKey] : ["RowKey", e.rowKey];
  const at = key.search(LONE_SURROGATE);
  throw new InputError(
    `${formatCount(bad.length)} of the ${formatCount(plan.entities.length)} entities cannot be deleted by any request: the ${name} ${JSON.stringify(key)} holds a lone surrogate (U+${key.charCodeAt(at).toString(16).toUpperCase()}) at character ${at + 1}; nothing was deleted (narrow the selection to leave ${bad.length === 1 ? "it" : "them"} out)`,
  );
}

async function deleteOne(
  session: AccountSession,
  net: ThrottledPath,
  table: string,
  e: DeleteTarget,
  report: DeleteReport,
  logged: (rows: DeleteTarget[]) => void,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await net.send(() =>
      session.call(
        (abortSignal) => session.clients.table(table).deleteEntity(e.partitionKey, e.rowKey, { abortSignal, etag: e.etag }),
        signal,
      ),
    );
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (signal?.aborted) report.inDoubt = (report.inDoubt ?? 0) + 1;
    else if (status === 412) report.changed.push(e);
    else if (status === 404) report.gone++;
    else throw err;
    return;
  }
  logged([e]);
}

/** The delete log could not be written: the job stops before the next delete. */
export class LogWriteError extends RefusedError {
  constructor(log: string, unlogged: number, deleted: number, cause: unknown) {
    super(
      `the delete log ${log} could not be written (${(cause as Error)?.message ?? cause}): stopped before the next delete; ${formatCount(deleted)} entities were deleted, the last ${formatCount(unlogged)} of them not logged`,
    );
  }
}
