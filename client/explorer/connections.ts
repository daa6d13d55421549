/**
 * The explorer's active connection. A connection becomes active only once
 * it has answered (its tables listed): one that fails leaves the working
 * one in place, and the error says so. On open, the explorer connects to
 * the embedded emulator when it runs, else to the connection used last.
 */
import { AccountSession, type Secret } from "@runtime";
import type { ConnectionInfo } from "@protocol";
import type { ConnectionsEvent, Notice, NoticeEvent, StateOf } from "@protocol/pages";
import { explain, PanelError } from "./service-errors";

/** Where connections live: names, endpoints and kinds in global state; secrets in secret storage. */
export interface ConnectionStore {
  list(): ConnectionInfo[];
  save(info: ConnectionInfo, secret: Secret): Promise<void>;
  secret(id: string): Promise<Secret | undefined>;
  remove(id: string): Promise<void>;
  /** The connection that was active last (restored when the explorer opens again). */
  lastUsed?(): string | undefined;
  markUsed?(id: string): Promise<void>;
}

export type MakeSession = (info: ConnectionInfo, secret: Secret) => AccountSession;

export class ActiveConnection {
  private session: AccountSession | undefined;
  private active: string | undefined;
  private notice: Notice | undefined;
  /** The latest activation: an earlier one that answers later does not take over. */
  private ticket = 0;

  constructor(
    private readonly store: ConnectionStore,
    private readonly emit: (e: ConnectionsEvent | NoticeEvent) => void,
    private readonly makeSession: MakeSession = (info, secret) => new AccountSession(info, secret),
  ) {}

  get current(): AccountSession | undefined {
    return this.session;
  }

  /** The page's start state; a notice (a connection that could not be restored) only when there is one. */
  snapshot(): StateOf<"explorer"> {
    const state: StateOf<"explorer"> = { connections: this.store.list(), active: this.active };
    if (this.notice) state.notice = this.notice;
    return state;
  }

  need(): AccountSession {
    if (!this.session) throw new PanelError("no connection: connect to an account or start the emulator first", undefined, "usage");
    return this.session;
  }

  /**
   * Connects to the stored connection `id`: lists its tables with a new
   * session, and only then makes it the active one (announced with those
   * tables). On failure the active connection stays as it was.
   */
  async activate(id: string): Promise<string[]> {
    const info = this.store.list().find((c) => c.id === id);
    if (!info) throw new PanelError("that connection no longer exists");
    const ticket = ++this.ticket;
    const session = this.makeSession(info, (await this.store.secret(id)) ?? {});
    let tables: string[];
    try {
      tables = await session.listTables();
    } catch (e) {
      const why = explain(e);
      if (!(why instanceof PanelError)) throw why;
      const still = this.session && this.active !== id ? `; still connected to '${this.session.connection.name}'` : "";
      throw new PanelError(`could not connect to '${info.name}': ${why.message}${still}`, why.details, why.kind);
    }
    if (ticket !== this.ticket) return tables;
    this.session = session;
    this.active = id;
    this.notice = undefined;
    await this.store.markUsed?.(id);
    this.emit({ type: "connections", connections: this.store.list(), active: id, tables });
    return tables;
  }

  /** Saves a new connection, then connects to it (a failure keeps it stored, for another try). */
  async add(info: ConnectionInfo, secret: Secret): Promise<ConnectionInfo> {
    await this.store.save(info, secret);
    this.announce();
    await this.activate(info.id);
    return info;
  }

  async remove(id: string): Promise<ConnectionInfo[]> {
    await this.store.remove(id);
    if (this.active === id) {
      this.active = undefined;
      this.session = undefined;
      this.ticket++;
    }
    this.announce();
    return this.store.list();
  }

  /**
   * On open: nothing to do when a connection is active; else the running
   * emulator, else the connection used last. A failure is told to the page
   * as a notice (it has not asked anything yet).
   */
  async open(runningEmulator: () => Promise<{ info: ConnectionInfo; secret: Secret } | undefined>): Promise<void> {
    if (this.session) return;
    let name = "the connection used last";
    try {
      const emulator = await runningEmulator();
      if (emulator) {
        name = emulator.info.name;
        await this.add(emulator.info, emulator.secret);
        return;
      }
      const last = this.store.lastUsed?.();
      const info = last ? this.store.list().find((c) => c.id === last) : undefined;
      if (!info) return;
      name = `'${info.name}'`;
      await this.activate(info.id);
    } catch (e) {
      const why = explain(e);
      this.notice = {
        message: `${why.message.startsWith("could not connect") ? why.message : `could not reconnect to ${name}: ${why.message}`}. Pick a connection, or start the emulator.`,
        ...(why instanceof PanelError && why.details ? { details: why.details } : {}),
      };
      this.emit({ type: "notice", notice: this.notice });
    }
  }

  private announce(): void {
    this.emit({ type: "connections", connections: this.store.list(), active: this.active });
  }
}
