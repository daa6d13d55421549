/**
 * Every panel of the extension loads the same webview bundle under the same
 * CSP page, with resources from dist/ only, and talks to it through one
 * `WebviewHost` (handshake, validated requests, events, disposal).
 */
import * as vscode from "vscode";
import { webviewHtml } from "../webview-host/html";
import { ViewSpec, WebviewHost } from "../webview-host/host";
import type { ViewName } from "@protocol/pages";

let log: (line: string) => void = (line) => console.warn(line);

/** Where the hosts log refused messages and failed requests (the extension's output channel). */
export function setPanelLog(write: (line: string) => void): void {
  log = write;
}

export function panelOptions(extensionUri: vscode.Uri, retain = false): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, retainContextWhenHidden: retain, localResourceRoots: [vscode.Uri.joinPath(extensionUri, "dist")] };
}

export function setPanelPage(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, title: string): void {
  const dist = (f: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "dist", f)).toString();
  panel.webview.html = webviewHtml({
    cspSource: panel.webview.cspSource,
    scriptUri: dist("webview.js"),
    styleUri: dist("webview.css"),
    title,
  });
}

/** Serves `spec` in `panel` until the panel closes. */
export function hostPanel<V extends ViewName>(
  panel: vscode.WebviewPanel,
  extensionUri: vscode.Uri,
  title: string,
  spec: ViewSpec<V>,
): WebviewHost<V> {
  const host = new WebviewHost(
    spec,
    {
      post: (message) => panel.webview.postMessage(message),
      onMessage: (listener) => panel.webview.onDidReceiveMessage(listener),
    },
    (line) => log(line),
  );
  panel.onDidDispose(() => host.dispose());
  setPanelPage(panel, extensionUri, title);
  return host;
}
