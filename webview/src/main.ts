/**
 * Webview entry: announces itself to the host and renders the view the host
 * asks for. The panels (explorer, stress report) plug in here.
 */
import type { HostToWebview, WebviewToHost } from "./protocol";

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

window.addEventListener("message", (event: MessageEvent<HostToWebview>) => {
  const msg = event.data;
  if (msg.type === "init") {
    const root = document.getElementById("root");
    if (root) root.dataset.view = msg.view;
  }
});

vscode.postMessage({ type: "ready" });
