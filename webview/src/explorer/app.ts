/**
 * The explorer: connections and tables on the left; a filter editor with
 * its live class, a grid of entities paged by continuation tokens, what each
 * query cost, and the entity detail on the right. State survives a reload.
 */
import { ConnectionInfo, EntityRow, EntityVersion, LIMITS, StateOf } from "../protocol";
import type { ViewClient } from "../rpc";
import { clear, h } from "../dom";
import { EntityGrid, key } from "./grid";
import { EntityDetail } from "./detail";
import { badge, FilterEditor, FilterState } from "./filter-editor";

export class ExplorerApp {
  private connections: ConnectionInfo[] = [];
  private active: string | undefined;
  private tables: string[] = [];
  private table: string | undefined;
  private continuation: string | undefined;
  private readonly connList = h("ul", { class: "connections", "aria-label": "Connections" });
  private readonly tableList = h("ul", { class: "tables", "aria-label": "Tables" });
  private readonly badgeEl = h("span", { class: "badge", "aria-live": "polite" });
  private readonly costEl = h("div", { class: "cost", "aria-live": "polite" });
  private readonly errorEl = h("div", { class: "error", role: "alert" });
  private readonly countEl = h("span", { class: "count" });
  private readonly titleEl = h("h1", { class: "title" }, "No table open");
  private readonly selectInput = h("input", { class: "select", placeholder: "$select: Name, Age", "aria-label": "Select" });
  private readonly limitInput = h("input", { class: "limit", type: "number", min: "1", max: String(LIMITS.queryRows), value: "1000", "aria-label": "Row limit" });
  private readonly grid: EntityGrid;
  private readonly detail: EntityDetail;
  private readonly filter: FilterEditor;
  private readonly deleteButton: HTMLButtonElement;

  constructor(private readonly host: ViewClient<"explorer">, root: HTMLElement, start: StateOf<"explorer">) {
    const saved = host.state as { filter?: string; select?: string; limit?: string; table?: string };
    this.grid = new EntityGrid((row) => this.detail.show(row), () => this.updateSelection());
    this.detail = new EntityDetail({
      save: async (row, etag) => {
        if (!etag) throw new Error("this entity was read without its ETag, so a save could overwrite someone else's change: run the query again, then edit");
        return this.afterWrite(await host.request("entity.update", { table: this.need(), row, etag }));
      },
      insert: async (row) => this.afterWrite(await host.request("entity.insert", { table: this.need(), row })),
    });
    this.filter = new FilterEditor(saved.filter ?? "", (text, state) => this.onFilter(text, state), () => void this.run());
    this.selectInput.value = saved.select ?? "";
    this.limitInput.value = saved.limit ?? "1000";
    this.deleteButton = h("button", { class: "delete", disabled: true, onclick: () => void this.deleteSelected() }, "Delete selected");
    const newTable = h("input", { placeholder: "new table name", "aria-label": "New table name", class: "new-table" });
    root.append(h("div", { class: "explorer" },
      h("aside", { class: "sidebar" },
        h("h2", {}, "Connections"),
        h("div", { class: "row" },
          h("button", { class: "emulator", onclick: () => void this.safely(async () => { await host.request("connect.emulator", {}); await this.refreshTables(); }) }, "Emulator"),
          h("button", { class: "secondary connect", onclick: () => void this.safely(async () => { if (await host.request("connect.prompt", {})) await this.refreshTables(); }) }, "Connect…")),
        this.connList,
        h("h2", {}, "Tables"),
        h("div", { class: "row" }, newTable, h("button", { class: "create", onclick: () => void this.safely(async () => {
          this.tables = await host.request("table.create", { name: newTable.value.trim() });
          const created = newTable.value.trim();
          newTable.value = "";
          this.renderTables();
          await this.open(created);
        }) }, "Create")),
        this.tableList),
      h("main", {},
        this.titleEl,
        h("div", { class: "querybar" }, this.filter.element, this.badgeEl),
        h("div", { class: "row" }, this.selectInput, this.limitInput,
          h("button", { class: "run", title: "Run (Ctrl+Enter)", onclick: () => void this.run() }, "Run query")),
        h("div", { class: "toolbar" },
          h("button", { class: "secondary insert-new", onclick: () => this.detail.show(undefined) }, "Insert…"),
          this.deleteButton,
          h("button", { class: "secondary more", onclick: () => void this.more() }, "Load more"),
          h("button", { class: "secondary import-json", onclick: () => void this.transfer("data.import", "json") }, "Import JSON"),
          h("button", { class: "secondary import-csv", onclick: () => void this.transfer("data.import", "csv") }, "Import CSV"),
          h("button", { class: "secondary export-json", onclick: () => void this.transfer("data.export", "json") }, "Export JSON"),
          h("button", { class: "secondary export-csv", onclick: () => void this.transfer("data.export", "csv") }, "Export CSV"),
          this.countEl),
        this.costEl, this.errorEl, this.grid.element),
      this.detail.element));
    host.onEvent((e) => {
      if (e.type === "connections") { this.connections = e.connections; this.active = e.active; this.renderConnections(); }
      if (e.type === "progress") this.costEl.textContent = `${e.operation}: ${e.done}${e.total ? ` of ${e.total}` : ""}…`;
    });
    void this.start(start, saved.table);
  }

