/**
 * Extension entry: the language server for `.tdl` files and TypeScript that
 * uses `@azure/data-tables`; the pages (from the registry, panels/pages.ts),
 * connections, the embedded emulator and the commands — each registered
 * once, by its name in `COMMANDS`, through the one wrapper that reports its
 * failures (vscode/commands.ts). VS Code glue only: the engines live in
 * the runtime, the pages' hosts in pages/.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from "vscode-languageclient/node";
import { COMMANDS } from "@protocol/commands";
import { typescriptGate } from "./vscode/typescript-gate";
import { setting, settingsSection } from "./vscode/settings";
import { serverErrorHandler } from "./vscode/language-client-errors";
import { EmulatorHost } from "./vscode/emulator-host";
import { VsCodeConnectionStore } from "./vscode/connection-store";
import { Commands } from "./vscode/commands";
import { VsCodeExplorerUi } from "./panels/explorer-ui";
import { PagePanels } from "./panels/pages";
import { ActiveConnection } from "./explorer/connections";
import { LiveDataChecker } from "./commands/live-data";
import { StressCommand } from "./commands/stress";
import { StressExportCommand } from "./commands/stress-export";
import { InferCommand } from "./commands/infer";
import { generateKeyBuildersCommand } from "./commands/codegen";
import { openLogHeatmapCommand } from "./commands/log-heatmap";
import type { PageServices } from "./pages/host-page";
import { registerAgentTools } from "./vscode/agent-tools";

let client: LanguageClient | undefined;
let emulator: EmulatorHost | undefined;

/** A command argument that should be a string (a CodeLens passes one; the palette passes none). */
const text = (v: unknown) => (typeof v === "string" ? v : undefined);

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("Table Design");
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  status.text = "$(database) Tables";
  status.tooltip = "Open the table explorer";
  status.command = COMMANDS.openExplorer.id;
  status.show();
  const host = (emulator = new EmulatorHost(output, status));
  context.subscriptions.push(output, status, host);
  const commands = new Commands(context, output);
  const store = new VsCodeConnectionStore(context);
  const ui = new VsCodeExplorerUi(host, (name, ...args) => commands.execute(name, ...args), context.globalStorageUri.fsPath);
  const active: PageServices["active"] = {};
  const services: PageServices = { store, ui, emulator: host, execute: (name, ...args) => commands.execute(name, ...args), active };
  const pages = await PagePanels.register(context, commands, services, (line) => output.appendLine(line));
  const session = () => active.connection?.current;

  const liveData = new LiveDataChecker(async () => {
    if (session()) return session();
    const first = store.list()[0];
    if (!first) return undefined;
    // No explorer open: the first stored connection, activated as the explorer would (nobody to tell).
    const c = new ActiveConnection(store, () => undefined);
    await c.activate(first.id);
    return c.current;
  });
  context.subscriptions.push(liveData);
  commands.register("checkLiveData", (uri, table) => liveData.check(String(uri), String(table)));

  const stress = new StressCommand(
    host,
    store,
    () => ({ session: session() }),
    (title, runs) => pages.open("report", { title, runs }),
    commands,
  );
  commands.register("runStressTest", (uri, table) => stress.run(text(uri), text(table)));
  commands.register("removeStressTables", () => stress.removeLeftovers());
  const exporter = new StressExportCommand(
    (uri, table) => stress.pickTable(uri, table),
    store,
    session,
    () => commands.execute("connect"),
  );
  commands.register("exportStressTest", (uri, table) => exporter.run(text(uri), text(table)));
  commands.register("inferDesign", (table) => new InferCommand(host, session).run(text(table)));
  commands.register("generateKeyBuilders", (uri, table) => generateKeyBuildersCommand(uri, table));
  commands.register("openLogHeatmap", () => openLogHeatmapCommand((args) => pages.open("heatmap", args), context.workspaceState));
  commands.register("startEmulator", async () => {
    const { info, secret } = await host.start();
    await store.save(info, secret);
    void vscode.window.showInformationMessage(`Table emulator running at ${info.endpoint}`);
  });
  commands.register("connect", async () => {
    const made = await ui.promptConnection();
    if (!made) return;
    await store.save(made.info, made.secret);
    void vscode.window.showInformationMessage(`Connected: ${made.info.name} (${made.info.endpoint})`);
  });
  commands.register("disconnect", async () => {
    const pick = await vscode.window.showQuickPick(
      store.list().map((c) => ({ label: c.name, description: c.endpoint, id: c.id })),
      { title: "Forget which connection?" },
    );
    if (pick) await store.remove(pick.id);
  });
  // The design tools in VS Code's agent mode, over the explorer's connections (agent-tools/).
  context.subscriptions.push(...registerAgentTools({ store, emulator: host, active: session, log: (line) => output.appendLine(line) }));
  if (setting("emulator.startOnActivation")) {
    void commands.execute("startEmulator");
  }

  const serverModule = context.asAbsolutePath(path.join("dist", "server.js"));
  const serverOptions: ServerOptions = {
    // --expose-gc: the server collects a large file's dropped programs when the editor is idle (server/lsp/idle-gc.ts).
    run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ["--expose-gc"] } },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6009", "--expose-gc"] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      // Saved designs and Untitled ones (a scratch design gets its diagnostics); never a diff view's old version (git:) or
      // another scheme's copy, which would show its findings twice in the Problems panel.
      { scheme: "file", language: "tdl" },
      { scheme: "untitled", language: "tdl" },
      { scheme: "file", language: "typescript" },
      { scheme: "file", language: "typescriptreact" },
      { scheme: "file", language: "javascript" },
      { scheme: "file", language: "javascriptreact" },
    ],
    middleware: typescriptGate(() => setting("typescript.enabled")),
    synchronize: { configurationSection: "tableDesign" },
    initializationOptions: settingsSection(),
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
