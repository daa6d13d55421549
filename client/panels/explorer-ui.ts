/**
 * The explorer's questions, asked with VS Code's own UI: modal
 * confirmations, input boxes (secrets masked — the endpoint box masks itself
 * when a SAS is pasted into it — and never echoed to the webview),
 * file dialogs, cancellable progress notifications.
 */
import * as vscode from "vscode";
import { randomUUID } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ExplorerUi } from "../explorer/controller";
import { interpretConnectionInput, readSasToken, holdsSecret, Secret } from "@runtime";
import { ConnectionInfo } from "@protocol";
import { EmulatorHost } from "../vscode/emulator-host";
import type { TransferFormat } from "@protocol/pages";
import type { CommandName } from "@protocol/commands";

/** A value to mask: it carries a query string, a key or a SAS. */
function mayHoldSecret(value: string): boolean {
  return value.includes("?") || /sig=|AccountKey|SharedAccessSignature/i.test(value) || holdsSecret(value);
}

export class VsCodeExplorerUi implements ExplorerUi {
  /** @param storage the extension's global storage folder, where job logs go (the temporary folder without one) */
  constructor(
    private readonly emulatorHost: EmulatorHost,
    private readonly execute: (name: CommandName, ...args: unknown[]) => PromiseLike<unknown>,
    private readonly storage?: string,
  ) {}

  async confirm(message: string): Promise<boolean> {
    return (await vscode.window.showWarningMessage(message, { modal: true }, "Delete")) === "Delete";
  }

  emulator() {
    return this.emulatorHost.start();
  }

  async runningEmulator() {
    return this.emulatorHost.current();
  }

  /** The designs open in the editors, unsaved edits included: the filter editor completes their properties. */
  openDesigns(): string[] {
    return vscode.workspace.textDocuments.filter((d) => d.languageId === "tdl" || d.fileName.endsWith(".tdl")).map((d) => d.getText());
  }

  /** The explorer's "Infer a design…": the command reads the explorer's active connection itself. */
  async inferDesign(table: string): Promise<void> {
    await this.execute("inferDesign", table);
  }

  async promptConnection(): Promise<{ info: ConnectionInfo; secret: Secret } | undefined> {
    const kinds: Array<vscode.QuickPickItem & { connKind: ConnectionInfo["kind"] }> = [
      { label: "Connection string", connKind: "connection-string", detail: "Account key or SAS, or UseDevelopmentStorage=true" },
      { label: "Account URL and SAS token", connKind: "sas", detail: "https://account.table.core.windows.net + ?sv=…" },
      {
        label: "Account URL with Microsoft Entra ID",
        connKind: "entra-id",
        detail: "Uses DefaultAzureCredential (az login, environment, managed identity)",
      },
      { label: "Embedded emulator", connKind: "emulator", detail: "Azurite in memory, started by the extension" },
    ];
    const pick = await vscode.window.showQuickPick(kinds, { title: "Connect to a table account", placeHolder: "How do you connect?" });
    if (!pick) return undefined;
    if (pick.connKind === "emulator") return this.emulator();
    const urlKind = pick.connKind === "entra-id" ? "entra-id" : "sas";
    // Whatever is pasted (a connection string, a SAS URL, a plain URL) is read the same way; only the prompt differs.
    const text =
      pick.connKind === "connection-string"
        ? await this.input({
            title: "Connection string",
            placeHolder: "DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…",
            mask: "always",
            read: (v) => interpretConnectionInput(v, "sas"),
          })
        : await this.input({
            title: "Table endpoint",
            placeHolder: "https://myaccount.table.core.windows.net",
            mask: "when-secret",
            read: (v) => interpretConnectionInput(v, urlKind),
          });
    if (text === undefined) return undefined;
    const made = interpretConnectionInput(text, pick.connKind === "connection-string" ? "sas" : urlKind);
    if (made.kind === "sas" && !made.secret.sasToken) {
      const sas = await this.input({
        title: `SAS token for ${made.endpoint}`,
        placeHolder: "sv=…&ss=t&srt=sco&sp=…&se=…&sig=…",
        mask: "always",
        read: (v) => readSasToken(v),
      });
      if (sas === undefined) return undefined;
      made.secret = { sasToken: readSasToken(sas) };
    }
    const name = await this.askName(made.accountName);
    return name ? { info: { id: randomUUID(), name, kind: made.kind, endpoint: made.endpoint }, secret: made.secret } : undefined;
  }

