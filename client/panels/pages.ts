/**
 * Every page's panel, from the registry: for each view of `PAGES`, its host
 * module (`client/pages/<view>.ts`, found by name: nothing here lists the
 * pages), the command that opens it, and the serializer that restores
 * it after a reload. Each panel loads the same webview bundle under the
 * same CSP page, with resources from dist/ only, and talks to it through a
 * `WebviewHost` (handshake, validated requests, events, disposal).
 */
import * as vscode from "vscode";
import { PAGES, VIEW_NAMES, type ViewName } from "@protocol/pages";
import type { CommandName } from "@protocol/commands";
import { webviewHtml } from "../webview-host/html";
import { WebviewHost } from "../webview-host/host";
import { HostPage, PageServices, viewSpec } from "../pages/host-page";
import { Commands } from "../vscode/commands";

/** Any page's host module (the views differ; the panels treat them alike). */
type AnyPage = HostPage<ViewName, unknown>;

/** The host module of `view`: `client/pages/<view>.ts`, bundled by esbuild from the pattern. */
async function loadPage(view: ViewName): Promise<AnyPage> {
  const module = (await import(`../pages/${view}.ts`)) as { default: AnyPage };
  if (module.default?.view !== view) throw new Error(`client/pages/${view}.ts does not declare the ${view} page`);
  return module.default;
}

export class PagePanels {
  private readonly pages = new Map<ViewName, AnyPage>();
  /** The open panel of each page that has one at a time. */
  private readonly single = new Map<ViewName, vscode.WebviewPanel>();

  private constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: PageServices,
    private readonly log: (line: string) => void,
  ) {}

  /** Loads every page of the registry, registers the commands that open them and the serializers that restore them. */
  static async register(
    context: vscode.ExtensionContext,
    commands: Commands,
    services: PageServices,
    log: (line: string) => void,
  ): Promise<PagePanels> {
    const panels = new PagePanels(context, services, log);
    for (const view of VIEW_NAMES) {
      const page = await loadPage(view);
      panels.pages.set(view, page);
      const entry: { command?: { name: string }; restores?: true; panel: string } = PAGES[view];
      if (entry.command) {
        const open = () => panels.open(view, undefined);
        commands.register(entry.command.name as CommandName, () => (page.command ? page.command(services, open) : open()));
      }
      if (entry.restores) {
        context.subscriptions.push(
          vscode.window.registerWebviewPanelSerializer(entry.panel, {
            deserializeWebviewPanel: async (panel) => panels.attach(page, panel, undefined),
          }),
        );
      }
    }
    return panels;
  }

  /** Opens `view` with `args` (or, without them, brings its panel to the front, for a page with one panel at a time). */
  open<V extends ViewName>(view: V, args: Parameters<HostPage<V, unknown>["serve"]>[2]): void {
    const page = this.pages.get(view)!;
    const open = args === undefined ? this.single.get(view) : undefined;
    if (open) {
      open.reveal();
      return;
    }
    const title = page.title ? page.title(args) : PAGES[view].title;
    const panel = vscode.window.createWebviewPanel(
      PAGES[view].panel,
      title,
      page.column === "beside" ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
      { ...this.webviewOptions(), retainContextWhenHidden: !!page.retain },
    );
    this.attach(page, panel, args);
  }

  /** Scripts on, and resources from dist/ only. */
  private webviewOptions(): vscode.WebviewOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, "dist")] };
  }

  /** Serves `page` in `panel` (a new one, or one VS Code restored) until the panel closes. */
  private attach(page: AnyPage, panel: vscode.WebviewPanel, args: unknown): void {
    const dist = vscode.Uri.joinPath(this.context.extensionUri, "dist");
    panel.webview.options = this.webviewOptions();
    // The page's service may emit as soon as it is made; the host that carries its events comes right after.
    const hosted: { host?: WebviewHost<ViewName> } = {};
    const served = page.serve(this.services, (event) => hosted.host?.emit(event), args);
    const host = (hosted.host = new WebviewHost(
      viewSpec(page, served),
      { post: (message) => panel.webview.postMessage(message), onMessage: (listener) => panel.webview.onDidReceiveMessage(listener) },
      this.log,
    ));
    const asset = (file: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, file)).toString();
    panel.webview.html = webviewHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: asset("webview.js"),
      styleUri: asset("webview.css"),
      title: panel.title,
    });
    if (page.single && args === undefined) this.single.set(page.view, panel);
    panel.onDidDispose(() => {
      host.dispose();
      served.dispose?.();
      if (this.single.get(page.view) === panel) this.single.delete(page.view);
    });
  }
}
