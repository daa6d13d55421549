/**
 * An import's dry run, shown before anything is written (issue 24, item 3):
 * what the file would become (entities, partitions, batches), the types of
 * each column as counts, each kind of problem with its count, the user's
 * choice for it (refuse, or the one conversion it has) and its first
 * records by line. Import is offered only when nothing is refused; after
 * it, what was and was not written.
 */
import { EDM_TYPES, type EdmType } from "@protocol/entities";
import { REFUSE_ALL, type ImportChoices, type ImportPlanSummary, type ImportProblem, type ImportReport } from "@protocol/transfer";
import { formatCount, plural } from "@core/text/words";
import { clear, h } from "../dom";

/** What the review asks of the page: plan again with other choices, write, or leave. */
export interface ImportReviewActions {
  replan(choices: ImportChoices): Promise<ImportPlanSummary>;
  /** Writes with `choices`; the report, or a failure the page shows. */
  run(choices: ImportChoices): Promise<(ImportReport & { entities: number }) | undefined>;
  /** A new plan could not be made: the page shows why (the review keeps the plan it had). */
  failed(e: unknown): void;
  closed(): void;
}

type Kind = ImportProblem["kind"];

/** Each kind of problem in words, and the one conversion a user may choose for it. */
const KINDS: Record<Kind, { words: [string, string]; convert?: { value: string; label: string } }> = {
  invalid: { words: ["value that does not fit its type", "values that do not fit their type"] },
  nulls: { words: ["null value", "null values"], convert: { value: "omit", label: "Leave the property out of that entity" } },
  nested: {
    words: ["nested object or array", "nested objects or arrays"],
    convert: { value: "json", label: "Store its JSON text as a String" },
  },
  zoneless: {
    words: ["date-time without a time zone", "date-times without a time zone"],
    convert: { value: "utc", label: "Read it as UTC" },
  },
  duplicateKeys: {
    words: ["repeated PartitionKey and RowKey", "repeated PartitionKeys and RowKeys"],
    convert: { value: "last", label: "Keep the later record" },
  },
  duplicateProperties: {
    words: ["property written twice", "properties written twice"],
    convert: { value: "last", label: "Keep the later value" },
  },
};

/** Problems listed by line (the summary holds up to 1,000; a page shows the first ones). */
const LISTED = 20;

/** A column's values of another type than its own, by line (the first few), and how many there are. */
function conflictLines(c: ImportPlanSummary["columns"][number]): string {
  const count = c.conflicts ?? 0;
  if (!count) return "none";
  const lines = (c.conflictLines ?? []).map(formatCount);
  return `${formatCount(count)}: line${lines.length === 1 ? "" : "s"} ${lines.join(", ")}${count > lines.length ? " …" : ""}`;
}

/** "Int32 ×1,200" or "Int32 ×3, Double ×2". */
export function columnTypes(types: Partial<Record<EdmType, number>>): string {
  return Object.entries(types)
    .map(([t, n]) => `${t} ×${formatCount(n ?? 0)}`)
    .join(", ");
}

/** The sentence an import ends with: written, cancelled (what was not attempted) or with batches the service refused. */
export function importSentence(r: ImportReport & { entities: number }): string {
  const written = `${formatCount(r.written)} of ${plural(r.entities, "entity", "entities")} written in whole batches`;
  if (r.notAttempted) return `Import cancelled: ${written}; ${formatCount(r.notAttempted)} not attempted.`;
  const refused = r.failed.reduce((n, f) => n + f.entities, 0);
  if (r.failed.length)
    return `Imported ${written}; ${plural(refused, "entity", "entities")} of ${plural(r.failed.length, "partition batch", "partition batches")} refused by the service, none of it written.`;
  return `Imported ${plural(r.written, "entity", "entities")} in ${plural(r.batchesWritten, "batch", "batches")}.`;
}

export class ImportReview {
  readonly element = h("section", { class: "import-review", "aria-label": "Import: a dry run" });
  private choices: ImportChoices = { ...REFUSE_ALL };
  private actions: ImportReviewActions | undefined;
  private title = "";

  constructor() {
    this.element.hidden = true;
  }

  get open(): boolean {
    return !this.element.hidden;
  }

  /** Shows the dry run of `file` into `table`. */
  show(file: string, table: string, summary: ImportPlanSummary, actions: ImportReviewActions): void {
    this.actions = actions;
    this.choices = { ...REFUSE_ALL };
    this.title = `Import ${file.split(/[\\/]/).pop()} into ${table}`;
    this.render(summary);
  }