  /**
   * An input box whose value is checked by `read` (its error is the
   * validation message; error messages never quote the value). With
   * "when-secret" it starts plain and masks itself as soon as the value looks
   * like it holds a secret (a query string, a key, a SAS), and stays masked.
   */
  private input(opts: {
    title: string;
    placeHolder: string;
    mask: "always" | "when-secret";
    read: (value: string) => unknown;
  }): Promise<string | undefined> {
    const problem = (v: string) => {
      try {
        opts.read(v);
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    };
    return new Promise((resolve) => {
      const box = vscode.window.createInputBox();
      box.title = opts.title;
      box.placeholder = opts.placeHolder;
      box.ignoreFocusOut = true;
      box.password = opts.mask === "always";
      let settled = false;
      const settle = (value: string | undefined) => {
        if (settled) return;
        settled = true;
        resolve(value);
        box.dispose();
      };
      box.onDidChangeValue((v) => {
        if (!box.password && mayHoldSecret(v)) box.password = true;
        box.validationMessage = v.trim() ? problem(v) : undefined;
      });
      box.onDidAccept(() => {
        const message = problem(box.value);
        if (message) box.validationMessage = message;
        else settle(box.value);
      });
      box.onDidHide(() => settle(undefined));
      box.show();
    });
  }

  private askName(suggested: string): Promise<string | undefined> {
    return Promise.resolve(vscode.window.showInputBox({ title: "Name this connection", value: suggested, ignoreFocusOut: true }));
  }

  async openFile(format: TransferFormat): Promise<{ path: string; text: string } | undefined> {
    const [uri] =
      (await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { [format.toUpperCase()]: [format] },
        title: `Import ${format.toUpperCase()}`,
      })) ?? [];
    if (!uri) return undefined;
    return { path: uri.fsPath, text: Buffer.from(await vscode.workspace.fs.readFile(uri)).toString("utf8") };
  }

  async saveTarget(format: TransferFormat, suggestedName: string): Promise<string | undefined> {
    const base = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await vscode.window.showSaveDialog({
      defaultUri: base ? vscode.Uri.joinPath(base, suggestedName) : undefined,
      filters: { [format.toUpperCase()]: [format] },
    });
    return uri?.fsPath;
  }

  async writeFile(target: string, text: string): Promise<void> {
    await vscode.workspace.fs.writeFile(vscode.Uri.file(target), Buffer.from(text, "utf8"));
  }

  async chooseFolder(title: string, suggestedName: string): Promise<string | undefined> {
    const base = vscode.workspace.workspaceFolders?.[0]?.uri;
    const [uri] =
      (await vscode.window.showOpenDialog({
        title: `${title} (an unfinished export there is resumed; suggested: a new folder named ${suggestedName})`,
        canSelectFiles: false,
        canSelectFolders: true,
        canSelectMany: false,
        openLabel: "Export here",
        ...(base ? { defaultUri: base } : {}),
      })) ?? [];
    return uri?.fsPath;
  }

  /** Job logs live in the extension's own storage (never the user's workspace, unasked), named in the summary the page shows. */
  async jobLog(name: string): Promise<string> {
    const dir = path.join(this.storage ?? os.tmpdir(), "job-logs");
    await fs.mkdir(dir, { recursive: true });
    return path.join(dir, name);
  }

  withProgress<T>(title: string, work: (report: (done: number, total?: number) => void, signal: AbortSignal) => Promise<T>): Promise<T> {
    return Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        let last = 0;
        return work((done, total) => {
          if (total) {
            progress.report({ message: `${done} of ${total}`, increment: ((done - last) / total) * 100 });
            last = done;
          } else progress.report({ message: `${done}` });
        }, abort.signal);
      }),
    );
  }
}
