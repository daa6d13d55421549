/**
 * The entity grid: typed columns (the keys, Timestamp when the rows have
 * one, then the union of the rows' properties with their Edm types), row
 * selection, and virtualised rows — only the rows in view are in the DOM,
 * so thousands of entities scroll smoothly. One element scrolls both ways
 * (a single horizontal scrollbar; the header stays on top), columns keep
 * their width however narrow the panel, and the keyboard works as in a
 * list: arrows, Page Up/Down, Home/End, Enter opens the entity, Space
 * selects it, Ctrl+A selects all.
 */
import type { EntityRow } from "@protocol/entities";
import { clear, h } from "../dom";
import { formatCount } from "@core/text/words";

const ROW_HEIGHT = 24;
const OVERSCAN = 8;
const CHECK_WIDTH = 32;
const COLUMN_WIDTH = 160;
const WIDE_WIDTH = 240;

interface Column {
  name: string;
  /** The label beside the name: the Edm type, or what a system column is. */
  label: string;
  /** Wider than the others (Timestamp's full date and time). */
  wide?: boolean;
  /** A column of several types: how many values of each ("3 Int32, 2 Double"). */
  counts?: string;
  /** `own`: the cell's type differs from the column's, and the cell shows it. */
  value(row: EntityRow): { text: string; type?: string; own?: boolean } | undefined;
}

/**
 * A column's type from all its values, not the first row's: the one type
 * they share; Double for whole numbers stored as Int32 beside Doubles (as
 * an emulator stores 5.0); otherwise "mixed: Int32, String" in the order
 * the types were met.
 */
export function columnType(types: ReadonlyMap<string, number>): string {
  const names = [...types.keys()];
  if (names.length === 1) return names[0];
  if (names.length === 2 && names.includes("Int32") && names.includes("Double")) return "Double";
  return `mixed: ${names.join(", ")}`;
}

const SYSTEM: Column[] = [
  { name: "PartitionKey", label: "key", value: (r) => ({ text: r.partitionKey }) },
  { name: "RowKey", label: "key", value: (r) => ({ text: r.rowKey }) },
];
/** What an empty grid says, and the one thing to do about it. */
export interface EmptyState {
  message: string;
  action?: { label: string; run: () => void };
}

const TIMESTAMP: Column = {
  name: "Timestamp",
  label: "system",
  wide: true,
  value: (r) => (r.timestamp ? { text: r.timestamp, type: "DateTime" } : undefined),
};

export class EntityGrid {
  readonly element: HTMLElement;
  private readonly header = h("div", { class: "grid-header", role: "row", "aria-rowindex": "1" });
  private readonly canvas = h("div", { class: "grid-canvas", role: "rowgroup" });
  private readonly empty = h("div", { class: "grid-empty", role: "status" });
  private rows: EntityRow[] = [];
  private columns: Column[] = [];
  private readonly selection = new Set<string>();
  private active = -1;
  private drawn = { first: -1, last: -1 };
  private emptyState: EmptyState = { message: "No entities." };

  constructor(
    private readonly onOpen: (row: EntityRow) => void,
    private readonly onSelectionChange: () => void,
  ) {
    this.element = h(
      "div",
      { class: "grid", role: "grid", tabindex: "0", "aria-label": "Entities", "aria-multiselectable": "true" },
      this.header,
      this.canvas,
      this.empty,
    );
    this.element.addEventListener("scroll", () => this.render());
    this.element.addEventListener("keydown", (e) => this.key(e));
    new ResizeObserver(() => this.render(true)).observe(this.element);
  }

  /**
   * Shows `rows` (in the service's order), clearing selection and scroll;
   * with no rows, `empty` says why and what to do (with an optional action).
   */
  setRows(rows: EntityRow[], empty: EmptyState = { message: "No entities." }): void {
    this.rows = rows;
    this.emptyState = empty;
    this.selection.clear();
    this.active = rows.length ? 0 : -1;
    this.layout();
    this.element.scrollTop = 0;
    this.element.scrollLeft = 0;
    this.render(true);
    this.onSelectionChange();
  }

