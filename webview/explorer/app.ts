/**
 * The explorer: connections and tables on the left; a filter editor with
 * its live class, a grid of entities paged by continuation tokens, what each
 * query cost, and the entity detail on the right. State survives a reload.
 *
 * What the grid shows is always what the service answered for the open
 * table: a failed query, a filter that does not parse, a deleted table or
 * a lost connection empties it and says why, never leaving earlier rows
 * beside an error.
 */
import "./explorer.css";
import { ConnectionsEvent, EntityVersion, LIMITS, StateOf, TransferFormat } from "@protocol/pages";
import { EntityRow, QueryResult } from "@protocol/entities";
import type { Classification } from "@core";
import type { ViewClient } from "../rpc";
import { h } from "../dom";
import { EntityGrid, EmptyState, key } from "./grid";
import { EntityDetail } from "./detail";
import { badge, FilterEditor, FilterState } from "./filter-editor";
import { Sidebar, TablesView } from "./sidebar";
import { Toolbar } from "./toolbar";
import { StatusArea } from "./status";
import { problemOf, sentence } from "../problem";
import { LongOperations } from "./long-ops";
import { placeRow } from "./order";
import { costLine, Edits } from "./cost";
import { ImportReview } from "./import-review";
import { ExplorerJobs } from "./jobs";
import { KnownColumns } from "./known-columns";

const OPEN_A_TABLE: EmptyState = { message: "Open a table: pick one under Tables, or create one." };

export class ExplorerApp {
  private active: string | undefined;
  private tables: TablesView = { kind: "disconnected" };
  private table: string | undefined;
  private continuation: string | undefined;
  private lastQuery: { cost: QueryResult["cost"]; classification: Classification | null; filter: string; select: string[] } | undefined;
  private edits: Edits = { inserted: 0, deleted: 0 };
  /** What the filter editor completes: every property seen in the open table, read or written. */
  private readonly columns = new KnownColumns();
  private querySeq = 0;
  private readonly status = new StatusArea();
  private readonly sidebar: Sidebar;
  private readonly badgeEl = h("span", { class: "badge", "aria-live": "polite" });
  private readonly titleEl = h("h1", { class: "title" }, "No table open");
  private readonly selectInput = h("input", { class: "select", placeholder: "$select: Name, Age", "aria-label": "Properties to select" });
  private readonly limitInput = h("input", {
    class: "limit",
    type: "number",
    min: "1",
    max: String(LIMITS.queryRows),
    value: "1000",
    "aria-label": "Row limit",
  });
  private readonly grid: EntityGrid;
  private readonly detail: EntityDetail;
  private readonly filter: FilterEditor;
  private readonly ops: LongOperations;
  private readonly toolbar: Toolbar;
  private readonly review = new ImportReview();
  private readonly jobs: ExplorerJobs;

