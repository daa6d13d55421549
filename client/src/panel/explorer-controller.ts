/**
 * The explorer panel's host side, free of `vscode`: answers the page's
 * requests (already checked by the `WebviewHost` against
 * `EXPLORER_SHAPES`) with the account layer, and asks the user through an
 * injected `ExplorerUi` (VS Code dialogs in the extension, scripted answers
 * in the browser tests). All I/O happens here; the page only renders.
 */
import { AccountSession, ConnectionInfo, EntityRow, Secret, deserialize, serialize } from "../runtime";
import { parseFilter, classifyFilter } from "../../../server/src/core";
import { EventOf, LIMITS, MethodOf, ParamsOf, ResultOf, StateOf, TransferFormat } from "../../../webview/src/protocol";
import type { Handlers, ViewSpec } from "./webview-host";
import { EXPLORER_SHAPES } from "./explorer-shapes";
import { deleteVersions } from "./delete-versions";

type ExplorerEvent = EventOf<"explorer">;

/** Where connections live: names, endpoints and kinds in global state; secrets in secret storage. */
export interface ConnectionStore {
  list(): ConnectionInfo[];
  save(info: ConnectionInfo, secret: Secret): Promise<void>;
  secret(id: string): Promise<Secret | undefined>;
  remove(id: string): Promise<void>;
}

/** What the host asks the user, and where files come from and go to. */
export interface ExplorerUi {
  confirm(message: string): Promise<boolean>;
  /** Asks for a new connection in the host's own inputs; undefined when cancelled. */
  promptConnection(): Promise<{ info: ConnectionInfo; secret: Secret } | undefined>;
  /** Starts (or returns) the embedded emulator. */
  emulator(): Promise<{ info: ConnectionInfo; secret: Secret }>;
  openFile(format: TransferFormat): Promise<{ path: string; text: string } | undefined>;
  saveFile(format: TransferFormat, suggestedName: string, text: () => string): Promise<string | undefined>;
  /** Runs work under a cancellable progress indicator. */
  withProgress<T>(title: string, work: (report: (done: number, total?: number) => void, signal: AbortSignal) => Promise<T>): Promise<T>;
}

export class ExplorerController {
  private session: AccountSession | undefined;
  private active: string | undefined;

  constructor(private readonly store: ConnectionStore, private readonly ui: ExplorerUi, private readonly emit: (e: ExplorerEvent) => void) {}

  get activeConnection(): AccountSession | undefined {
    return this.session;
  }

  /** What the `WebviewHost` serves: the explorer's shapes, these handlers and the current connections. */
  view(): ViewSpec<"explorer"> {
    return { view: "explorer", shapes: EXPLORER_SHAPES, handlers: this.handlers, state: () => this.snapshot() };
  }

  /** Runs one request from the host itself (not from the page: no shape check). */
  async handle<M extends MethodOf<"explorer">>(method: M, params: ParamsOf<"explorer", M>): Promise<ResultOf<"explorer", M>> {
    return (this.handlers[method] as (p: ParamsOf<"explorer", M>) => Promise<ResultOf<"explorer", M>>)(params);
  }

  private snapshot(): StateOf<"explorer"> {
    return { connections: this.store.list(), active: this.active };
  }

  private readonly handlers: Handlers<"explorer"> = {
    "connect.emulator": async () => {
      const { info, secret } = await this.ui.emulator();
      await this.store.save(info, secret);
      await this.activate(info.id);
      return info;
    },
    "connect.prompt": async () => {
      const made = await this.ui.promptConnection();
      if (!made) return null;
      await this.store.save(made.info, made.secret);
      await this.activate(made.info.id);
      return made.info;
    },
    "connection.select": async ({ id }) => {
      await this.activate(id);
      return { tables: await this.need().listTables() };
    },
    "connection.remove": async ({ id }) => {
      await this.store.remove(id);
      if (this.active === id) { this.active = undefined; this.session = undefined; }
      this.announce();
      return { connections: this.store.list() };
    },
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
    "entities.page": async ({ table, continuationToken }) => this.need().page(table, { continuationToken }),
    "entity.get": async ({ table, partitionKey, rowKey }) => this.need().getEntity(table, partitionKey, rowKey),
    "entity.insert": async ({ table, row }) => this.need().insertEntity(table, row),
    "entity.update": async ({ table, row, etag }) => this.need().updateEntity(table, row, etag),
    "entities.delete": async ({ table, entities }) => {
      if (!(await this.ui.confirm(`Delete ${entities.length} entit${entities.length === 1 ? "y" : "ies"} from '${table}'?`))) return null;
      return this.ui.withProgress(`Deleting ${entities.length} entities`, (report, signal) =>
        deleteVersions(this.need(), table, entities, (done, total) => { report(done, total); this.progress("delete", done, total); }, signal));
    },
    "query.run": async ({ table, filter, select, limit }) => {
      const parsed = filter.trim() ? parseFilter(filter) : undefined;
      if (parsed && !parsed.ok) throw new Error(`the filter does not parse at ${parsed.error.start + 1}: ${parsed.error.message}`);
      const result = await this.need().query(table, filter, { select, limit });
      const classification = parsed?.ok ? classifyFilter(parsed.expr) : null;
      return { ...result, classification };
    },
    "columns.sample": async ({ table }) => {
      const page = await this.need().page(table, { pageSize: 100 });
      const names = new Set<string>();
      for (const e of page.entities) for (const k of Object.keys(e.properties)) names.add(k);
      return [...names].sort();
    },
    "data.import": async ({ table, format }) => {
      const file = await this.ui.openFile(format);
      if (!file) return null;
      if (file.text.length > LIMITS.importChars) throw new Error(`the file is larger than ${LIMITS.importChars / 1024 / 1024} MiB: split it and import the parts`);
      const rows = deserialize(file.text, format);
      if (rows.length > LIMITS.importRows) throw new Error(`the file holds ${rows.length.toLocaleString("en-US")} entities, more than ${LIMITS.importRows.toLocaleString("en-US")}: split it and import the parts`);
      const imported = await this.ui.withProgress(`Importing ${rows.length} entities into ${table}`, (report, signal) =>
        this.need().upsertRows(table, rows, (done, total) => { report(done, total); this.progress("import", done, total); }, signal));
      return { imported };
    },
    "data.export": async ({ table, format, filter }) => {
      const rows = await this.ui.withProgress(`Exporting ${table}`, async (report, signal) => {
        const all: EntityRow[] = [];
        let token: string | undefined;
        do {
          const page = await this.need().page(table, { filter, continuationToken: token });
          all.push(...page.entities);
          token = page.continuationToken;
          report(all.length);
          this.progress("export", all.length);
        } while (token && !signal.aborted);
        return all;
      });
      const file = await this.ui.saveFile(format, `${table}.${format}`, () => serialize(rows, format));
      return file ? { exported: rows.length, file } : null;
    },
  };

  /** Makes a stored connection the active one (no network call). */
  async activate(id: string): Promise<void> {
    const info = this.store.list().find((c) => c.id === id);
    if (!info) throw new Error("that connection no longer exists");
    const secret = (await this.store.secret(id)) ?? {};
    this.session = new AccountSession(info, secret);
    this.active = id;
    this.announce();
  }

  private need(): AccountSession {
    if (!this.session) throw new Error("no connection: connect to an account or start the emulator first");
    return this.session;
  }

  private announce(): void {
    this.emit({ type: "connections", connections: this.store.list(), active: this.active });
  }

  private progress(operation: string, done: number, total?: number): void {
    this.emit({ type: "progress", operation, done, total });
  }
}
