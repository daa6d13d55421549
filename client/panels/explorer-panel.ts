/**
 * The explorer panel in VS Code: one webview with the strict CSP page,
 * served by a `WebviewHost` with the controller's view, restored after a
 * reload.
 */
import * as vscode from "vscode";
import { ExplorerController } from "../explorer/controller";
import { WebviewHost } from "../webview-host/host";
import { hostPanel, panelOptions } from "./panel-page";
import type { EventOf } from "@protocol/pages";

export const EXPLORER_VIEW = "tableDesign.explorer";

type MakeController = (emit: (e: EventOf<"explorer">) => void) => ExplorerController;

export class ExplorerPanel {
  private static current: ExplorerPanel | undefined;
  private readonly controller: ExplorerController;
  private readonly host: WebviewHost<"explorer">;

  static show(context: vscode.ExtensionContext, make: MakeController): ExplorerPanel {
    if (ExplorerPanel.current) {
      ExplorerPanel.current.panel.reveal();
      return ExplorerPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      EXPLORER_VIEW,
      "Table Explorer",
      vscode.ViewColumn.Active,
      ExplorerPanel.options(context),
    );
    return (ExplorerPanel.current = new ExplorerPanel(panel, context, make));
  }

  /** Re-attaches a panel VS Code restored after a reload (its UI state comes back through the webview state API). */
  static revive(panel: vscode.WebviewPanel, context: vscode.ExtensionContext, make: MakeController): void {
    panel.webview.options = ExplorerPanel.options(context);
    ExplorerPanel.current = new ExplorerPanel(panel, context, make);
  }

  private static options(context: vscode.ExtensionContext): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return panelOptions(context.extensionUri, true);
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    context: vscode.ExtensionContext,
    make: MakeController,
  ) {
    this.controller = make((event) => this.host?.emit(event));
    this.host = hostPanel(panel, context.extensionUri, "Table Explorer", this.controller.view());
    // Connect at once to the running emulator or the connection used last: the page's start state (or an event) carries it.
    void this.controller.open();
    panel.onDidDispose(() => {
      this.controller.dispose();
      if (ExplorerPanel.current === this) ExplorerPanel.current = undefined;
    });
  }

  get activeController(): ExplorerController {
    return this.controller;
  }
}
