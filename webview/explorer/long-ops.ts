/**
 * The explorer's long operations — delete the selected entities, import a
 * file, export this result or the whole table — each named so that its
 * progress shows in the page (from the host's `progress` events) with a
 * Cancel button that stops it on the host.
 */
import type { EntityVersion, ExportScope, ProgressEvent, TransferFormat } from "@protocol/pages";
import type { ViewClient } from "../rpc";
import type { StatusArea } from "./status";
import { plural } from "@core/text/words";

const LABELS: Record<string, string> = { delete: "Deleting", import: "Importing", export: "Exporting: entities read" };

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

  /** Imports a file; returns the sentence to show, or undefined when no file was chosen. */
  async import(table: string, format: TransferFormat): Promise<string | undefined> {
    const r = await this.run((operation) => this.host.request("data.import", { table, format, operation }));
    if (!r) return undefined;
    return r.imported < r.total
      ? `Import cancelled: ${r.imported.toLocaleString("en-US")} of ${plural(r.total, "entity", "entities")} imported.`
      : `Imported ${plural(r.imported, "entity", "entities")}.`;
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
