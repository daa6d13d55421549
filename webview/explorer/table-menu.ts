/**
 * The context menu of a table in the sidebar's list: Open, Infer a
 * design…, Export to a folder…, Clear table…, Delete table…. It opens at the pointer on a right-click, or
 * under the table's name from the keyboard (the menu key or Shift+F10),
 * and follows the ARIA menu pattern: arrows, Home and End move between the
 * items, Enter or a click chooses, Escape or a click elsewhere closes it
 * (Escape gives the focus back to the table's name).
 */
import { h } from "../dom";
import { menuKey } from "./menu";

/** What the menu's items do, for the table it was opened on. */
export interface TableMenuActions {
  open(table: string): void;
  infer(table: string): void;
  exportFolder(table: string): void;
  clear(table: string): void;
  remove(table: string): void;
}

export class TableMenu {
  readonly element: HTMLElement;
  private table: string | undefined;
  private anchor: HTMLElement | undefined;

  constructor(actions: TableMenuActions) {
    const item = (name: string, label: string, run: (table: string) => void) =>
      h(
        "button",
        {
          class: `menu-item ${name}`,
          role: "menuitem",
          tabindex: "-1",
          onclick: () => {
            const table = this.table;
            this.close(false);
            if (table !== undefined) run(table);
          },
        },
        label,
      );
    this.element = h(
      "div",
      { class: "menu table-menu", role: "menu" },
      item("open-table", "Open", (t) => actions.open(t)),
      item("infer-design", "Infer a design…", (t) => actions.infer(t)),
      item("export-folder", "Export to a folder…", (t) => actions.exportFolder(t)),
      item("clear-table", "Clear table…", (t) => actions.clear(t)),
      item("delete-table", "Delete table…", (t) => actions.remove(t)),
    );
    this.element.hidden = true;
    this.element.addEventListener("keydown", (e) => this.key(e));
    document.addEventListener("pointerdown", (e) => {
      if (!this.element.hidden && !this.element.contains(e.target as Node)) this.close(false);
    });
  }

  /** The table the menu is open on, if it is open. */
  get openOn(): string | undefined {
    return this.element.hidden ? undefined : this.table;
  }

  /** Opens the menu on `table` at `at` (viewport pixels), or under `anchor`; opening it again on the same table only moves it. */
  open(table: string, at: { x: number; y: number } | undefined, anchor: HTMLElement): void {
    this.table = table;
    this.anchor = anchor;
    this.element.setAttribute("aria-label", `Table ${table}`);
    this.element.hidden = false;
    const box = anchor.getBoundingClientRect();
    const point = at ?? { x: box.left, y: box.bottom };
    // Inside the window: a menu opened near the right or bottom edge opens to the left or upwards.
    const { width, height } = this.element.getBoundingClientRect();
    const x = Math.max(0, Math.min(point.x, window.innerWidth - width - 2));
    const y = point.y + height > window.innerHeight ? Math.max(0, point.y - height) : point.y;
    this.element.style.left = `${x}px`;
    this.element.style.top = `${y}px`;
    this.items()[0]?.focus();
  }

  close(refocus = true): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    if (refocus && this.anchor?.isConnected) this.anchor.focus();
  }

  private items(): HTMLButtonElement[] {
    return [...this.element.querySelectorAll<HTMLButtonElement>(".menu-item")];
  }

  private key(e: KeyboardEvent): void {
    menuKey(e, this.items(), (refocus) => this.close(refocus));
  }
}
