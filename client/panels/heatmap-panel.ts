/**
 * The key-space heatmap panel: fed live by the embedded emulator's
 * recorder while the user's app, tests or a stress test run, and by an
 * empty second each second while nothing runs, so the map moves on and its
 * summary says the emulator is idle.
 */
import * as vscode from "vscode";
import { hostPanel, panelOptions } from "./panel-page";
import { heatmapView, IdleSeconds } from "../webview-host/views";
import type { TrafficSecond } from "@protocol/traffic";
import { EmulatorHost } from "../vscode/emulator-host";

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
    this.panel = vscode.window.createWebviewPanel(
      "tableDesign.heatmap",
      title,
      vscode.ViewColumn.Beside,
      panelOptions(context.extensionUri, true),
    );
    const host = hostPanel(
      this.panel,
      context.extensionUri,
      title,
      heatmapView(() => emulator.recentTraffic()),
    );
    const idle = new IdleSeconds();
    for (const s of emulator.recentTraffic()) idle.sent(s.t);
    // The host drops events until the page is ready; the page's init state carries the seconds before that.
    const onSecond = (second: TrafficSecond) => {
      idle.sent(second.t);
      host.emit({ type: "traffic", second });
    };
    emulator.onTraffic(onSecond);
    const clock = setInterval(() => {
      const empty = idle.tick(Date.now());
      if (empty) host.emit({ type: "traffic", second: empty });
    }, 1000);
    this.panel.onDidDispose(() => {
      clearInterval(clock);
      emulator.offTraffic(onSecond);
      HeatmapPanel.current = undefined;
    });
  }
}
