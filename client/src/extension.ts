/**
 * Extension entry: starts the Table Design language server for `.tdl` files
 * and for TypeScript files that use `@azure/data-tables`, and passes the
 * `tableDesign.*` settings to it.
 */
import * as path from "node:path";
import { ExtensionContext, workspace } from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from "vscode-languageclient/node";
import { typescriptGate } from "./typescript-gate";

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
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
    ],
    middleware: typescriptGate(() => workspace.getConfiguration("tableDesign").get<boolean>("typescript.enabled", true)),
    synchronize: { configurationSection: "tableDesign" },
    initializationOptions: workspace.getConfiguration("tableDesign"),
  };
  client = new LanguageClient("tableDesign", "Table Design Language Server", serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
