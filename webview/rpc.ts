/**
 * The page side of the protocol: one connection per page that says `ready`,
 * receives `init` (which view, with its typed start state) and hands out a
 * client typed by that view — requests matched to responses by id, host
 * events to listeners, and the VS Code state API.
 */
import type {
  EventOf,
  HostToWebview,
  InitMessage,
  MethodOf,
  PageClient,
  ParamsOf,
  ResultOf,
  ViewName,
  WebviewToHost,
} from "@protocol/pages";

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** The page's connection to its host, before it knows which view it shows. */
export class HostConnection {
  private readonly api = acquireVsCodeApi();
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners: Array<(e: unknown) => void> = [];
  private started = false;

  /** Announces the page; `onInit` runs once, with the view the host serves and its start state. */
  start(onInit: (init: InitMessage) => void): void {
    window.addEventListener("message", (event: MessageEvent<HostToWebview>) => this.receive(event.data, onInit));
    this.api.postMessage({ type: "ready" });
  }

  /** A client that can make only view `V`'s requests (call it with the `init.view` the host sent). */
  client<V extends ViewName>(_view: V): ViewClient<V> {
    return new ViewClient<V>(this);
  }

  send(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.api.postMessage({ type: "request", id, method, params });
    });
  }

  listen(listener: (e: unknown) => void): void {
    this.listeners.push(listener);
  }

  get state(): Record<string, unknown> {
    return (this.api.getState() as Record<string, unknown>) ?? {};
  }

  saveState(patch: Record<string, unknown>): void {
    this.api.setState({ ...this.state, ...patch });
  }

  private receive(msg: HostToWebview, onInit: (init: InitMessage) => void): void {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "init") {
      if (this.started) return;
      this.started = true;
      onInit(msg as InitMessage);
    } else if (msg.type === "event") for (const l of this.listeners) l(msg.event);
    else if (msg.type === "response") {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      // The failure keeps its kind and details: the page shows it as every page does (problem.ts).
      else p.reject(Object.assign(new Error(msg.error), { kind: msg.kind }, msg.details ? { details: msg.details } : {}));
    }
  }
}

/** The typed face of the connection for one view. */
export class ViewClient<V extends ViewName> implements PageClient<V> {
  constructor(private readonly connection: HostConnection) {}

  request<M extends MethodOf<V>>(method: M, params: ParamsOf<V, M>): Promise<ResultOf<V, M>> {
    return this.connection.send(method, params) as Promise<ResultOf<V, M>>;
  }

  onEvent(listener: (event: EventOf<V>) => void): void {
    this.connection.listen(listener as (e: unknown) => void);
  }

  get state(): Record<string, unknown> {
    return this.connection.state;
  }

  saveState(patch: Record<string, unknown>): void {
    this.connection.saveState(patch);
  }
}
