/**
 * A page's host side, declared once: the module `pages/<view>.ts` exports
 * a `HostPage` (its request shapes, how it serves a panel, what its command
 * does), and the extension's panels (client/panels/pages.ts) do the rest
 * for every view of the registry (`PAGES`): the panel, its typed host, the
 * command that opens it, its restoring after a reload. Free of `vscode`: a
 * page needs only the services below, and tests serve exactly what the
 * panels serve.
 */
import type { CommandName } from "@protocol/commands";
import type { EventOf, StateOf, ViewName } from "@protocol/pages";
import type { ConnectionInfo, TrafficSecond } from "@protocol";
import type { Secret } from "@runtime";
import type { ConnectionStore, ExplorerUi } from "../explorer/controller";
import type { ActiveConnection } from "../explorer/connections";
import type { Handlers, Shapes, ViewSpec } from "../webview-host/host";

/** The embedded emulator, as pages use it. */
export interface PageEmulator {
  readonly running: boolean;
  /** Starts it once; later calls return the running one. */
  start(): Promise<{ info: ConnectionInfo; secret: Secret }>;
  /** The seconds of traffic it recorded lately. */
  recentTraffic(): TrafficSecond[];
  onTraffic(listener: (s: TrafficSecond) => void): void;
  offTraffic(listener: (s: TrafficSecond) => void): void;
}

/** What the extension gives every page; a page that needs more adds it here (and in extension.ts). */
export interface PageServices {
  store: ConnectionStore;
  ui: ExplorerUi;
  emulator: PageEmulator;
  /** Runs one of the extension's commands (failures are reported by the command itself). */
  execute(name: CommandName, ...args: unknown[]): PromiseLike<unknown>;
  /**
   * The active connection of the explorer opened last, while its panel is
   * open (its host sets and clears it): the stress, infer and live-data
   * commands work on its session.
   */
  active: { connection?: ActiveConnection };
}

/** One panel's service: its handlers, its start state, and what to undo when the panel closes. */
export interface Served<V extends ViewName> {
  handlers: Handlers<V>;
  state(): StateOf<V>;
  dispose?(): void;
}

/** A page's host: `A` is what opening it takes (the stress report: its runs). */
export interface HostPage<V extends ViewName, A = undefined> {
  view: V;
  /** Where its panel opens (the active column unless "beside"). */
  column?: "active" | "beside";
  /** Keeps the page alive while hidden, instead of rendering it again from its state. */
  retain?: boolean;
  /** One panel at a time when opened without arguments (its command): opening it again brings it to the front. */
  single?: boolean;
  /** The declared shape of each request's params (checked before a handler runs). */
  shapes: Shapes<V>;
  /** The panel's title when opening it takes arguments; otherwise `PAGES[view].title`. */
  title?(args: A): string;
  /** Serves one panel; `emit` pushes an event to it. */
  serve(services: PageServices, emit: (event: EventOf<V>) => void, args: A): Served<V>;
  /**
   * What the page's command (`PAGES[view].command`) does: by default it
   * opens the page; a page that needs something first (the emulator, for
   * the heatmap) or after (a connection, for the explorer) says so here.
   */
  command?(services: PageServices, open: () => void): Promise<void>;
}

/** Declares a page's host (the identity, for the types). */
export function hostPage<V extends ViewName, A = undefined>(page: HostPage<V, A>): HostPage<V, A> {
  return page;
}

/** What the `WebviewHost` serves for one panel of `page`: the browser tests serve exactly this. */
export function viewSpec<V extends ViewName, A>(page: HostPage<V, A>, served: Served<V>): ViewSpec<V> {
  return { view: page.view, shapes: page.shapes, handlers: served.handlers, state: () => served.state() };
}
