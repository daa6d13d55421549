/**
 * The explorer panel in VS Code: one webview with the strict CSP page,
 * messages routed to the host-side controller, restored after a reload.
 */
import * as vscode from "vscode";
import { ExplorerController } from "../panel/explorer-controller";
import { panelOptions, setPanelPage } from "./panel-page";
import type { HostEvent, HostToWebview, Method, WebviewToHost } from "../../../webview/src/protocol";

export const EXPLORER_VIEW = "tableDesign.explorer";

export class ExplorerPanel {
  private static current: ExplorerPanel | undefined;
  private readonly controller: ExplorerController;

  static show(context: vscode.ExtensionContext, make: (emit: (e: HostEvent) => void) => ExplorerController): ExplorerPanel {
    if (ExplorerPanel.current) {
      ExplorerPanel.current.panel.reveal();
      return ExplorerPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(EXPLORER_VIEW, "Table Explorer", vscode.ViewColumn.Active, ExplorerPanel.options(context));
    return (ExplorerPanel.current = new ExplorerPanel(panel, context, make));
  }

  /** Re-attaches a panel VS Code restored after a reload (its UI state comes back through the webview state API). */
  static revive(panel: vscode.WebviewPanel, context: vscode.ExtensionContext, make: (emit: (e: HostEvent) => void) => ExplorerController): void {
    panel.webview.options = ExplorerPanel.options(context);
    ExplorerPanel.current = new ExplorerPanel(panel, context, make);
  }

  private static options(context: vscode.ExtensionContext): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return panelOptions(context.extensionUri, true);
  }

  private constructor(private readonly panel: vscode.WebviewPanel, context: vscode.ExtensionContext, make: (emit: (e: HostEvent) => void) => ExplorerController) {
    this.controller = make((event) => void this.post({ type: "event", event }));
    setPanelPage(panel, context.extensionUri, "Table Explorer");
    panel.webview.onDidReceiveMessage((msg: WebviewToHost) => void this.receive(msg));
    panel.onDidDispose(() => { if (ExplorerPanel.current === this) ExplorerPanel.current = undefined; });
  }

  get activeController(): ExplorerController {
    return this.controller;
  }

  private async receive(msg: WebviewToHost): Promise<void> {
    if (msg.type === "ready") {
      await this.post({ type: "init", view: "explorer" });
      return;
    }
    if (msg.type !== "request") return;
    try {
      const result = await this.controller.handle(msg.method as Method, msg.params as never);
      await this.post({ type: "response", id: msg.id, ok: true, result });
    } catch (e) {
      await this.post({ type: "response", id: msg.id, ok: false, error: (e as Error).message });
    }
  }

  private post(msg: HostToWebview): Thenable<boolean> {
    return this.panel.webview.postMessage(msg);
  }
}
