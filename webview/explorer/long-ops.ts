/**
 * The explorer's long operations — delete the selected entities, import a
 * file, export this result or the whole table, and the bulk jobs (export a
 * table to a folder, delete what a filter matches, clear a table) — each
 * named so that its progress shows in the page (from the host's `progress`
 * events) with a Cancel button that stops it on the host, and each ending
 * in a sentence that says what was done and what remains.
 */
import type { EntityVersion, ExportScope, ProgressEvent, TransferFormat } from "@protocol/pages";
import type { ImportChoices } from "@protocol/transfer";
import type { ViewClient } from "../rpc";
import type { StatusArea } from "./status";
import { agree, formatCount, plural } from "@core/text/words";

const LABELS: Record<string, string> = {
  count: "Counting the entities to delete",
  delete: "Deleting",
  import: "Importing",
  export: "Exporting: entities read",
};

let counter = 0;

export class LongOperations {
  private running: string | undefined;

  constructor(
    private readonly host: ViewClient<"explorer">,
    private readonly status: StatusArea,
    private readonly onBusy: (busy: boolean) => void,
  ) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** A progress event from the host: shown when it belongs to the running operation. */
  progress(e: ProgressEvent): void {
    if (!this.running || e.id !== this.running) return;
    const id = this.running;
    this.status.showProgress(
      LABELS[e.operation] ?? e.operation,
      e.done,
      e.total,
      () => void this.host.request("operation.cancel", { operation: id }),
    );
  }

  /** Deletes entities (each only in the version read); says what happened. Returns the outcome, or null when declined. */
  async delete(table: string, entities: EntityVersion[]) {
    return this.run((operation) => this.host.request("entities.delete", { table, entities, operation }));
  }

  /** Writes an import's dry run with `choices`: the report (what was and was not written). */
  async importPlanned(table: string, plan: string, choices: ImportChoices) {
    return this.run((operation) => this.host.request("import.run", { table, plan, choices, operation }));
  }

  /** Exports the whole table to a folder (resumable); the sentence to show, or undefined when no folder was chosen. */
  async exportToFolder(table: string): Promise<string | undefined> {
    const r = await this.run((operation) => this.host.request("bulk.export", { table, operation }));
    if (r.outcome === "declined") return undefined;
    const ranges = `${formatCount(r.rangesDone)} of ${plural(r.ranges, "key range")}`;
    if (r.outcome === "cancelled")
      return `Export cancelled: ${plural(r.entities, "entity", "entities")} of ${table} written to ${r.dir} (${ranges} complete). Export to the same folder again to resume.`;
    return `Exported ${plural(r.entities, "entity", "entities")} of ${table} to ${r.dir}${r.resumed ? " (resumed)" : ""}: ${plural(r.ranges, "key range")}, checksum ${r.checksum} in manifest.json.`;
  }

  /** Deletes what `filter` matches (every entity without one); the sentence to show, or undefined when declined. */
  async deleteMatching(table: string, filter: string | undefined): Promise<string | undefined> {
    const r = await this.run((operation) => this.host.request("bulk.delete", { table, ...(filter ? { filter } : {}), operation }));
    if (!r) return undefined;
    if (r.cancelledWhileCounting)
      return `Cancelled while counting (${plural(r.matched, "entity", "entities")} found so far): nothing was deleted.`;
    if (!r.matched) return filter ? "No entity matches the filter: nothing to delete." : `${table} is already empty.`;
    const parts = [`Deleted ${formatCount(r.deleted)} of ${plural(r.matched, "entity", "entities")} counted`];
    if (r.changed) parts.push(`kept ${formatCount(r.changed)} changed since the count`);
    if (r.gone) parts.push(`${formatCount(r.gone)} already gone`);
    const remain = r.notAttempted + r.changed;
    // What remains is what a rerun would find: the entities not attempted and the ones kept because they changed.
    const left = `${plural(remain, "entity", "entities")} of those counted ${agree(remain, "remains", "remain")} in ${table}`;
    const doubt = r.inDoubt
      ? ` The last batch (${plural(r.inDoubt, "entity", "entities")}) was on its way when you cancelled: deleted whole or not at all — read the table to see which.`
      : "";
    const end = r.notAttempted || r.inDoubt ? `Cancelled: ${left}.${doubt}` : remain ? `${left[0].toUpperCase()}${left.slice(1)}.` : "";
    return `${parts.join("; ")}.${end ? ` ${end}` : ""}${r.log && r.deleted ? ` Their keys are in ${r.log}.` : ""}`;
  }

  /** Exports this result (the filter's entities) or the whole table; returns the sentence to show. */
  async export(
    table: string,
    format: TransferFormat,
    scope: ExportScope,
    query: { filter?: string; select?: string[] },
  ): Promise<string | undefined> {
    const r = await this.run((operation) =>
      this.host.request("data.export", { table, format, scope, ...(scope === "result" ? query : {}), operation }),
    );
    const what = scope === "result" ? "of this result" : "of the whole table";
    if (r.outcome === "declined") return undefined;
    if (r.outcome === "cancelled")
      return `Export cancelled after reading ${plural(r.read, "entity", "entities")} ${what}: nothing was written.`;
    return `Exported ${plural(r.exported, "entity", "entities")} ${what} to ${r.file}.`;
  }

  private async run<T>(work: (operation: string) => Promise<T>): Promise<T> {
    if (this.running) throw new Error("another operation is running: wait for it, or cancel it");
    const operation = `op-${(++counter).toString(36)}-${Date.now().toString(36)}`;
    this.running = operation;
    this.onBusy(true);
    try {
      return await work(operation);
    } finally {
      this.running = undefined;
      this.status.endProgress();
      this.onBusy(false);
    }
  }
}
