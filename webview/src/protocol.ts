/**
 * The typed message protocol between the panel host (extension) and the
 * webview UI: requests carry ids, the UI announces itself with `ready`.
 * Shared by both sides; never carries credentials.
 */
export type HostToWebview =
  | { type: "init"; view: "explorer" | "stress-report"; state?: unknown }
  | { type: "response"; id: number; ok: true; result: unknown }
  | { type: "response"; id: number; ok: false; error: string };

export type WebviewToHost =
  | { type: "ready" }
  | { type: "request"; id: number; method: string; params: unknown };