  /** What the empty grid says now (tests and the page's status read it). */
  get emptyMessage(): string {
    return this.rows.length ? "" : this.emptyState.message;
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

  /** Replaces one row in place (after an edit), keeping scroll, selection and the active row. */
  replace(row: EntityRow): boolean {
    const i = this.rows.findIndex((r) => key(r) === key(row));
    if (i < 0) return false;
    this.rows[i] = row;
    this.refresh();
    return true;
  }

  /** Adds a row at `index` (where the service's order puts it) and makes it the active one. */
  insert(index: number, row: EntityRow): void {
    this.rows.splice(index, 0, row);
    this.active = index;
    this.refresh();
    this.reveal(index);
  }

  remove(keys: Set<string>): void {
    this.rows = this.rows.filter((r) => !keys.has(key(r)));
    for (const k of keys) this.selection.delete(k);
    this.active = Math.min(this.active, this.rows.length - 1);
    this.refresh();
    this.onSelectionChange();
  }

  private refresh(): void {
    this.layout();
    this.render(true);
  }

  private layout(): void {
    const seen = new Map<string, Map<string, number>>();
    let timestamps = false;
    for (const r of this.rows) {
      if (r.timestamp) timestamps = true;
      for (const [k, v] of Object.entries(r.properties)) {
        const types = seen.get(k) ?? new Map<string, number>();
        types.set(v.type, (types.get(v.type) ?? 0) + 1);
        seen.set(k, types);
      }
    }
    this.columns = [
      ...SYSTEM,
      ...(timestamps ? [TIMESTAMP] : []),
      ...[...seen].map(([name, types]): Column => {
        const label = columnType(types);
        return {
          name,
          label,
          ...(types.size > 1 ? { counts: [...types].map(([t, n]) => `${formatCount(n)} ${t}`).join(", ") } : {}),
          value: (r) => {
            const v = r.properties[name];
            // A cell whose type is not the column's says its own: Azure compares values of one type only.
            return v ? { text: v.value, type: v.type, ...(v.type !== label ? { own: true } : {}) } : undefined;
          },
        };
      }),
    ];
    const width = CHECK_WIDTH + this.columns.reduce((sum, c) => sum + (c.wide ? WIDE_WIDTH : COLUMN_WIDTH), 0);
    this.header.style.width = this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${this.rows.length * ROW_HEIGHT}px`;
    this.element.setAttribute("aria-rowcount", String(this.rows.length + 1));
    this.element.setAttribute("aria-colcount", String(this.columns.length + 1));
    this.renderHeader();
    this.renderEmpty();
  }

  private renderEmpty(): void {
    clear(this.empty);
    this.empty.hidden = this.rows.length > 0;
    if (this.rows.length) return;
    const { message, action } = this.emptyState;
    this.empty.append(h("p", {}, message));
    if (action) this.empty.append(h("button", { class: "secondary empty-action", onclick: action.run }, action.label));
  }

  private renderHeader(): void {
    clear(this.header);
    const all = h("input", {
      type: "checkbox",
      title: "Select all",
      "aria-label": "Select all entities",
      checked: !!this.rows.length && this.selection.size === this.rows.length,
      onchange: (e: Event) => {
        const on = (e.target as HTMLInputElement).checked;
        this.selection.clear();
        if (on) for (const r of this.rows) this.selection.add(key(r));
        this.render(true);
        this.onSelectionChange();
      },
    });
    this.header.append(
      h("div", { class: "cell check", role: "columnheader" }, all),
      ...this.columns.map((c) =>
        h(
          "div",
          {
            class: `cell${c.wide ? " wide" : ""}`,
            role: "columnheader",
            title: `${c.name} (${c.label}${c.counts ? `: ${c.counts}` : ""})`,
            "aria-label": `${c.name}, ${c.label}`,
          },
          c.name,
          h("span", { class: "type" }, c.label),
        ),
      ),
    );
  }

  /** Draws the rows in view (plus a margin); `force` redraws even when the same rows are in view. */
  private render(force = false): void {
    // Row i sits at header + i rows; the sticky header hides the top of the view.
    const top = this.element.scrollTop;
    const height = Math.max(ROW_HEIGHT, (this.element.clientHeight || 600) - this.header.offsetHeight);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    if (!force && first === this.drawn.first && last === this.drawn.last) return;
    this.drawn = { first, last };
    clear(this.canvas);
    for (let i = first; i < last; i++) this.canvas.append(this.renderRow(this.rows[i], i));
    const active = this.canvas.querySelector(".grid-row.active");
    if (active) this.element.setAttribute("aria-activedescendant", active.id);
    else this.element.removeAttribute("aria-activedescendant");
  }

  private renderRow(row: EntityRow, index: number): HTMLElement {
    const k = key(row);
    const selected = this.selection.has(k);
    const check = h("input", {
      type: "checkbox",
      tabindex: "-1",
      "aria-label": "Select",
      checked: selected,
      onclick: (e: Event) => e.stopPropagation(),
      onchange: (e: Event) => {
        this.toggle(index, (e.target as HTMLInputElement).checked);
      },
    });
    const el = h(
      "div",
      {
        class: `grid-row${selected ? " selected" : ""}${index === this.active ? " active" : ""}`,
        role: "row",
        id: `grid-row-${index}`,
        "aria-rowindex": String(index + 2),
        "aria-selected": String(selected),
        dataset: { key: k },
        onclick: () => {
          this.active = index;
          this.element.focus({ preventScroll: true });
          this.render(true);
          this.onOpen(row);
        },
      },
      h("div", { class: "cell check", role: "gridcell" }, check),
      ...this.columns.map((c) => {
        const v = c.value(row);
        const system = c.label === "key" || c.label === "system";
        return h(
          "div",
          {
            class: `cell${system ? " system" : ""}${c.wide ? " wide" : ""} ${v?.type ? `t-${v.type.toLowerCase()}` : v ? "" : "missing"}`,
            role: "gridcell",
            title: v ? `${v.text}${v.type ? ` (Edm.${v.type})` : ""}` : "no value",
          },
          v ? v.text : "",
          ...(v?.own ? [h("span", { class: "cell-type" }, v.type)] : []),
        );
      }),
    );
    el.style.top = `${index * ROW_HEIGHT}px`;
    el.style.width = this.canvas.style.width;
    return el;
  }

  private toggle(index: number, on?: boolean): void {
    const row = this.rows[index];
    if (!row) return;
    const k = key(row);
    if (on ?? !this.selection.has(k)) this.selection.add(k);
    else this.selection.delete(k);
    this.render(true);
    this.renderHeader();
    this.onSelectionChange();
  }

  private key(e: KeyboardEvent): void {
    if (e.target !== this.element || !this.rows.length) return;
    const page = Math.max(1, Math.floor((this.element.clientHeight - this.header.offsetHeight) / ROW_HEIGHT) - 1);
    const moves: Record<string, () => number> = {
      ArrowDown: () => this.active + 1,
      ArrowUp: () => this.active - 1,
      PageDown: () => this.active + page,
      PageUp: () => this.active - page,
      Home: () => 0,
      End: () => this.rows.length - 1,
    };
    if (Object.hasOwn(moves, e.key)) {
      this.active = Math.max(0, Math.min(this.rows.length - 1, moves[e.key]()));
      this.reveal(this.active);
      this.render(true);
    } else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      this.element.scrollLeft += e.key === "ArrowRight" ? COLUMN_WIDTH : -COLUMN_WIDTH;
    } else if (e.key === "Enter" && this.active >= 0) {
      this.onOpen(this.rows[this.active]);
    } else if (e.key === " " && this.active >= 0) {
      this.toggle(this.active);
    } else if (e.key.toLowerCase() === "a" && (e.ctrlKey || e.metaKey)) {
      for (const r of this.rows) this.selection.add(key(r));
      this.render(true);
      this.renderHeader();
      this.onSelectionChange();
    } else return;
    e.preventDefault();
  }

  /** Scrolls row `index` into view below the sticky header. */
  private reveal(index: number): void {
    const headerHeight = this.header.offsetHeight;
    const top = index * ROW_HEIGHT;
    const viewTop = this.element.scrollTop;
    const viewHeight = this.element.clientHeight - headerHeight;
    if (top < viewTop) this.element.scrollTop = top;
    else if (top + ROW_HEIGHT > viewTop + viewHeight) this.element.scrollTop = top + ROW_HEIGHT - viewHeight;
  }
}

export function key(r: { partitionKey: string; rowKey: string }): string {
  return JSON.stringify([r.partitionKey, r.rowKey]);
}
