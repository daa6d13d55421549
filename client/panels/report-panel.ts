/**
 * The stress report view: a webview (same CSP page as the explorer) that
 * draws one run, or two side by side when designs are compared.
 */
import * as vscode from "vscode";
import { hostPanel, panelOptions } from "./panel-page";
import { reportView } from "../webview-host/views";
import type { StressReport } from "@protocol";

export function showStressReport(
  context: vscode.ExtensionContext,
  title: string,
  runs: Array<{ label: string; report: StressReport }>,
): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(
    "tableDesign.stressReport",
    title,
    vscode.ViewColumn.Active,
    panelOptions(context.extensionUri),
  );
  hostPanel(
    panel,
    context.extensionUri,
    title,
    reportView(runs, async () => {
      await vscode.commands.executeCommand("tableDesign.showHeatmap");
    }),
  );
  return panel;
}
