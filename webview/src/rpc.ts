/**
 * The webview side of the protocol: typed requests matched to responses by
 * id, host events to listeners, and the VS Code state API.
 */
import type { HostEvent, HostToWebview, Method, Requests, WebviewToHost } from "./protocol";

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export class HostConnection {
  private readonly api = acquireVsCodeApi();
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners: Array<(e: HostEvent) => void> = [];
  private initListener: ((msg: Extract<HostToWebview, { type: "init" }>) => void) | undefined;

  constructor() {
    window.addEventListener("message", (event: MessageEvent<HostToWebview>) => this.receive(event.data));
  }

  /** Announces the UI; the host answers with `init`. */
  ready(onInit: (msg: Extract<HostToWebview, { type: "init" }>) => void): void {
    this.initListener = onInit;
    this.api.postMessage({ type: "ready" });
  }

  request<M extends Method>(method: M, params: Requests[M]["params"]): Promise<Requests[M]["result"]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.api.postMessage({ type: "request", id, method, params });
    });
  }

  onEvent(listener: (e: HostEvent) => void): void {
    this.listeners.push(listener);
  }

  get state(): Record<string, unknown> {
    return (this.api.getState() as Record<string, unknown>) ?? {};
  }

  saveState(patch: Record<string, unknown>): void {
    this.api.setState({ ...this.state, ...patch });
  }

  private receive(msg: HostToWebview): void {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "init") this.initListener?.(msg);
    else if (msg.type === "event") for (const l of this.listeners) l(msg.event);
    else if (msg.type === "response") {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new Error(msg.error));
    }
  }
}
