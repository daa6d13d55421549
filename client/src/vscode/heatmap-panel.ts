/**
 * The key-space heatmap panel: fed live by the embedded emulator's
 * recorder while the user's app, tests or a stress test run.
 */
import * as vscode from "vscode";
import { panelOptions, setPanelPage } from "./panel-page";
import type { HostToWebview, TrafficSecond, WebviewToHost } from "../../../webview/src/protocol";
import { EmulatorService } from "./emulator-service";

export class HeatmapPanel {
  private static current: HeatmapPanel | undefined;

  static show(context: vscode.ExtensionContext, emulator: EmulatorService): void {
    if (HeatmapPanel.current) {
      HeatmapPanel.current.panel.reveal();
      return;
    }
    HeatmapPanel.current = new HeatmapPanel(context, emulator);
  }

  private readonly panel: vscode.WebviewPanel;

  private constructor(context: vscode.ExtensionContext, emulator: EmulatorService) {
    this.panel = vscode.window.createWebviewPanel("tableDesign.heatmap", "Key-space heatmap", vscode.ViewColumn.Beside, panelOptions(context.extensionUri, true));
    setPanelPage(this.panel, context.extensionUri, "Key-space heatmap");
    const post = (m: HostToWebview) => void this.panel.webview.postMessage(m);
    const onSecond = (second: TrafficSecond) => post({ type: "event", event: { type: "traffic", second } });
    let ready = false;
    this.panel.webview.onDidReceiveMessage((msg: WebviewToHost) => {
      if (msg.type !== "ready") return;
      post({ type: "init", view: "heatmap", state: { seconds: emulator.recentTraffic() } });
      if (!ready) emulator.onTraffic(onSecond);
      ready = true;
    });
    this.panel.onDidDispose(() => {
      emulator.offTraffic(onSecond);
      HeatmapPanel.current = undefined;
    });
  }
}