  constructor(
    private readonly host: ViewClient<"explorer">,
    root: HTMLElement,
    start: StateOf<"explorer">,
  ) {
    const saved = host.state as { filter?: string; select?: string; limit?: string; table?: string };
    this.ops = new LongOperations(host, this.status, () => this.updateButtons());
    this.grid = new EntityGrid(
      (row) => this.detail.show(row),
      () => this.updateButtons(),
    );
    this.detail = new EntityDetail({
      save: async (row, etag) => {
        if (!etag)
          throw new Error(
            "this entity was read without its ETag, so a save could overwrite someone else's change: run the query again, then edit",
          );
        const stored = await host.request("entity.update", { table: this.need(), row, etag });
        this.learn((c) => c.addEntities([stored]));
        this.grid.replace(stored);
        return stored;
      },
      insert: (row) => this.inserted(row),
      reload: async (row) => {
        const now = await host.request("entity.get", { table: this.need(), partitionKey: row.partitionKey, rowKey: row.rowKey });
        this.learn((c) => c.addEntities([now]));
        this.grid.replace(now);
        return now;
      },
      describe: (e) => problemOf(e),
    });
    this.filter = new FilterEditor(
      saved.filter ?? "",
      (text, state) => this.onFilter(text, state),
      () => void this.run(),
    );
    this.selectInput.value = saved.select ?? "";
    this.limitInput.value = saved.limit ?? "1000";
    this.sidebar = new Sidebar({
      emulator: () => void this.connect("emulator", () => host.request("connect.emulator", {})),
      prompt: () => void this.connect(undefined, () => host.request("connect.prompt", {})),
      select: (id) => void this.connect(id, () => host.request("connection.select", { id })),
      forget: (id) =>
        void this.safely(async () => {
          await host.request("connection.remove", { id });
        }),
      create: (name) =>
        void this.safely(async () => {
          this.setTables(await host.request("table.create", { name }));
          this.sidebar.created();
          await this.open(name);
        }),
      open: (t) => void this.safely(() => this.open(t)),
      // VS Code asks for the sample size and opens the design; the page only reports a failure to start it.
      infer: (t) =>
        void this.safely(async () => {
          await host.request("design.infer", { table: t });
        }),
      remove: (t) =>
        void this.safely(async () => {
          const left = await host.request("table.delete", { name: t });
          if (!left) return;
          if (this.table === t) this.closeTable(`Deleted the table ${t}.`);
          this.setTables(left);
        }),
      exportFolder: (t) => void this.transfer(() => this.ops.exportToFolder(t), false),
      clear: (t) => void this.safely(() => this.jobs.deleteMatching(t, undefined)),
    });
    this.jobs = new ExplorerJobs({
      host,
      ops: this.ops,
      status: this.status,
      review: this.review,
      openTable: () => this.table,
      filterError: () => this.filter.state.error,
      reread: () => this.run(),
      learned: (columns) => this.learn((c) => c.addColumns(columns)),
      updateButtons: () => this.updateButtons(),
    });
    this.toolbar = new Toolbar({
      insert: () => this.detail.show(undefined),
      deleteSelected: () => void this.deleteSelected(),
      more: () => void this.more(),
      deleteMatching: () => void this.safely(() => this.jobs.deleteMatching(this.need(), this.filter.text.trim())),
      import: (f) => void this.safely(() => this.jobs.importFile(this.need(), f)),
      export: (scope, f) => void this.exportAs(scope, f),
      exportFolder: () => void this.transfer(() => this.ops.exportToFolder(this.need()), false),
    });
    root.append(
      h(
        "div",
        { class: "explorer" },
        this.sidebar.element,
        h(
          "main",
          {},
          this.titleEl,
          h("div", { class: "querybar" }, this.filter.element, this.badgeEl),
          h(
            "div",
            { class: "row query-options" },
            this.selectInput,
            this.limitInput,
            h("button", { class: "run", title: "Run (Ctrl+Enter)", onclick: () => void this.run() }, "Run query"),
          ),
          this.toolbar.element,
          this.review.element,
          this.status.progress,
          this.status.cost,
          this.status.error,
          this.grid.element,
        ),
        this.detail.element,
      ),
    );
    host.onEvent((e) => {
      if (e.type === "connections") this.onConnections(e);
      else if (e.type === "progress") this.ops.progress(e);
      else if (e.type === "notice") this.status.showError(e.notice);
    });
    void this.start(start, saved.table);
  }

  private async start(state: StateOf<"explorer">, table: string | undefined): Promise<void> {
    this.active = state.active;
    this.sidebar.setConnections(state.connections, state.active);
    if (state.notice) this.status.showError(state.notice);
    this.closeTable();
    if (!this.active) return;
    await this.safely(async () => {
      await this.refreshTables();
      if (table && this.tables.kind === "tables" && this.tables.tables.includes(table)) await this.open(table);
    });
  }

  /** Runs `fn`; its failure becomes the error shown (the previous one is cleared first). */
  private async safely(fn: () => Promise<void>): Promise<void> {
    this.status.clearError();
    try {
      await fn();
    } catch (e) {
      this.status.showError(problemOf(e));
    }
  }

  private need(): string {
    if (!this.table) throw new Error("open a table first: pick one under Tables, or create one");
    return this.table;
  }

  /** Connects (`id`: the connection being tried); the host's `connections` event switches the page once it answered. */
  private async connect(id: string | undefined, request: () => Promise<unknown>): Promise<void> {
    this.sidebar.connectingTo(id);
    await this.safely(async () => {
      await request();
    });
    this.sidebar.connectingTo(undefined);
  }

  private onConnections(e: ConnectionsEvent): void {
    const switched = e.active !== this.active;
    this.active = e.active;
    this.sidebar.setConnections(e.connections, e.active);
    if (e.tables) {
      // A connection answered: its tables replace whatever was shown.
      this.status.clearError();
      if (switched || !e.tables.includes(this.table ?? "")) this.closeTable();
      this.setTables(e.tables);
    } else if (switched) {
      this.closeTable();
      this.setTables(undefined);
    }
  }

  private setTables(tables: string[] | undefined, failed = false): void {
    this.tables = failed ? { kind: "failed" } : tables ? { kind: "tables", tables, open: this.table } : { kind: "disconnected" };
    this.sidebar.setTables(this.tables);
    if (!this.table) this.grid.setRows([], this.emptyWithoutTable());
  }

