/**
 * Every panel of the extension loads the same webview bundle under the same
 * CSP page, with resources from dist/ only.
 */
import * as vscode from "vscode";
import { webviewHtml } from "../panel/webview-html";

export function panelOptions(extensionUri: vscode.Uri, retain = false): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, retainContextWhenHidden: retain, localResourceRoots: [vscode.Uri.joinPath(extensionUri, "dist")] };
}

export function setPanelPage(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, title: string): void {
  const dist = (f: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "dist", f)).toString();
  panel.webview.html = webviewHtml({ cspSource: panel.webview.cspSource, scriptUri: dist("webview.js"), styleUri: dist("webview.css"), title });
}
