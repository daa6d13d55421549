/**
 * The explorer's import, a dry run first (issue 24, item 3): the file is
 * read once and planned (runtime/transfer/plan.ts) with the user's choices
 * for what Azure cannot store as written — nothing is written until the
 * user has seen the summary (entities, partitions, batches, types per
 * column, problems per record) and pressed Import. Then the same text is
 * planned again with the same choices and written partition batch by
 * partition batch, each whole or not at all; the report says what was and
 * was not written. One plan is kept at a time, bounded by the import limits.
 */
import { randomUUID } from "node:crypto";
import { planImport, type AccountSession, type ImportPlan } from "@runtime";
import { formatCount } from "@core/text/words";
import { LIMITS, type TransferFormat } from "@protocol/pages";
import type { ImportChoices, ImportPlanSummary, ImportReport } from "@protocol/transfer";
import { PanelError } from "./service-errors";
import type { ExplorerUi } from "./ui";
import type { Operations } from "./operations";

interface Pending {
  id: string;
  table: string;
  format: TransferFormat;
  file: string;
  text: string;
}

export class ImportPlans {
  private pending: Pending | undefined;

  constructor(
    private readonly ui: ExplorerUi,
    private readonly operations: Operations,
    private readonly progress: (id: string | undefined, done: number, total: number) => void,
  ) {}

  /** The dry run: a new file (a dialog) or the pending one again with other choices; null when no file was chosen. */
  async plan(
    table: string,
    format: TransferFormat,
    choices: ImportChoices,
    id?: string,
  ): Promise<{ plan: string; file: string; summary: ImportPlanSummary } | null> {
    if (id === undefined) {
      const file = await this.ui.openFile(format);
      if (!file) return null;
      if (file.text.length > LIMITS.importChars)
        throw new PanelError(
          `the file is larger than ${LIMITS.importChars / 1024 / 1024} MiB: split it and import the parts`,
          undefined,
          "input",
        );
      this.pending = { id: randomUUID(), table, format, file: file.path, text: file.text };
    }
    const p = this.need(id ?? this.pending!.id, table);
    return { plan: p.id, file: p.file, summary: this.planOf(p, choices).summary };
  }

  /** Writes the pending plan with `choices`: nothing when it is refused or too large, else whole batches. */
  async run(
    session: AccountSession,
    table: string,
    id: string,
    choices: ImportChoices,
    operation?: string,
  ): Promise<ImportReport & { entities: number }> {
    const p = this.need(id, table);
    const plan = this.planOf(p, choices);
    const { entities } = plan.summary;
    if (plan.summary.refused)
      throw new PanelError(
        "nothing was imported: some records are neither convertible nor converted by your choices (see the dry run)",
        undefined,
        "input",
      );
    if (entities > LIMITS.importRows)
      throw new PanelError(
        `the file holds ${formatCount(entities)} entities, more than ${formatCount(LIMITS.importRows)}: split it and import the parts (or use tdl import)`,
        undefined,
        "input",
      );
    const report = await this.ui.withProgress(`Importing ${formatCount(entities)} entities into ${table}`, (progress, outer) =>
      this.operations.run(operation, outer, (signal) => {
        this.progress(operation, 0, entities);
        return session.writeBatches(
          table,
          plan.batches,
          (done, total) => {
            progress(done, total);
            this.progress(operation, done, total);
          },
          signal,
        );
      }),
    );
    this.pending = undefined;
    return { ...report, entities };
  }

  private need(id: string, table: string): Pending {
    const p = this.pending;
    if (!p || p.id !== id)
      throw new PanelError("that import's dry run is gone (another file was chosen since): choose the file again", undefined, "refused");
    if (p.table !== table)
      throw new PanelError(`that dry run is for the table ${p.table}, not ${table}: choose the file again`, undefined, "refused");
    return p;
  }

  private planOf(p: Pending, choices: ImportChoices): ImportPlan {
    return planImport(p.text, p.format, choices);
  }
}
