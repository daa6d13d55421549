/**
 * "Open a Heatmap from Storage Logs…" (`tableDesign.openLogHeatmap`): asks
 * for log files or folders — a Log Analytics export of StorageTableLogs
 * (JSON or CSV), a diagnostic setting's blobs, `$logs` files, Cosmos DB's
 * partition-key RU logs — and for a design to compare with (the open one
 * first, or none), reads them with a cancellable progress notification,
 * and opens the heatmap page with what they show, in a tab of its own.
 * Its failures are TdlErrors of their kind, which the command wrapper
 * shows alike: a path that cannot be read or logs with no record in them
 * are `input` (a warning); a cancellation says nothing.
 */
import * as vscode from "vscode";
import { InputError } from "@core/errors";
import { formatCount } from "@core/text/words";
import { type LogHeatmapArgs, readLogsForPanel } from "../pages/heatmap";
import { analysisOptions } from "../vscode/settings";
import { workspaceDesigns, type DesignFile } from "../vscode/design-files";

/** Runs the command: `open` shows the heatmap (the page's panel). */
export async function openLogHeatmapCommand(open: (args: LogHeatmapArgs) => void): Promise<void> {
  const picked = await vscode.window.showOpenDialog({
    title: "Storage logs: StorageTableLogs exports (JSON, CSV), diagnostic-setting blobs, $logs files or Cosmos DB RU logs",
    openLabel: "Read Logs",
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: true,
  });
  if (!picked?.length) return;
  const remote = picked.find((u) => u.scheme !== "file");
  if (remote) throw new InputError(`${remote.toString(true)} is not on this machine's disk: logs are read from local files or folders`);
  const paths = picked.map((u) => u.fsPath);
  const design = await pickDesign();
  if (design === null) return;
  const shown = paths.length === 1 ? vscode.workspace.asRelativePath(paths[0]) : `${paths.length} paths`;
  const args = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Reading ${shown}`, cancellable: true },
    (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return readLogsForPanel(paths, {
        shown,
        design: design && { text: design.text, label: design.label, analysis: analysisOptions() },
        signal: abort.signal,
        onProgress: (p) => progress.report({ message: `${formatCount(p.lines)} entries, file ${p.files} of ${p.of}` }),
      });
    },
  );
  open(args);
}

/** A design to compare with: the open one first, the workspace's after; undefined for none, null when the user left the pick. */
async function pickDesign(): Promise<DesignFile | undefined | null> {
  const designs = await workspaceDesigns();
  if (!designs.length) return undefined;
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  designs.sort((a, b) => Number(b.uri.toString() === active) - Number(a.uri.toString() === active) || a.label.localeCompare(b.label));
  const items: Array<vscode.QuickPickItem & { design?: DesignFile }> = [
    ...designs.map((design) => ({ label: design.label, description: "compare with its key expressions and load", design })),
    { label: "No design", description: "the heatmap alone" },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: "Compare the logs with a design?" });
  return pick ? pick.design : null;
}
