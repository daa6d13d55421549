/**
 * Extension entry: the language server for `.tdl` files and TypeScript that
 * uses `@azure/data-tables`; the table explorer, connections and the
 * embedded emulator. VS Code glue only: the engines live in runtime/ (accounts,
 * the emulator, stress, inference), the pages' controllers in explorer/ and
 * webview-host/.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from "vscode-languageclient/node";
import { typescriptGate } from "./vscode/typescript-gate";
import { serverErrorHandler } from "./vscode/language-client-errors";
import { EmulatorHost } from "./vscode/emulator-host";
import { VsCodeConnectionStore } from "./vscode/connection-store";
import { VsCodeExplorerUi } from "./panels/explorer-ui";
import { EXPLORER_VIEW, ExplorerPanel } from "./panels/explorer-panel";
import { ExplorerController } from "./explorer/controller";
import { LiveDataChecker } from "./commands/live-data";
import { StressCommand } from "./commands/stress";
import { InferCommand } from "./commands/infer";
import { generateKeyBuildersCommand } from "./commands/codegen";
import { HeatmapPanel } from "./panels/heatmap-panel";
import { setPanelLog } from "./panels/panel-page";
import type { EventOf } from "@protocol/pages";

type HostEvent = EventOf<"explorer">;

let client: LanguageClient | undefined;
let emulator: EmulatorHost | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("Table Design");
  setPanelLog((line) => output.appendLine(line));
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  status.text = "$(database) Tables";
  status.tooltip = "Open the table explorer";
  status.command = "tableDesign.openExplorer";
  status.show();
  emulator = new EmulatorHost(output, status);
  const store = new VsCodeConnectionStore(context);
  const ui = new VsCodeExplorerUi(emulator);
  const makeController = (emit: (e: HostEvent) => void) => new ExplorerController(store, ui, emit);
  context.subscriptions.push(output, status, emulator);

  let lastController: ExplorerController | undefined;
  const trackingController = (emit: (e: HostEvent) => void) => (lastController = makeController(emit));
  const liveData = new LiveDataChecker(async () => {
    if (lastController?.activeConnection) return lastController.activeConnection;
    const first = store.list()[0];
    if (!first) return undefined;
    const c = makeController(() => undefined);
    await c.activate(first.id);
    return c.activeConnection;
  });
  context.subscriptions.push(
    liveData,
    vscode.commands.registerCommand("tableDesign.checkLiveData", (uri: string, table: string) =>
      liveData.check(uri, table).catch((e: Error) => vscode.window.showErrorMessage(`Live data check failed: ${e.message}`)),
    ),
  );

  const stress = new StressCommand(context, emulator, store, () => ({ session: lastController?.activeConnection }));
  context.subscriptions.push(
    vscode.commands.registerCommand("tableDesign.runStressTest", (uri?: string, table?: string) => stress.run(uri, table)),
    vscode.commands.registerCommand("tableDesign.removeStressTables", () => stress.removeLeftovers()),
    vscode.commands.registerCommand("tableDesign.inferDesign", (table?: string) =>
      new InferCommand(emulator, () => lastController?.activeConnection).run(table),
    ),
    vscode.commands.registerCommand("tableDesign.generateKeyBuilders", (uri?: unknown, table?: unknown) =>
      generateKeyBuildersCommand(uri, table),
    ),
    vscode.commands.registerCommand("tableDesign.showHeatmap", async () => {
      if (!emulator!.running) await emulator!.start();
      HeatmapPanel.show(context, emulator!);
    }),
  );

  const openExplorer = async () => {
    const panel = ExplorerPanel.show(context, trackingController);
    // With nothing to connect to, the embedded emulator is the zero-setup answer.
    if (!store.list().length)
      await panel.activeController
        .handle("connect.emulator", {})
        .catch((e: Error) => vscode.window.showErrorMessage(`Could not start the emulator: ${e.message}`));
  };
  context.subscriptions.push(
    vscode.commands.registerCommand("tableDesign.openExplorer", openExplorer),
    vscode.commands.registerCommand("tableDesign.startEmulator", async () => {
      const { info, secret } = await emulator!.start();
      await store.save(info, secret);
      vscode.window.showInformationMessage(`Table emulator running at ${info.endpoint}`);
    }),
    vscode.commands.registerCommand("tableDesign.connect", async () => {
      const made = await ui.promptConnection();
      if (!made) return;
      await store.save(made.info, made.secret);
      vscode.window.showInformationMessage(`Connected: ${made.info.name} (${made.info.endpoint})`);
    }),
    vscode.commands.registerCommand("tableDesign.disconnect", async () => {
      const pick = await vscode.window.showQuickPick(
        store.list().map((c) => ({ label: c.name, description: c.endpoint, id: c.id })),
        { title: "Forget which connection?" },
      );
      if (pick) await store.remove(pick.id);
    }),
    vscode.window.registerWebviewPanelSerializer(EXPLORER_VIEW, {
      deserializeWebviewPanel: async (panel) => ExplorerPanel.revive(panel, context, trackingController),
    }),
  );
  if (vscode.workspace.getConfiguration("tableDesign").get<boolean>("emulator.startOnActivation", false)) {
    void vscode.commands.executeCommand("tableDesign.startEmulator");
  }

  const serverModule = context.asAbsolutePath(path.join("dist", "server.js"));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6009"] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: "tdl" },
      { scheme: "file", language: "typescript" },
      { scheme: "file", language: "typescriptreact" },
      { scheme: "file", language: "javascript" },
      { scheme: "file", language: "javascriptreact" },
    ],
    middleware: typescriptGate(() => vscode.workspace.getConfiguration("tableDesign").get<boolean>("typescript.enabled", true)),
    synchronize: { configurationSection: "tableDesign" },
    initializationOptions: vscode.workspace.getConfiguration("tableDesign"),
    errorHandler: serverErrorHandler(output, () => client!.createDefaultErrorHandler()),
  };
  client = new LanguageClient("tableDesign", "Table Design Language Server", serverOptions, clientOptions);
  context.subscriptions.push(client);
  // What the analysis cannot do (the SDK's types do not resolve): said once, in the output channel and the status bar.
  context.subscriptions.push(
    client.onNotification("tableDesign/analysisWarning", (p: { message?: unknown }) => {
      const message = typeof p?.message === "string" ? p.message : "";
      if (!message) return;
      output.appendLine(message);
      context.subscriptions.push(vscode.window.setStatusBarMessage(`$(warning) Table Design: ${message.split(":")[0]}`, 30_000));
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await Promise.all([client?.stop(), emulator?.stop()]);
  client = undefined;
}
