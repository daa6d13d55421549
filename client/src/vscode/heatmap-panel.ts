/**
 * The key-space heatmap panel: fed live by the embedded emulator's
 * recorder while the user's app, tests or a stress test run.
 */
import * as vscode from "vscode";
import { hostPanel, panelOptions } from "./panel-page";
import { heatmapView } from "../panel/views";
import type { TrafficSecond } from "../../../webview/src/protocol";
import { EmulatorHost } from "./emulator-host";

export class HeatmapPanel {
  private static current: HeatmapPanel | undefined;

  static show(context: vscode.ExtensionContext, emulator: EmulatorHost): void {
    if (HeatmapPanel.current) {
      HeatmapPanel.current.panel.reveal();
      return;
    }
    HeatmapPanel.current = new HeatmapPanel(context, emulator);
  }

  private readonly panel: vscode.WebviewPanel;

  private constructor(context: vscode.ExtensionContext, emulator: EmulatorHost) {
    const title = "Key-space heatmap";
    this.panel = vscode.window.createWebviewPanel("tableDesign.heatmap", title, vscode.ViewColumn.Beside, panelOptions(context.extensionUri, true));
    const host = hostPanel(this.panel, context.extensionUri, title, heatmapView(() => emulator.recentTraffic()));
    // The host drops events until the page is ready; the page's init state carries the seconds before that.
    const onSecond = (second: TrafficSecond) => host.emit({ type: "traffic", second });
    emulator.onTraffic(onSecond);
    this.panel.onDidDispose(() => {
      emulator.offTraffic(onSecond);
      HeatmapPanel.current = undefined;
    });
  }
}
