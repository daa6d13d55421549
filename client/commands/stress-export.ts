/**
 * `tableDesign.exportStressTest` — *Export the Stress Test for Azure Load
 * Testing…*: the folder `tdl stress --export locust DIR` writes, for a
 * design table (from the CodeLens or picked), a mode, a duration and the
 * active connection's account: the Locust script and the design's
 * workload and key builders, the test definition with the engines sized
 * (one Locust worker calibrated here when Locust is installed), and, when
 * the connection holds the account key, one table SAS per engine for the
 * Key Vault — never the key. The README opens when it is written.
 */
import * as vscode from "vscode";
import { prepareExport, sizingText } from "@runtime";
import type { StressMode } from "@protocol";
import type { ConnectionStore } from "../explorer/controller";
import type { AccountSession } from "@runtime";
import { analysisOptions } from "../vscode/settings";
import { plural } from "@core/text/words";

/** A design table as the stress command picks it. */
export type PickTable = (uri?: string, table?: string) => Promise<{ text: string; file: string; table: string } | undefined>;

export class StressExportCommand {
  constructor(
    private readonly pickTable: PickTable,
    private readonly store: ConnectionStore,
    private readonly session: () => AccountSession | undefined,
    private readonly connect: () => Thenable<unknown>,
  ) {}

  async run(uri?: string, table?: string): Promise<void> {
    const session = this.session();
    if (!session) {
      const choice = await vscode.window.showWarningMessage(
        "Export the stress test for which account? Connect to it first: the test definition names its endpoint, and with its key tdl makes the engines' SAS tokens.",
        "Connect to an Account…",
      );
      if (choice) await this.connect();
      return;
    }
    const design = await this.pickTable(uri, table);
    if (!design) return;
    const mode = await vscode.window.showQuickPick(
      [
        { label: "design", description: "the design's own access patterns and rates" },
        { label: "spread", description: "the same load over many partitions, at a rate you give" },
        { label: "single-partition", description: "all of it on one partition, at a rate you give" },
      ],
      { title: `Export the stress test of ${design.table}: mode` },
    );
    if (!mode) return;
    const seconds = await vscode.window.showInputBox({
      title: "Duration in seconds",
      value: "300",
      validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= 10 && Number(v) <= 86_400 ? undefined : "10 to 86,400 seconds"),
    });
    if (!seconds) return;
    let rate: number | undefined;
    if (mode.label !== "design") {
      const text = await vscode.window.showInputBox({
        title: "Calls per second in all (the engines are sized for it)",
        value: "2000",
        validateInput: (v) => (/^\d+(\.\d+)?$/.test(v) && Number(v) > 0 ? undefined : "a rate above 0"),
      });
      if (!text) return;
      rate = Number(text);
    }
    const folder = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      openLabel: "Export here",
      title: "The folder for the Locust and Azure Load Testing files",
    });
    if (!folder?.[0]) return;
    const secret = (await this.store.secret(session.connection.id)) ?? {};
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Exporting the stress test of ${design.table}: sizing the engines`,
        cancellable: true,
      },
      (_p, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return prepareExport({
          design,
          analysis: analysisOptions(),
          mode: mode.label as StressMode,
          durationMs: Number(seconds) * 1000,
          concurrency: 16,
          ...(rate !== undefined ? { rate } : {}),
          connection: session.connection,
          secret,
          validForMs: Math.max(86_400_000, Number(seconds) * 1000 + 3_600_000),
          p99Ms: 1000,
          signal: abort.signal,
        });
      },
    );
    for (const f of result.files)
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder[0], ...f.name.split("/")), new TextEncoder().encode(f.text));
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folder[0], "README.md"), { preview: false });
    void vscode.window.showInformationMessage(
      `Exported the stress test of ${design.table} for ${plural(result.plan.workers, "engine")}: ${sizingText(result.sizing, "engines")}` +
        (result.auth.kind === "sas" ? " The engines' SAS tokens are in the folder's secrets: put them in the Key Vault (README.md)." : ""),
    );
  }
}
