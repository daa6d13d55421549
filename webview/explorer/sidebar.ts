/**
 * The explorer's sidebar: connections (the emulator, Connect…, the stored
 * ones with the active one marked) and the active connection's tables
 * (create, open, infer a design, delete — from the row's buttons or its
 * context menu). Each list says what to do when it is empty.
 */
import type { ConnectionInfo } from "@protocol/entities";
import { clear, h } from "../dom";
import { TableMenu } from "./table-menu";

export interface SidebarActions {
  emulator(): void;
  prompt(): void;
  select(id: string): void;
  forget(id: string): void;
  create(name: string): void;
  open(table: string): void;
  /** Infers a design from the table (VS Code's "Infer a Design from a Table…" on the active connection). */
  infer(table: string): void;
  remove(table: string): void;
  /** Exports every entity of the table to a folder (resumable). */
  exportFolder(table: string): void;
  /** Deletes every entity of the table, which stays. */
  clear(table: string): void;
}

/** What the tables list shows: no connection, the tables, or why there are none to show. */
export type TablesView =
  { kind: "disconnected" } | { kind: "loading" } | { kind: "failed" } | { kind: "tables"; tables: string[]; open?: string };

export class Sidebar {
  readonly element: HTMLElement;
  private readonly connList = h("ul", { class: "connections", "aria-label": "Connections" });
  private readonly tableList = h("ul", { class: "tables", "aria-label": "Tables" });
  private readonly newTable = h("input", { placeholder: "new table name", "aria-label": "New table name", class: "new-table" });
  private readonly createButton: HTMLButtonElement;
  private readonly menu: TableMenu;
  private connecting: string | undefined;

  constructor(private readonly actions: SidebarActions) {
    this.menu = new TableMenu(actions);
    this.createButton = h("button", { class: "create", onclick: () => this.create() }, "Create");
    this.newTable.addEventListener("keydown", (e) => {
      if (e.key === "Enter") this.create();
    });
    this.element = h(
      "aside",
      { class: "sidebar" },
      h(
        "section",
        { class: "side-section" },
        h("h2", {}, "Connections"),
        h(
          "div",
          { class: "row" },
          h(
            "button",
            { class: "emulator", title: "Start the embedded emulator (Azurite) and connect to it", onclick: () => actions.emulator() },
            "Emulator",
          ),
          h(
            "button",
            {
              class: "secondary connect",
              title: "Connect with a connection string, a SAS token or Microsoft Entra ID",
              onclick: () => actions.prompt(),
            },
            "Connect…",
          ),
        ),
        this.connList,
      ),
      h(
        "section",
        { class: "side-section" },
        h("h2", {}, "Tables"),
        h("div", { class: "row" }, this.newTable, this.createButton),
        this.tableList,
      ),
      this.menu.element,
    );
  }

  /** Marks a connection as being connected to (until the next `setConnections`). */
  connectingTo(id: string | undefined): void {
    this.connecting = id;
    for (const li of this.connList.querySelectorAll<HTMLElement>("li")) li.classList.toggle("connecting", li.dataset.id === id);
  }

  setConnections(connections: ConnectionInfo[], active: string | undefined): void {
    clear(this.connList);
    if (!connections.length) {
      this.connList.append(h("li", { class: "empty" }, "No connections yet — start the emulator or connect to an account."));
      return;
    }
    for (const c of connections) {
      const isActive = c.id === active;
      this.connList.append(
        h(
          "li",
          {
            class: `${isActive ? "active" : ""}${c.id === this.connecting ? " connecting" : ""}`,
            title: c.endpoint,
            dataset: { id: c.id },
          },
          h("button", { class: "link", "aria-current": isActive ? "true" : undefined, onclick: () => this.actions.select(c.id) }, c.name),
          h("span", { class: "kind" }, c.kind),
          h(
            "button",
            {
              class: "icon",
              title: `Forget the connection ${c.name}`,
              "aria-label": `Forget the connection ${c.name}`,
              onclick: () => this.actions.forget(c.id),
            },
            "✕",
          ),
        ),
      );
    }
  }

  setTables(view: TablesView): void {
    // A menu left open on a row that is redrawn (or gone) would act on a table the list no longer shows.
    this.menu.close(false);
    clear(this.tableList);
    const connected = view.kind !== "disconnected";
    this.newTable.disabled = this.createButton.disabled = !connected;
    const say = (text: string) => this.tableList.append(h("li", { class: "empty" }, text));
    if (view.kind === "disconnected") return say("Connect to see the tables.");
    if (view.kind === "loading") return say("Listing the tables…");
    if (view.kind === "failed") return say("The tables could not be listed (see the error).");
    if (!view.tables.length) return say("No tables yet — create one: type a name above and press Create.");
    for (const t of view.tables) {
      const open = t === view.open;
      const link = h(
        "button",
        {
          class: "link",
          "aria-current": open ? "true" : undefined,
          "aria-haspopup": "menu",
          title: `Open ${t} (Shift+F10 or right-click for more)`,
          onclick: () => this.actions.open(t),
        },
        t,
      );
      const li = h(
        "li",
        { class: open ? "active" : "", dataset: { table: t } },
        link,
        h(
          "button",
          {
            class: "icon infer-design",
            title: `Infer a design from the entities of ${t}`,
            "aria-label": `Infer a design from table ${t}…`,
            onclick: () => this.actions.infer(t),
          },
          "Infer…",
        ),
        h(
          "button",
          {
            class: "icon delete-table",
            title: `Delete table ${t}`,
            "aria-label": `Delete table ${t}`,
            onclick: () => this.actions.remove(t),
          },
          "✕",
        ),
      );
      // The row's context menu: a right-click anywhere on it, or the keyboard's menu key (Shift+F10) on its name.
      li.addEventListener("contextmenu", (e) => {
        e.preventDefault();
        this.menu.open(t, e.clientX || e.pageX ? { x: e.clientX, y: e.clientY } : undefined, link);
      });
      link.addEventListener("keydown", (e) => {
        if (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) {
          e.preventDefault();
          this.menu.open(t, undefined, link);
        }
      });
      this.tableList.append(li);
    }
  }

  focusNewTable(): void {
    this.newTable.focus();
  }

  private create(): void {
    const name = this.newTable.value.trim();
    if (!name) {
      this.newTable.focus();
      return;
    }
    this.actions.create(name);
  }

  /** Empties the name box once the table exists. */
  created(): void {
    this.newTable.value = "";
  }
}
