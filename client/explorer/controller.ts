/**
 * The explorer panel's host side, free of `vscode`: answers the page's
 * requests (already checked by the `WebviewHost` against
 * `EXPLORER_SHAPES`) with the account layer, and asks the user through an
 * injected `ExplorerUi` (VS Code dialogs in the extension, scripted answers
 * in the browser tests). All I/O happens here; the page only renders.
 * Every failure reaches the page as a sentence for the user, with the
 * service's answer as its details (`explain`).
 */
import { AccountSession, serialize } from "@runtime";
import type { EdmType } from "@protocol";
import { parseFilter, classifyFilter, plural, stringLiteral as literal } from "@core";
import { EventOf, MethodOf, ParamsOf, ResultOf, StateOf } from "@protocol/pages";
import type { Handlers, ViewSpec } from "../webview-host/host";
import { EXPLORER_SHAPES } from "./shapes";
import { deleteVersions } from "./delete-versions";
import { ActiveConnection, ConnectionStore } from "./connections";
import { ErrorScene, explain, PanelError } from "./service-errors";
import { Operations } from "./operations";
import { readAll } from "./read-all";
import type { ExplorerUi } from "./ui";
import { bulkDelete, bulkExport, type BulkContext } from "./bulk-jobs";
import { ImportPlans } from "./import-plans";
import { designColumns } from "./design-columns";
import type { FilterProperty } from "@protocol/filter-words";

export type { ConnectionStore } from "./connections";
export type { ExplorerUi } from "./ui";

type ExplorerEvent = EventOf<"explorer">;

/** `'it''s'`: a string literal of OData (quotes doubled). */
/**
 * A `$select` that keeps the keys: the service returns only the properties
 * named, and rows without their keys could not be told apart, opened,
 * edited or deleted.
 */
const withKeys = (select: string[] | undefined) => (select?.length ? [...new Set(["PartitionKey", "RowKey", ...select])] : select);

export class ExplorerController {
  /** Its active connection: what the extension's commands work on while the panel is open. */
  readonly connection: ActiveConnection;
  private readonly operations = new Operations();
  private readonly imports: ImportPlans;
  private readonly bulk: BulkContext;

  constructor(
    store: ConnectionStore,
    private readonly ui: ExplorerUi,
    private readonly emit: (e: ExplorerEvent) => void,
  ) {
    this.connection = new ActiveConnection(store, emit);
    this.imports = new ImportPlans(ui, this.operations, (id, done, total) => this.progress("import", id, done, total));
    this.bulk = {
      session: () => this.need(),
      ui,
      operations: this.operations,
      progress: (operation, id, done, total) => this.progress(operation, id, done, total),
    };
  }

  get activeConnection(): AccountSession | undefined {
    return this.connection.current;
  }

  /** What the `WebviewHost` serves: the explorer's shapes, these handlers and the current connections. */
  view(): ViewSpec<"explorer"> {
    return { view: "explorer", shapes: EXPLORER_SHAPES, handlers: this.explained, state: () => this.snapshot() };
  }

  /** Connects on open: to the running emulator, else to the connection used last (see `ActiveConnection.open`). */
  open(): Promise<void> {
    return this.connection.open(() => this.ui.runningEmulator());
  }

  /** Runs one request from the host itself (not from the page: no shape check). */
  async handle<M extends MethodOf<"explorer">>(method: M, params: ParamsOf<"explorer", M>): Promise<ResultOf<"explorer", M>> {
    return (this.explained[method] as (p: ParamsOf<"explorer", M>) => Promise<ResultOf<"explorer", M>>)(params);
  }

  /** Makes a stored connection the active one once it answers. */
  async activate(id: string): Promise<void> {
    await this.connection.activate(id);
  }

  /** Cancels what is running (the panel closed). */
  dispose(): void {
    this.operations.cancelAll();
  }

  private snapshot(): StateOf<"explorer"> {
    return this.connection.snapshot();
  }

  private need(): AccountSession {
    return this.connection.need();
  }

