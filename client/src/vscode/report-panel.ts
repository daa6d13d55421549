/**
 * The stress report view: a webview (same CSP page as the explorer) that
 * draws one run, or two side by side when designs are compared.
 */
import * as vscode from "vscode";
import { panelOptions, setPanelPage } from "./panel-page";
import type { StressReport } from "../stress/report";
import type { HostToWebview, WebviewToHost } from "../../../webview/src/protocol";

export function showStressReport(context: vscode.ExtensionContext, title: string, runs: Array<{ label: string; report: StressReport }>): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel("tableDesign.stressReport", title, vscode.ViewColumn.Active, panelOptions(context.extensionUri));
  setPanelPage(panel, context.extensionUri, title);
  panel.webview.onDidReceiveMessage(async (msg: WebviewToHost) => {
    if (msg.type === "ready") void panel.webview.postMessage({ type: "init", view: "stress-report", state: { runs } } satisfies HostToWebview);
    if (msg.type === "request" && msg.method === "heatmap.open") {
      await vscode.commands.executeCommand("tableDesign.showHeatmap");
      void panel.webview.postMessage({ type: "response", id: msg.id, ok: true, result: null } satisfies HostToWebview);
    }
  });
  return panel;
}
