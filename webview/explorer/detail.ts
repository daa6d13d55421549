/**
 * The entity detail view: keys, each property with its Edm type and value,
 * add or remove properties; Save replaces the entity only if its ETag still
 * matches (the host refuses a conflicting edit and says so, and the pane
 * offers Reload: the entity as it is now, the edits set aside), Insert
 * creates.
 */
import type { EntityRow } from "@protocol/entities";
import type { EdmType } from "@protocol";
import { clear, h } from "../dom";
import { Problem, problemNodes } from "../problem";

const TYPES: EdmType[] = ["String", "Int32", "Int64", "Double", "Boolean", "DateTime", "Guid", "Binary"];

export interface DetailActions {
  save(row: EntityRow, etag: string): Promise<EntityRow>;
  /** Inserts; `note` says where the new entity is (or why the grid does not show it). */
  insert(row: EntityRow): Promise<{ row: EntityRow; note?: string }>;
  /** Reads the entity as it is now (after a save was refused because someone changed it). */
  reload(row: EntityRow): Promise<EntityRow>;
  /** Turns an error into what to show: a sentence, and the service's answer behind "Details". */
  describe(e: unknown): Problem;
}

/** A save refused because the entity changed since it was read (HTTP 412): reloading is the way on. */
const isConflict = (p: Problem) => p.kind === "refused" && /^HTTP 412\b/.test(p.details ?? "");

export class EntityDetail {
  readonly element = h("section", { class: "detail", "aria-label": "Entity" });
  private row: EntityRow | undefined;
  private isNew = false;

  constructor(private readonly actions: DetailActions) {
    this.element.hidden = true;
    this.element.addEventListener("keydown", (e) => {
      if (e.key === "Escape") this.close();
    });
  }

  close(): void {
    this.element.hidden = true;
  }

  show(row: EntityRow | undefined): void {
    this.isNew = !row;
    this.row = row ? structuredClone(row) : { partitionKey: "", rowKey: "", properties: {} };
    this.render();
  }

  /** Shows the entity as it is now; what the user had typed is set aside, and the pane says so. */
  private async reload(was: EntityRow): Promise<void> {
    const status = this.element.querySelector<HTMLElement>(".status")!;
    status.textContent = "Reloading…";
    status.className = "status";
    try {
      const now = await this.actions.reload(was);
      this.show(now);
      this.element.querySelector(".status")!.textContent =
        "Reloaded: these are the current values (your edits were not saved: make them again, then Save).";
    } catch (e) {
      clear(status);
      status.append(...problemNodes(this.actions.describe(e)));
      status.className = "status error";
    }
  }

  private render(): void {
    const row = this.row!;
    clear(this.element);
    this.element.hidden = false;
    const status = h("div", { class: "status", role: "status" });
    const pk = h("input", { value: row.partitionKey, disabled: !this.isNew, "aria-label": "PartitionKey", class: "pk" });
    const rk = h("input", { value: row.rowKey, disabled: !this.isNew, "aria-label": "RowKey", class: "rk" });
    const props = h("div", { class: "props" });
    const addProp = (name = "", type: EdmType = "String", value = "") => {
      const n = h("input", { value: name, placeholder: "Name", class: "prop-name", "aria-label": "Property name" });
      const t = h(
        "select",
        { class: "prop-type", "aria-label": "Type" },
        ...TYPES.map((x) => h("option", { value: x, selected: x === type }, x)),
      );
      const v = h("input", { value, placeholder: "Value", class: "prop-value", "aria-label": `${name || "new"} value` });
      const line = h(
        "div",
        { class: "prop" },
        n,
        t,
        v,
        h("button", { class: "icon", title: "Remove property", onclick: () => line.remove() }, "✕"),
      );
      props.append(line);
    };
    for (const [name, v] of Object.entries(row.properties)) addProp(name, v.type, v.value);
    const collect = (): EntityRow => {
      const properties: EntityRow["properties"] = {};
      for (const line of props.querySelectorAll<HTMLElement>(".prop")) {
        const name = (line.querySelector(".prop-name") as HTMLInputElement).value.trim();
        if (!name) continue;
        properties[name] = {
          type: (line.querySelector(".prop-type") as HTMLSelectElement).value as EdmType,
          value: (line.querySelector(".prop-value") as HTMLInputElement).value,
        };
      }
      return { partitionKey: pk.value, rowKey: rk.value, properties };
    };
    const act = async (what: "save" | "insert") => {
      status.textContent = what === "save" ? "Saving…" : "Inserting…";
      status.className = "status";
      try {
        const done = what === "save" ? { row: await this.actions.save(collect(), row.etag ?? "") } : await this.actions.insert(collect());
        this.row = done.row;
        this.isNew = false;
        this.render();
        this.element.querySelector(".status")!.textContent =
          `${what === "save" ? "Saved." : "Inserted."}${"note" in done && done.note ? ` ${done.note}` : ""}`;
      } catch (e) {
        const problem = this.actions.describe(e);
        clear(status);
        status.append(...problemNodes(problem));
        if (what === "save" && isConflict(problem))
          status.append(h("button", { class: "secondary reload", onclick: () => void this.reload(row) }, "Reload"));
        status.className = "status error";
      }
    };
    this.element.append(
      h("h2", {}, this.isNew ? "New entity" : "Entity"),
      h("label", {}, "PartitionKey", pk),
      h("label", {}, "RowKey", rk),
      ...(row.etag ? [h("div", { class: "etag", title: "The version this edit is based on" }, `ETag ${row.etag}`)] : []),
      props,
      h(
        "div",
        { class: "actions" },
        h("button", { class: "secondary", onclick: () => addProp() }, "Add property"),
        this.isNew
          ? h("button", { class: "insert", onclick: () => act("insert") }, "Insert")
          : h("button", { class: "save", onclick: () => act("save") }, "Save"),
        h("button", { class: "secondary close", onclick: () => this.close() }, "Close"),
      ),
      status,
    );
  }
}
