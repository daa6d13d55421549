/**
 * The explorer's questions, asked with VS Code's own UI: modal
 * confirmations, input boxes (secrets masked, never echoed to the webview),
 * file dialogs, cancellable progress notifications.
 */
import * as vscode from "vscode";
import { randomUUID } from "node:crypto";
import { ExplorerUi } from "../panel/explorer-controller";
import { parseConnectionString } from "../account/connection-string";
import { ConnectionInfo } from "../account/model";
import { Secret } from "../account/clients";
import { EmulatorService } from "./emulator-service";
import type { TransferFormat } from "../../../webview/src/protocol";

export class VsCodeExplorerUi implements ExplorerUi {
  constructor(private readonly emulatorService: EmulatorService) {}

  async confirm(message: string): Promise<boolean> {
    return (await vscode.window.showWarningMessage(message, { modal: true }, "Delete")) === "Delete";
  }

  emulator() {
    return this.emulatorService.start();
  }

  async openHeatmap(): Promise<void> {
    await vscode.commands.executeCommand("tableDesign.showHeatmap");
  }

  async promptConnection(): Promise<{ info: ConnectionInfo; secret: Secret } | undefined> {
    const kinds: Array<vscode.QuickPickItem & { connKind: ConnectionInfo["kind"] }> = [
      { label: "Connection string", connKind: "connection-string", detail: "Account key or SAS, or UseDevelopmentStorage=true" },
      { label: "Account URL and SAS token", connKind: "sas", detail: "https://account.table.core.windows.net + ?sv=…" },
      { label: "Account URL with Microsoft Entra ID", connKind: "entra-id", detail: "Uses DefaultAzureCredential (az login, environment, managed identity)" },
      { label: "Embedded emulator", connKind: "emulator", detail: "Azurite in memory, started by the extension" },
    ];
    const pick = await vscode.window.showQuickPick(kinds, { title: "Connect to a table account", placeHolder: "How do you connect?" });
    if (!pick) return undefined;
    if (pick.connKind === "emulator") return this.emulator();
    if (pick.connKind === "connection-string") {
      const cs = await vscode.window.showInputBox({
        title: "Connection string", password: true, ignoreFocusOut: true, placeHolder: "DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…",
        validateInput: (v) => { try { parseConnectionString(v); return undefined; } catch (e) { return (e as Error).message; } },
      });
      if (!cs) return undefined;
      const parsed = parseConnectionString(cs);
      const name = await this.askName(parsed.accountName);
      return name ? { info: { id: randomUUID(), name, kind: "connection-string", endpoint: parsed.endpoint }, secret: { connectionString: cs } } : undefined;
    }
    const url = await vscode.window.showInputBox({
      title: "Table endpoint", ignoreFocusOut: true, placeHolder: "https://myaccount.table.core.windows.net",
      validateInput: (v) => { try { const u = new URL(v); return /^https?:$/.test(u.protocol) ? undefined : "use https://…"; } catch { return "not a URL"; } },
    });
    if (!url) return undefined;
    let secret: Secret = {};
    if (pick.connKind === "sas") {
      const sas = await vscode.window.showInputBox({ title: "SAS token", password: true, ignoreFocusOut: true, placeHolder: "sv=…&ss=t&sig=…", validateInput: (v) => (/sig=/.test(v) ? undefined : "a SAS token has a sig= parameter") });
      if (!sas) return undefined;
      secret = { sasToken: sas };
    }
    const name = await this.askName(new URL(url).hostname.split(".")[0]);
    return name ? { info: { id: randomUUID(), name, kind: pick.connKind, endpoint: url.replace(/\/$/, "") }, secret } : undefined;
  }

  private askName(suggested: string): Promise<string | undefined> {
    return Promise.resolve(vscode.window.showInputBox({ title: "Name this connection", value: suggested, ignoreFocusOut: true }));
  }

  async openFile(format: TransferFormat): Promise<{ path: string; text: string } | undefined> {
    const [uri] = (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [format.toUpperCase()]: [format] }, title: `Import ${format.toUpperCase()}` })) ?? [];
    if (!uri) return undefined;
    return { path: uri.fsPath, text: Buffer.from(await vscode.workspace.fs.readFile(uri)).toString("utf8") };
  }

  async saveFile(format: TransferFormat, suggestedName: string, text: () => string): Promise<string | undefined> {
    const base = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await vscode.window.showSaveDialog({ defaultUri: base ? vscode.Uri.joinPath(base, suggestedName) : undefined, filters: { [format.toUpperCase()]: [format] } });
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text(), "utf8"));
    return uri.fsPath;
  }

  withProgress<T>(title: string, work: (report: (done: number, total?: number) => void, signal: AbortSignal) => Promise<T>): Promise<T> {
    return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      let last = 0;
      return work((done, total) => {
        if (total) { progress.report({ message: `${done} of ${total}`, increment: ((done - last) / total) * 100 }); last = done; }
        else progress.report({ message: `${done}` });
      }, abort.signal);
    }));
  }
}