  private emptyWithoutTable(): EmptyState {
    if (this.tables.kind === "disconnected")
      return {
        message: "Not connected — start the emulator or connect to an account.",
        action: { label: "Start the emulator", run: () => void this.connect("emulator", () => this.host.request("connect.emulator", {})) },
      };
    if (this.tables.kind === "tables" && !this.tables.tables.length)
      return { message: "No tables yet — create one.", action: { label: "Create a table", run: () => this.sidebar.focusNewTable() } };
    if (this.tables.kind === "failed") return { message: "The tables could not be listed — see the error above." };
    return OPEN_A_TABLE;
  }

  private async refreshTables(): Promise<void> {
    this.sidebar.setTables({ kind: "loading" });
    try {
      this.setTables(await this.host.request("tables.list", {}));
    } catch (e) {
      // The account did not answer: nothing it showed before stays beside the error.
      this.closeTable();
      this.setTables(undefined, true);
      throw e;
    }
  }

  private async open(table: string): Promise<void> {
    this.table = table;
    this.host.saveState({ table });
    this.titleEl.textContent = table;
    this.setTables(this.tables.kind === "tables" ? this.tables.tables : undefined);
    this.updateButtons();
    this.columns.clear();
    const sample = await this.host.request("columns.sample", { table }).catch(() => []);
    if (this.table === table) this.learn((c) => c.addProperties(sample));
    await this.run();
  }

  /** No table open: title, cost line, rows and actions go with it; `note` says why. */
  private closeTable(note = ""): void {
    this.table = undefined;
    this.host.saveState({ table: undefined });
    this.titleEl.textContent = "No table open";
    this.continuation = undefined;
    this.lastQuery = undefined;
    this.edits = { inserted: 0, deleted: 0 };
    this.querySeq++;
    this.detail.close();
    this.status.setCost(note);
    this.grid.setRows([], this.emptyWithoutTable());
    if (this.tables.kind === "tables") this.sidebar.setTables({ ...this.tables, open: undefined });
    this.updateCount();
  }

  private onFilter(text: string, state: FilterState): void {
    this.host.saveState({ filter: text });
    this.badgeEl.textContent = state.classification ? badge(state.classification) : "does not parse";
    this.badgeEl.className = `badge ${state.classification ? state.classification.class : "invalid"}`;
    this.badgeEl.title = state.classification?.reasons.join("; ") ?? state.error ?? "";
    this.updateButtons();
  }

  private async run(): Promise<void> {
    this.status.clearError();
    if (!this.table) {
      this.status.setCost(sentence("open a table first: pick one under Tables, or create one"));
      return;
    }
    const table = this.table;
    const seq = ++this.querySeq;
    const filter = this.filter.text.trim();
    const select = this.selectInput.value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const limit = Math.min(LIMITS.queryRows, Math.max(1, Math.floor(Number(this.limitInput.value)) || 1000));
    this.host.saveState({ select: this.selectInput.value, limit: this.limitInput.value });
    this.continuation = undefined;
    this.lastQuery = undefined;
    const state = this.filter.state;
    if (state.error) {
      // The service would refuse it; the previous rows are not this filter's result.
      this.grid.setRows([], { message: "No result: the filter does not parse." });
      this.status.setCost("");
      this.status.showError({
        message: `the filter does not parse at character ${state.at}: ${state.error}. Fix the part underlined in red, then run again`,
      });
      this.updateCount();
      return;
    }
    this.status.setCost("Running…");
    try {
      const result = await this.host.request("query.run", { table, filter, select, limit });
      if (seq !== this.querySeq) return;
      this.continuation = result.continuationToken;
      // No filter is a table scan: the host classifies only filters, the page says the same as its badge.
      this.lastQuery = { cost: { ...result.cost }, classification: result.classification ?? state.classification, filter, select };
      this.edits = { inserted: 0, deleted: 0 };
      this.learn((c) => c.addEntities(result.entities));
      this.grid.setRows(result.entities, {
        message: filter ? "No entities match this filter." : "This table is empty — Insert… an entity or Import… a file.",
      });
    } catch (e) {
      if (seq !== this.querySeq) return;
      this.grid.setRows([], { message: "No result: the query failed (see the error above)." });
      this.status.showError(problemOf(e));
      if (/TableNotFound/.test(problemOf(e).details ?? "")) await this.refreshTables().catch(() => undefined);
    }
    this.renderCost();
    this.updateCount();
  }

  private async more(): Promise<void> {
    await this.safely(async () => {
      const q = this.lastQuery;
      if (!this.continuation || !q) {
        this.status.setCost("No more entities.");
        return;
      }
      const seq = this.querySeq;
      const page = await this.host.request("entities.page", {
        table: this.need(),
        continuationToken: this.continuation,
        filter: q.filter,
        select: q.select,
      });
      if (seq !== this.querySeq) return;
      this.continuation = page.continuationToken;
      this.learn((c) => c.addEntities(page.entities));
      q.cost = {
        ...q.cost,
        requests: q.cost.requests + 1,
        pages: q.cost.pages + 1,
        continuationTokens: q.cost.continuationTokens + 1,
        entities: q.cost.entities + page.entities.length,
      };
      const top = this.grid.element.scrollTop;
      this.grid.setRows([...this.grid.all(), ...page.entities]);
      this.grid.element.scrollTop = top;
      this.renderCost();
      this.updateCount();
    });
  }