  private readonly handlers: Handlers<"explorer"> = {
    "connect.emulator": async () => {
      const { info, secret } = await this.ui.emulator();
      return this.connection.add(info, secret);
    },
    "connect.prompt": async () => {
      const made = await this.ui.promptConnection();
      return made ? this.connection.add(made.info, made.secret) : null;
    },
    "connection.select": async ({ id }) => ({ tables: await this.connection.activate(id) }),
    "connection.remove": async ({ id }) => ({ connections: await this.connection.remove(id) }),
    "tables.list": async () => this.need().listTables(),
    "table.create": async ({ name }) => {
      await this.need().createTable(name);
      return this.need().listTables();
    },
    "table.delete": async ({ name }) => {
      if (!(await this.ui.confirm(`Delete table '${name}' and every entity in it? This cannot be undone.`))) return null;
      await this.need().deleteTable(name);
      return this.need().listTables();
    },
    "entities.page": async ({ table, continuationToken, filter, select }) =>
      this.need().page(table, { continuationToken, filter: filter?.trim() || undefined, select: withKeys(select) }),
    "entity.get": async ({ table, partitionKey, rowKey }) => this.need().getEntity(table, partitionKey, rowKey),
    "entity.insert": async ({ table, row }) => this.need().insertEntity(table, row),
    "entity.matches": async ({ table, filter, partitionKey, rowKey }) => {
      const keys = `PartitionKey eq ${literal(partitionKey)} and RowKey eq ${literal(rowKey)}`;
      const page = await this.need().page(table, { filter: filter.trim() ? `(${filter}) and ${keys}` : keys, pageSize: 1 });
      return page.entities.length > 0;
    },
    "entity.update": async ({ table, row, etag }) => this.need().updateEntity(table, row, etag),
    "entities.delete": async ({ table, entities, operation }) => {
      if (!(await this.ui.confirm(`Delete ${plural(entities.length, "entity", "entities")} from '${table}'?`))) return null;
      return this.ui.withProgress(`Deleting ${plural(entities.length, "entity", "entities")}`, (report, outer) =>
        this.operations.run(operation, outer, (signal) => {
          this.progress("delete", operation, 0, entities.length);
          return deleteVersions(
            this.need(),
            table,
            entities,
            (done, total) => {
              report(done, total);
              this.progress("delete", operation, done, total);
            },
            signal,
          );
        }),
      );
    },
    "query.run": async ({ table, filter, select, limit }) => {
      const parsed = filter.trim() ? parseFilter(filter) : undefined;
      if (parsed && !parsed.ok)
        throw new PanelError(
          `the filter does not parse at character ${parsed.error.start + 1}: ${parsed.error.message}`,
          undefined,
          "input",
        );
      const result = await this.need().query(table, filter, { select: withKeys(select), limit });
      const classification = parsed?.ok ? classifyFilter(parsed.expr) : null;
      return { ...result, classification };
    },
    "columns.sample": async ({ table }) => {
      const page = await this.need().page(table, { pageSize: 100 });
      const types = new Map<string, Set<EdmType>>();
      for (const e of page.entities)
        for (const [k, v] of Object.entries(e.properties)) types.set(k, (types.get(k) ?? new Set<EdmType>()).add(v.type));
      // A type only when the sample agrees on one: completion then offers that type's literal first.
      const sampled: FilterProperty[] = [...types]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, seen]) => (seen.size === 1 ? { name, type: [...seen][0] } : { name }));
      // The open design's properties of this table too, so an empty or new table completes its columns; the data's type wins.
      const declared = designColumns(this.ui.openDesigns?.() ?? [], table).filter((d) => !types.has(d.name));
      return [...sampled, ...declared].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    "import.plan": async ({ table, format, choices, plan }) => this.imports.plan(table, format, choices, plan),
    "import.run": async ({ table, plan, choices, operation }) => this.imports.run(this.need(), table, plan, choices, operation),
    "data.export": async ({ table, format, scope, filter, select, operation }) => {
      const target = await this.ui.saveTarget(format, `${table}${scope === "result" ? "-result" : ""}.${format}`);
      if (!target) return { outcome: "declined" };
      const query = scope === "result" ? { filter: filter?.trim() || undefined, select: withKeys(select) } : {};
      const title = scope === "result" ? `Exporting the result from ${table}` : `Exporting the whole table ${table}`;
      const read = await this.ui.withProgress(title, (report, outer) =>
        this.operations.run(operation, outer, (signal) => {
          this.progress("export", operation, 0);
          return readAll(
            this.need(),
            table,
            query,
            (done) => {
              report(done);
              this.progress("export", operation, done);
            },
            signal,
          );
        }),
      );
      if (!read.complete) return { outcome: "cancelled", read: read.rows.length };
      await this.ui.writeFile(target, serialize(read.rows, format));
      return { outcome: "saved", exported: read.rows.length, file: target };
    },
    "bulk.export": async ({ table, operation }) => bulkExport(this.bulk, table, operation),
    "bulk.delete": async ({ table, filter, operation }) => bulkDelete(this.bulk, table, filter, operation),
    "operation.cancel": async ({ operation }) => this.operations.cancel(operation),
    "design.infer": async ({ table }) => {
      if (!this.ui.inferDesign)
        throw new PanelError("inferring a design is not available here: run it from VS Code", undefined, "unavailable");
      // The command reads the explorer's active connection; without one it would fall back to the emulator, not this table.
      this.need();
      await this.ui.inferDesign(table);
      return null;
    },
  };

  /** The handlers, each failure explained for the page with what the request was about. */
  private readonly explained = Object.fromEntries(
    Object.entries(this.handlers).map(([method, run]) => [
      method,
      async (params: Record<string, unknown>) => {
        try {
          return await (run as (p: unknown) => Promise<unknown>)(params);
        } catch (e) {
          throw explain(e, sceneOf(params));
        }
      },
    ]),
  ) as unknown as Handlers<"explorer">;

  /** Progress of an operation; its first event (0 done) tells the page it has begun, past its dialogs, and can be cancelled. */
  private progress(operation: string, id: string | undefined, done: number, total?: number): void {
    this.emit({ type: "progress", operation, ...(id === undefined ? {} : { id }), done, ...(total === undefined ? {} : { total }) });
  }
}

/** What a request was about, for the error's sentence. */
function sceneOf(params: Record<string, unknown>): ErrorScene {
  const scene: ErrorScene = {};
  if (typeof params.table === "string") scene.table = params.table;
  if (typeof params.filter === "string") scene.filter = params.filter;
  const row = params.row as { partitionKey?: unknown; rowKey?: unknown } | undefined;
  if (row && typeof row.partitionKey === "string" && typeof row.rowKey === "string")
    scene.row = { partitionKey: row.partitionKey, rowKey: row.rowKey };
  else if (typeof params.partitionKey === "string" && typeof params.rowKey === "string")
    scene.row = { partitionKey: params.partitionKey, rowKey: params.rowKey };
  return scene;
}
