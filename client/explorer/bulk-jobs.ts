/**
 * The explorer's bulk jobs (issue 22, item 5), on the engine `tdl export`
 * and `tdl delete` use (runtime/bulk/): *Export…* of a whole table to a
 * folder — resumable, one file per key range, a manifest with checksums —
 * and *Delete Matching Entities…* / *Clear Table…*: counted first, the
 * confirmation naming the count, then deleted a partition batch at a time,
 * each entity only if unchanged since it was counted, the deleted keys
 * written to a file. Both report progress to the page and VS Code's
 * notification, stop on Cancel from either, and end with a summary that
 * says what remains.
 */
import { exportTable, planDelete, runDelete, type AccountSession } from "@runtime";
import { formatCount, plural } from "@core/text/words";
import type { BulkDeleteOutcome, BulkExportOutcome } from "@protocol/pages";
import type { ExplorerUi } from "./ui";
import type { Operations } from "./operations";

/** What the jobs need of the controller: the connection, the user's answers, a name to follow and cancel, and progress for the page. */
export interface BulkContext {
  session(): AccountSession;
  ui: ExplorerUi;
  operations: Operations;
  progress(operation: string, id: string | undefined, done: number, total?: number): void;
}

/** Exports every entity of `table` to a folder the user picks (an unfinished export there resumes). */
export async function bulkExport(c: BulkContext, table: string, id: string | undefined): Promise<BulkExportOutcome> {
  const dir = await c.ui.chooseFolder(`Export ${table} to a folder`, `${table}-export`);
  if (!dir) return { outcome: "declined" };
  const session = c.session();
  const result = await c.ui.withProgress(`Exporting ${table} to ${dir}`, (report, outer) =>
    c.operations.run(id, outer, (signal) => {
      c.progress("export", id, 0);
      return exportTable({
        session,
        table,
        dir,
        signal,
        onProgress: (p) => {
          report(p.entities);
          c.progress("export", id, p.entities);
        },
      });
    }),
  );
  const m = result.manifest;
  const entities = m.ranges.reduce((n, r) => n + r.count, 0);
  return {
    outcome: result.cancelled ? "cancelled" : "done",
    dir,
    entities,
    ranges: m.ranges.length,
    rangesDone: m.ranges.filter((r) => r.done).length,
    resumed: result.resumed,
    ...(result.cancelled ? {} : { checksum: m.checksum }),
  };
}

/** Every entity: the filter of *Clear Table…* (every string, the empty one included, is at least ''). */
const EVERY_ENTITY = "PartitionKey ge ''";

/**
 * Deletes what `filter` matches (every entity without one): the count
 * first, a confirmation that states it, then the delete. Null when the
 * user declines; nothing matched is said without asking.
 */
export async function bulkDelete(
  c: BulkContext,
  table: string,
  filter: string | undefined,
  id: string | undefined,
): Promise<BulkDeleteOutcome | null> {
  const session = c.session();
  const selection = { table, filter: filter?.trim() || EVERY_ENTITY };
  const what = filter?.trim() ? `entities of '${table}' that match ${filter.trim()}` : `entities of '${table}'`;
  const { plan, cancelled } = await c.ui.withProgress(`Counting the ${what}`, (report, outer) =>
    c.operations.run(id, outer, async (signal) => {
      c.progress("count", id, 0);
      const counted = await planDelete(session, selection, signal, (found) => {
        report(found);
        c.progress("count", id, found);
      });
      return { plan: counted, cancelled: signal.aborted };
    }),
  );
  const matched = plan.entities.length;
  const none = { deleted: 0, changed: 0, gone: 0, notAttempted: 0 };
  // A count cut short is no basis for a confirmation: nothing is deleted.
  if (cancelled) return { matched, ...none, cancelledWhileCounting: true };
  if (!matched) return { matched: 0, ...none };
  const counted = `${plural(matched, "entity", "entities")} in ${plural(plan.partitions, "partition")}`;
  const sure = filter?.trim()
    ? `Delete the ${counted} of '${table}' that match ${filter.trim()}? Each is deleted only if it has not changed since it was counted. This cannot be undone.`
    : `Clear '${table}': delete all ${counted}? Each is deleted only if it has not changed since it was counted; the table stays. This cannot be undone.`;
  if (!(await c.ui.confirm(sure))) return null;
  const log = await c.ui.jobLog(`tdl-deleted-${table}-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`);
  const report = await c.ui.withProgress(`Deleting ${formatCount(matched)} ${what}`, (progress, outer) =>
    c.operations.run(id, outer, (signal) => {
      c.progress("delete", id, 0, matched);
      return runDelete(session, plan, log, signal, (done, total) => {
        progress(done, total);
        c.progress("delete", id, done, total);
      });
    }),
  );
  return {
    matched,
    deleted: report.deleted,
    changed: report.changed.length,
    gone: report.gone,
    notAttempted: report.notAttempted,
    ...(report.inDoubt ? { inDoubt: report.inDoubt } : {}),
    log,
  };
}
