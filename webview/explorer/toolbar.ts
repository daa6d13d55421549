/**
 * The explorer's toolbar: Insert…, Delete selected, Delete matching… (every
 * entity the filter matches, loaded or not), Load more, the Import… and
 * Export… menus (Export… also writes the whole table to a folder, as
 * `tdl export` does), and the count of entities in the grid. Which buttons
 * work follows what is open: no table, no table actions; no selection, no
 * delete; no filter, no delete of what it matches; no continuation token,
 * no Load more; a long operation running, no second one.
 */
import type { TransferFormat } from "@protocol/pages";
import { h } from "../dom";
import { MenuButton } from "./menu";
import { countLine } from "./cost";
import { formatCount } from "@core/text/words";

export interface ToolbarActions {
  insert(): void;
  deleteSelected(): void;
  deleteMatching(): void;
  more(): void;
  import(format: TransferFormat): void;
  export(scope: "result" | "table", format: TransferFormat): void;
  exportFolder(): void;
}

/** What the buttons depend on. */
export interface ToolbarState {
  /** The open table, if any. */
  open: boolean;
  /** Rows in the grid, and whether the service has more. */
  rows: number;
  more: boolean;
  selected: number;
  /** A filter that parses is in the editor (Delete matching… deletes what it matches). */
  filter: boolean;
  busy: boolean;
}

const FORMATS = ["json", "csv"] as const;

export class Toolbar {
  readonly element: HTMLElement;
  private readonly insert: HTMLButtonElement;
  private readonly remove: HTMLButtonElement;
  private readonly removeMatching: HTMLButtonElement;
  private readonly more: HTMLButtonElement;
  private readonly importMenu: MenuButton;
  private readonly exportMenu: MenuButton;
  private readonly count = h("span", { class: "count", "aria-live": "polite" });

  constructor(actions: ToolbarActions) {
    this.insert = h("button", { class: "secondary insert-new", onclick: () => actions.insert() }, "Insert…");
    this.remove = h("button", { class: "secondary delete", onclick: () => actions.deleteSelected() }, "Delete selected");
    this.removeMatching = h(
      "button",
      {
        class: "secondary delete-matching",
        title: "Delete every entity the filter matches, loaded or not",
        onclick: () => actions.deleteMatching(),
      },
      "Delete matching…",
    );
    this.more = h("button", { class: "secondary more", onclick: () => actions.more() }, "Load more");
    this.importMenu = new MenuButton(
      "Import…",
      "import",
      FORMATS.map((f) => ({ label: `From a ${f.toUpperCase()} file…`, name: `import-${f}`, run: () => actions.import(f) })),
    );
    this.exportMenu = new MenuButton("Export…", "export", [
      ...FORMATS.map((f) => ({
        label: `This result as ${f.toUpperCase()}…`,
        name: `export-result-${f}`,
        run: () => actions.export("result", f),
      })),
      ...FORMATS.map((f) => ({
        label: `The whole table as ${f.toUpperCase()}…`,
        name: `export-table-${f}`,
        run: () => actions.export("table", f),
      })),
      { label: "The whole table to a folder (resumable)…", name: "export-table-folder", run: () => actions.exportFolder() },
    ]);
    this.element = h(
      "div",
      { class: "toolbar" },
      this.insert,
      this.remove,
      this.removeMatching,
      this.more,
      this.importMenu.element,
      this.exportMenu.element,
      this.count,
    );
  }

  update(s: ToolbarState): void {
    this.count.textContent = s.open ? countLine(s.rows, s.more) : "";
    this.insert.disabled = !s.open;
    this.more.disabled = !s.open || !s.more;
    this.importMenu.disabled = this.exportMenu.disabled = !s.open || s.busy;
    this.remove.disabled = !s.selected || s.busy;
    this.removeMatching.disabled = !s.open || !s.filter || s.busy;
    this.remove.textContent = s.selected ? `Delete ${formatCount(s.selected)} selected` : "Delete selected";
  }
}
