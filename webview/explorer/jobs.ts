/**
 * The explorer's flows that span several requests: an import (its dry run
 * shown in ImportReview, planned again as the user changes a choice,
 * written only on Import) and a delete of what a filter matches or of a
 * whole table (counted, confirmed on the host with the count, deleted with
 * progress and Cancel). Each ends with the open table read again — the grid
 * never shows entities that are gone, nor misses ones that came — and a
 * sentence on the cost line.
 */
import type { TransferFormat } from "@protocol/pages";
import type { ImportPlanSummary } from "@protocol/transfer";
import { REFUSE_ALL } from "@protocol/transfer";
import type { ViewClient } from "../rpc";
import { problemOf } from "../problem";
import type { LongOperations } from "./long-ops";
import type { StatusArea } from "./status";
import { ImportReview, importSentence } from "./import-review";

/** What the flows need of the page. */
export interface JobsContext {
  host: ViewClient<"explorer">;
  ops: LongOperations;
  status: StatusArea;
  review: ImportReview;
  /** The table open now (the user may open another while a job runs). */
  openTable(): string | undefined;
  /** Why the filter in the editor does not parse, if it does not. */
  filterError(): string | null;
  /** Runs the open table's query again. */
  reread(): Promise<void>;
  /** The columns an import wrote into the open table (the filter editor completes them, whatever the filter reads back). */
  learned(columns: ImportPlanSummary["columns"]): void;
  updateButtons(): void;
}

export class ExplorerJobs {
  constructor(private readonly c: JobsContext) {}

  /** An import of a file into `table`: its dry run first; nothing is written before the user presses Import. */
  async importFile(table: string, format: TransferFormat): Promise<void> {
    const { host, ops, status, review } = this.c;
    const first = await host.request("import.plan", { table, format, choices: REFUSE_ALL });
    if (!first) return;
    review.show(first.file, table, first.summary, {
      replan: async (choices) => {
        const again = await host.request("import.plan", { table, format, choices, plan: first.plan });
        if (!again) throw new Error("the dry run is gone: choose the file again");
        return again.summary;
      },
      run: async (choices) => {
        try {
          const report = await ops.importPlanned(table, first.plan, choices);
          if (this.c.openTable() === table && report.written) this.c.learned(first.summary.columns);
          if (this.c.openTable() === table) await this.c.reread();
          status.setCost(`${importSentence(report)} ${this.c.openTable() === table ? status.costText : ""}`.trim());
          return report;
        } catch (e) {
          status.showError(problemOf(e));
          return undefined;
        }
      },
      failed: (e) => status.showError(problemOf(e)),
      closed: () => this.c.updateButtons(),
    });
    this.c.updateButtons();
  }

  /** Deletes what `filter` matches in `table` (every entity without one); the open table is read again whatever happened. */
  async deleteMatching(table: string, filter: string | undefined): Promise<void> {
    const error = filter !== undefined ? this.c.filterError() : null;
    if (error) throw new Error(`the filter does not parse (${error}): fix it before deleting what it matches`);
    let said: string | undefined;
    try {
      said = await this.c.ops.deleteMatching(table, filter || undefined);
    } finally {
      if (this.c.openTable() === table) await this.c.reread();
    }
    const { status } = this.c;
    if (said) status.setCost(`${said} ${this.c.openTable() === table ? status.costText : ""}`.trim());
  }
}
