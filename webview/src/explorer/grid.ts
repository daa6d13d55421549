/**
 * The entity grid: typed columns (the union of the rows' properties, with
 * their Edm types), row selection, and virtualised rows — only the rows in
 * view are in the DOM, so thousands of entities scroll smoothly.
 */
import type { EntityRow } from "../protocol";
import { clear, h } from "../dom";

const ROW_HEIGHT = 24;
const OVERSCAN = 10;

export class EntityGrid {
  readonly element: HTMLElement;
  private readonly header: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly body: HTMLElement;
  private rows: EntityRow[] = [];
  private columns: Array<{ name: string; type: string }> = [];
  private readonly selection = new Set<string>();

  constructor(private readonly onOpen: (row: EntityRow) => void, private readonly onSelectionChange: () => void) {
    this.header = h("div", { class: "grid-header", role: "row" });
    this.spacer = h("div", { class: "grid-spacer" });
    this.body = h("div", { class: "grid-body", role: "rowgroup" });
    this.viewport = h("div", { class: "grid-viewport", onscroll: () => this.render() }, this.spacer, this.body);
    this.element = h("div", { class: "grid", role: "grid" }, this.header, this.viewport);
  }

  setRows(rows: EntityRow[]): void {
    this.rows = rows;
    this.selection.clear();
    const seen = new Map<string, string>();
    for (const r of rows) for (const [k, v] of Object.entries(r.properties)) if (!seen.has(k)) seen.set(k, v.type);
    this.columns = [...seen].map(([name, type]) => ({ name, type }));
    this.renderHeader();
    this.spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    this.viewport.scrollTop = 0;
    this.render();
    this.onSelectionChange();
  }

  get count(): number {
    return this.rows.length;
  }

  all(): EntityRow[] {
    return this.rows;
  }

  selected(): EntityRow[] {
    return this.rows.filter((r) => this.selection.has(key(r)));
  }

  /** Replaces one row (after an edit) without losing the scroll position. */
  replace(row: EntityRow): void {
    const i = this.rows.findIndex((r) => key(r) === key(row));
    if (i >= 0) this.rows[i] = row;
    else this.rows.unshift(row);
    this.setRowsKeepingScroll();
  }

  remove(keys: Set<string>): void {
    this.rows = this.rows.filter((r) => !keys.has(key(r)));
    this.setRowsKeepingScroll();
  }

  private setRowsKeepingScroll(): void {
    const top = this.viewport.scrollTop;
    const selection = new Set(this.selection);
    this.setRows(this.rows);
    for (const k of selection) if (this.rows.some((r) => key(r) === k)) this.selection.add(k);
    this.viewport.scrollTop = top;
    this.render();
  }

  private renderHeader(): void {
    clear(this.header);
    const all = h("input", { type: "checkbox", title: "Select all", onchange: (e: Event) => {
      const on = (e.target as HTMLInputElement).checked;
      this.selection.clear();
      if (on) for (const r of this.rows) this.selection.add(key(r));
      this.render();
      this.onSelectionChange();
    } });
    this.header.append(h("div", { class: "cell check" }, all), h("div", { class: "cell key" }, "PartitionKey"), h("div", { class: "cell key" }, "RowKey"),
      h("div", { class: "cell" }, "Timestamp"),
      ...this.columns.map((c) => h("div", { class: "cell", title: `${c.name}: Edm.${c.type}` }, c.name, h("span", { class: "type" }, c.type))));
  }

  private render(): void {
    const first = Math.max(0, Math.floor(this.viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const visible = Math.ceil((this.viewport.clientHeight || 600) / ROW_HEIGHT) + 2 * OVERSCAN;
    clear(this.body);
    this.body.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    for (const row of this.rows.slice(first, first + visible)) this.body.append(this.renderRow(row));
  }

  private renderRow(row: EntityRow): HTMLElement {
    const k = key(row);
    const check = h("input", { type: "checkbox", checked: this.selection.has(k), onclick: (e: Event) => e.stopPropagation(), onchange: (e: Event) => {
      if ((e.target as HTMLInputElement).checked) this.selection.add(k);
      else this.selection.delete(k);
      this.onSelectionChange();
    } });
    return h("div", { class: `grid-row${this.selection.has(k) ? " selected" : ""}`, role: "row", dataset: { key: k }, ondblclick: () => this.onOpen(row), onclick: () => this.onOpen(row) },
      h("div", { class: "cell check" }, check),
      h("div", { class: "cell key" }, row.partitionKey),
      h("div", { class: "cell key" }, row.rowKey),
      h("div", { class: "cell" }, row.timestamp ?? ""),
      ...this.columns.map((c) => {
        const v = row.properties[c.name];
        return h("div", { class: `cell ${v ? `t-${v.type.toLowerCase()}` : "missing"}`, title: v ? `${v.value} (Edm.${v.type})` : "—" }, v ? v.value : "");
      }));
  }
}

export function key(r: { partitionKey: string; rowKey: string }): string {
  return JSON.stringify([r.partitionKey, r.rowKey]);
}
