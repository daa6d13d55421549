/**
 * A page channel for driving a real `WebviewHost` in unit tests: what the
 * host posts is recorded, and `send` delivers a message as the page would.
 * Handlers are wrapped so a test sees which requests reached them.
 */
import { Handlers, PageChannel, ViewSpec, WebviewHost } from "@client/webview-host/host";
import type { HostToWebview, ViewName } from "@protocol/pages";

export class RecordingChannel implements PageChannel {
  readonly posts: HostToWebview[] = [];
  private listener: ((m: unknown) => void) | undefined;
  /** Throws on post, as VS Code does once a webview is disposed. */
  failPosts = false;

  post(message: HostToWebview): unknown {
    if (this.failPosts) throw new Error("Webview is disposed");
    this.posts.push(message);
    return Promise.resolve(true);
  }

  onMessage(listener: (m: unknown) => void): { dispose(): void } {
    this.listener = listener;
    return {
      dispose: () => {
        this.listener = undefined;
      },
    };
  }

  get listening(): boolean {
    return this.listener !== undefined;
  }

  send(message: unknown): void {
    this.listener?.(message);
  }

  /** The answers to request `id`. */
  answers(id: number): HostToWebview[] {
    return this.posts.filter((p) => p.type === "response" && p.id === id);
  }
}

/** `spec` with every handler recording its call before running. */
export function spied<V extends ViewName>(spec: ViewSpec<V>): { spec: ViewSpec<V>; calls: Array<{ method: string; params: unknown }> } {
  const calls: Array<{ method: string; params: unknown }> = [];
  const handlers = Object.fromEntries(
    Object.entries(spec.handlers as Record<string, (p: unknown) => Promise<unknown>>).map(([method, run]) => [
      method,
      async (params: unknown) => {
        calls.push({ method, params });
        return run(params);
      },
    ]),
  ) as Handlers<V>;
  return { spec: { ...spec, handlers }, calls };
}

/** A host on a recording channel, with its log. */
export function hostOn<V extends ViewName>(spec: ViewSpec<V>, limits?: ConstructorParameters<typeof WebviewHost>[3]) {
  const channel = new RecordingChannel();
  const logs: string[] = [];
  const host = new WebviewHost(spec, channel, (l) => logs.push(l), limits);
  return { host, channel, logs };
}