  private async start(state: StateOf<"explorer">, table: string | undefined): Promise<void> {
    await this.safely(async () => {
      this.connections = state.connections;
      this.active = state.active;
      this.renderConnections();
      if (this.active) {
        await this.refreshTables();
        if (table && this.tables.includes(table)) await this.open(table);
      }
    });
  }

  private async safely(fn: () => Promise<void>): Promise<void> {
    this.errorEl.textContent = "";
    try {
      await fn();
    } catch (e) {
      this.errorEl.textContent = (e as Error).message;
    }
  }

  private need(): string {
    if (!this.table) throw new Error("open a table first");
    return this.table;
  }

  private renderConnections(): void {
    clear(this.connList);
    for (const c of this.connections) {
      this.connList.append(h("li", { class: c.id === this.active ? "active" : "", title: c.endpoint },
        h("button", { class: "link", onclick: () => void this.safely(async () => {
          this.tables = (await this.host.request("connection.select", { id: c.id })).tables;
          this.renderTables();
        }) }, `${c.name}`), h("span", { class: "kind" }, c.kind),
        h("button", { class: "icon", title: "Forget this connection", onclick: () => void this.safely(async () => { await this.host.request("connection.remove", { id: c.id }); }) }, "✕")));
    }
  }

  private async refreshTables(): Promise<void> {
    this.tables = await this.host.request("tables.list", {});
    this.renderTables();
  }

  private renderTables(): void {
    clear(this.tableList);
    for (const t of this.tables) {
      this.tableList.append(h("li", { class: t === this.table ? "active" : "" },
        h("button", { class: "link", onclick: () => void this.safely(() => this.open(t)) }, t),
        h("button", { class: "icon", title: `Delete table ${t}`, onclick: () => void this.safely(async () => {
          const left = await this.host.request("table.delete", { name: t });
          if (left) { this.tables = left; if (this.table === t) this.table = undefined; this.renderTables(); }
        }) }, "✕")));
    }
  }

  private async open(table: string): Promise<void> {
    this.table = table;
    this.host.saveState({ table });
    this.titleEl.textContent = table;
    this.renderTables();
    this.filter.setColumns(await this.host.request("columns.sample", { table }));
    await this.run();
  }

  private onFilter(text: string, state: FilterState): void {
    this.host.saveState({ filter: text });
    this.badgeEl.textContent = state.classification ? badge(state.classification) : "does not parse";
    this.badgeEl.className = `badge ${state.classification ? state.classification.class : "invalid"}`;
    this.badgeEl.title = state.classification?.reasons.join("; ") ?? state.error ?? "";
  }