  /** After an insert: the row goes where the service's order puts it, if this query returns it. */
  private async inserted(row: EntityRow): Promise<{ row: EntityRow; note?: string }> {
    const table = this.need();
    const stored = await this.host.request("entity.insert", { table, row });
    if (table === this.table) this.learn((c) => c.addEntities([stored]));
    const q = this.lastQuery;
    if (!q || table !== this.table) return { row: stored };
    if (
      q.filter &&
      !(await this.host.request("entity.matches", { table, filter: q.filter, partitionKey: stored.partitionKey, rowKey: stored.rowKey }))
    ) {
      return { row: stored, note: "It does not match the current filter, so the grid does not show it." };
    }
    const place = placeRow(this.grid.all(), stored, !!this.continuation);
    if (place.where === "later") return { row: stored, note: "It sorts after the loaded rows: Load more to reach it." };
    this.grid.insert(place.index, stored);
    this.edits.inserted++;
    this.renderCost();
    this.updateCount();
    return { row: stored };
  }

  /** Adds what was just seen to the columns the filter editor completes. */
  private learn(seen: (columns: KnownColumns) => void): void {
    seen(this.columns);
    this.filter.setColumns(this.columns.list);
  }

  private renderCost(): void {
    if (this.lastQuery)
      this.status.setCost(
        costLine(this.lastQuery.cost, this.lastQuery.classification ? badge(this.lastQuery.classification) : undefined, this.edits),
      );
  }

  private updateCount(): void {
    this.updateButtons();
  }

  /** The toolbar follows the open table, the grid, the selection and the running operation. */
  private updateButtons(): void {
    // The grid and the operations call back while the constructor is still building the page.
    if (!this.toolbar) return;
    this.toolbar.update({
      open: !!this.table,
      rows: this.grid.count,
      more: !!this.continuation,
      selected: this.grid.selected().length,
      filter: !!this.filter?.text.trim() && !this.filter.state.error,
      busy: this.ops.busy || this.review.open,
    });
  }

  /** Deletes the selected rows, each only if it is still the version shown (its ETag). */
  private async deleteSelected(): Promise<void> {
    await this.safely(async () => {
      const rows = this.grid.selected();
      if (rows.length > LIMITS.entitiesPerRequest)
        throw new Error(`select at most ${LIMITS.entitiesPerRequest.toLocaleString("en-US")} entities to delete at a time`);
      if (rows.some((r) => !r.etag)) throw new Error("some selected rows were read without their ETag: run the query again, then delete");
      const entities: EntityVersion[] = rows.map((r) => ({ partitionKey: r.partitionKey, rowKey: r.rowKey, etag: r.etag! }));
      let result;
      try {
        result = await this.ops.delete(this.need(), entities);
      } catch (e) {
        // Cancelled or failed part-way: what is left is only known by reading again.
        await this.run();
        throw e;
      }
      if (!result) return;
      const summary =
        `Deleted ${result.deleted} entit${result.deleted === 1 ? "y" : "ies"}.` +
        (result.missing ? ` ${result.missing} ${result.missing === 1 ? "was" : "were"} already gone.` : "");
      if (result.kept) {
        // What stayed is no longer what the grid shows: read it again.
        await this.run();
        this.status.setCost(
          `${summary} Kept ${result.kept}: changed since ${result.kept === 1 ? "it was" : "they were"} loaded; select again to delete the current version${result.kept === 1 ? "" : "s"}.`,
        );
        return;
      }
      this.grid.remove(new Set(entities.map(key)));
      this.edits.deleted += result.deleted + result.missing;
      this.renderCost();
      this.status.setCost(`${summary} ${this.status.costText}`);
      this.updateCount();
    });
  }

  private async exportAs(scope: "result" | "table", format: TransferFormat): Promise<void> {
    const q = this.lastQuery;
    await this.transfer(
      () => this.ops.export(this.need(), format, scope, { filter: q?.filter ?? this.filter.text.trim(), select: q?.select }),
      false,
    );
  }

  /** Runs an import or export; its sentence goes to the cost line; an import reads the table again. */
  private async transfer(work: () => Promise<string | undefined>, reread: boolean): Promise<void> {
    await this.safely(async () => {
      const said = await work();
      if (!said) return;
      if (reread) await this.run();
      this.status.setCost(reread ? `${said} ${this.status.costText}` : said);
    });
  }
}