  close(): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    clear(this.element);
    this.actions?.closed();
  }

  private render(summary: ImportPlanSummary, busy = false): void {
    clear(this.element);
    this.element.hidden = false;
    const s = summary;
    const plan = `${plural(s.records, "record")} → ${plural(s.entities, "entity", "entities")} in ${plural(s.partitions, "partition")}, ${plural(s.batches, "batch", "batches")} (each written whole or not at all)`;
    const columns = h(
      "table",
      { class: "import-columns" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, "Column"),
          h("th", {}, "Would be written as"),
          h("th", {}, "Store as"),
          h("th", {}, "Values that do not fit"),
        ),
      ),
      h(
        "tbody",
        {},
        ...s.columns.map((c) =>
          h(
            "tr",
            { class: Object.keys(c.types).length > 1 || c.conflicts ? "mixed" : "", dataset: { column: c.name } },
            h("td", {}, c.name),
            h("td", { class: "written-types" }, columnTypes(c.types) || "nothing"),
            h("td", {}, this.typeChoice(c, s, busy)),
            h("td", { class: "conflicts" }, conflictLines(c)),
          ),
        ),
      ),
    );
    const kinds = (Object.keys(KINDS) as Kind[]).filter((k) => s.problemCounts[k]);
    const problems = kinds.map((k) => {
      const n = s.problemCounts[k] ?? 0;
      const { words, convert } = KINDS[k];
      const label = plural(n, ...words);
      if (!convert || k === "invalid")
        return h("div", { class: `import-problem ${k}` }, `${label}: never converted — fix them in the file`);
      const select = h(
        "select",
        { class: `choice ${k}`, "aria-label": label, disabled: busy, onchange: () => void this.choose(k, select.value, s) },
        h("option", { value: "refuse", selected: this.choices[k as keyof ImportChoices] === "refuse" }, "Refuse the import"),
        h("option", { value: convert.value, selected: this.choices[k as keyof ImportChoices] === convert.value }, convert.label),
      );
      return h("label", { class: `import-problem ${k}` }, `${label}: `, select);
    });
    const listed = s.problems
      .slice(0, LISTED)
      .map((p) => h("li", {}, `line ${formatCount(p.line)} (record ${formatCount(p.record)}): ${p.message}`));
    const total = Object.values(s.problemCounts).reduce((a, n) => a + (n ?? 0), 0);
    const mixed = s.columns.filter((c) => c.conflicts).map((c) => c.name);
    const verdict = s.refused
      ? "Nothing will be written while a problem above is refused: choose a conversion for each kind, or fix the file."
      : s.entities
        ? `Ready: ${plural(s.entities, "entity", "entities")} will be written.` +
          (mixed.length
            ? ` ${mixed.join(", ")} will hold more than one type: choose a type for ${mixed.length === 1 ? "it" : "each"} above to store one.`
            : "")
        : "The file holds no entity to write.";
    const run = h(
      "button",
      { class: "import-run", disabled: busy || s.refused || !s.entities, onclick: () => void this.run(s) },
      `Import ${plural(s.entities, "entity", "entities")}`,
    );
    this.element.append(
      h("h2", {}, this.title),
      h("p", { class: "import-plan" }, `A dry run — nothing is written yet. ${plan}.`),
      columns,
      ...(kinds.length ? [h("div", { class: "import-problems" }, ...problems)] : []),
      ...(listed.length ? [h("ul", { class: "import-lines" }, ...listed)] : []),
      ...(total > listed.length ? [h("p", { class: "import-more" }, `… and ${formatCount(total - listed.length)} more.`)] : []),
      h("p", { class: `import-verdict${s.refused ? " refused" : ""}`, role: "status" }, verdict),
      h("div", { class: "actions" }, run, h("button", { class: "secondary import-cancel", onclick: () => this.close() }, "Cancel")),
    );
  }

  /** The column's type: as inferred from every row, or one the user chooses (String keeps every value, as text). */
  private typeChoice(c: ImportPlanSummary["columns"][number], s: ImportPlanSummary, busy: boolean): HTMLElement {
    const chosen = this.choices.columns?.[c.name];
    const select = h(
      "select",
      {
        class: "column-type",
        "aria-label": `Type of ${c.name}`,
        disabled: busy,
        onchange: () => void this.chooseType(c.name, select.value as EdmType | "", s),
      },
      h("option", { value: "", selected: !chosen }, c.inferred ? `${c.inferred} (inferred from every row)` : "as the file types it"),
      ...EDM_TYPES.map((t) => h("option", { value: t, selected: chosen === t }, t)),
    );
    return select;
  }

  private async chooseType(column: string, type: EdmType | "", shown: ImportPlanSummary): Promise<void> {
    const columns = { ...(this.choices.columns ?? {}) };
    if (type) columns[column] = type;
    else delete columns[column];
    const { columns: _, ...rest } = this.choices;
    await this.replan({ ...rest, ...(Object.keys(columns).length ? { columns } : {}) }, shown);
  }

  private async choose(kind: Kind, value: string, shown: ImportPlanSummary): Promise<void> {
    await this.replan({ ...this.choices, [kind]: value } as ImportChoices, shown);
  }

  private async replan(choices: ImportChoices, shown: ImportPlanSummary): Promise<void> {
    try {
      const summary = await this.actions!.replan(choices);
      this.choices = choices;
      this.render(summary);
    } catch (e) {
      this.actions!.failed(e);
      this.render(shown);
    }
  }

  private async run(summary: ImportPlanSummary): Promise<void> {
    this.render(summary, true);
    const report = await this.actions!.run(this.choices);
    if (!report) {
      this.render(summary);
      return;
    }
    clear(this.element);
    const failed = report.failed.map((f) =>
      h("li", {}, `PartitionKey '${f.partitionKey}': ${plural(f.entities, "entity", "entities")} not written: ${f.reason}`),
    );
    this.element.append(
      h("h2", {}, this.title),
      h("p", { class: "import-report", role: "status" }, importSentence(report)),
      ...(failed.length ? [h("ul", { class: "import-failed" }, ...failed)] : []),
      h("div", { class: "actions" }, h("button", { class: "secondary import-close", onclick: () => this.close() }, "Close")),
    );
  }
}