  private async run(): Promise<void> {
    await this.safely(async () => {
      const table = this.need();
      const select = this.selectInput.value.split(",").map((s) => s.trim()).filter(Boolean);
      const limit = Math.min(LIMITS.queryRows, Math.max(1, Math.floor(Number(this.limitInput.value)) || 1000));
      this.host.saveState({ select: this.selectInput.value, limit: this.limitInput.value });
      this.costEl.textContent = "Running…";
      const result = await this.host.request("query.run", { table, filter: this.filter.text.trim(), select, limit });
      this.continuation = result.continuationToken;
      this.grid.setRows(result.entities);
      const c = result.cost;
      this.costEl.textContent = `${c.requests} request${c.requests === 1 ? "" : "s"} · ${c.pages} page${c.pages === 1 ? "" : "s"} · ` +
        `${c.continuationTokens} continuation token${c.continuationTokens === 1 ? "" : "s"} followed · ${c.entities} entit${c.entities === 1 ? "y" : "ies"} · ${c.elapsedMs} ms` +
        (result.classification ? ` · ${badge(result.classification)}` : "");
      this.updateCount();
    });
  }

  private async more(): Promise<void> {
    await this.safely(async () => {
      if (!this.continuation) { this.costEl.textContent = "No more entities."; return; }
      const page = await this.host.request("entities.page", { table: this.need(), continuationToken: this.continuation });
      this.continuation = page.continuationToken;
      const rows = [...this.grid.all(), ...page.entities];
      this.grid.setRows(rows);
      this.updateCount();
    });
  }

  private afterWrite(row: EntityRow): EntityRow {
    this.grid.replace(row);
    this.updateCount();
    return row;
  }

  private updateSelection(): void {
    const n = this.grid.selected().length;
    this.deleteButton.disabled = n === 0;
    this.deleteButton.textContent = n ? `Delete ${n} selected` : "Delete selected";
  }

  private updateCount(): void {
    this.countEl.textContent = `${this.grid.count} entit${this.grid.count === 1 ? "y" : "ies"}${this.continuation ? " (more available)" : ""}`;
  }

  /** Deletes the selected rows, each only if it is still the version shown (its ETag). */
  private async deleteSelected(): Promise<void> {
    await this.safely(async () => {
      const rows = this.grid.selected();
      if (rows.length > LIMITS.entitiesPerRequest) throw new Error(`select at most ${LIMITS.entitiesPerRequest.toLocaleString("en-US")} entities to delete at a time`);
      if (rows.some((r) => !r.etag)) throw new Error("some selected rows were read without their ETag: run the query again, then delete");
      const entities: EntityVersion[] = rows.map((r) => ({ partitionKey: r.partitionKey, rowKey: r.rowKey, etag: r.etag! }));
      const result = await this.host.request("entities.delete", { table: this.need(), entities });
      if (!result) return;
      const summary = `Deleted ${result.deleted} entit${result.deleted === 1 ? "y" : "ies"}.` +
        (result.missing ? ` ${result.missing} ${result.missing === 1 ? "was" : "were"} already gone.` : "");
      if (result.kept) {
        // What stayed is no longer what the grid shows: read it again.
        await this.run();
        this.costEl.textContent = `${summary} Kept ${result.kept}: changed since ${result.kept === 1 ? "it was" : "they were"} loaded; select again to delete the current version${result.kept === 1 ? "" : "s"}.`;
        return;
      }
      this.grid.remove(new Set(entities.map(key)));
      this.costEl.textContent = summary;
      this.updateCount();
    });
  }

  private async transfer(method: "data.import" | "data.export", format: "json" | "csv"): Promise<void> {
    await this.safely(async () => {
      const table = this.need();
      if (method === "data.import") {
        const r = await this.host.request("data.import", { table, format });
        if (r) { this.costEl.textContent = `Imported ${r.imported} entities.`; await this.run(); }
      } else {
        const r = await this.host.request("data.export", { table, format, filter: this.filter.text.trim() || undefined });
        if (r) this.costEl.textContent = `Exported ${r.exported} entities to ${r.file}.`;
      }
    });
  }
}
