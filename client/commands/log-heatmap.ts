/**
 * "Open a Heatmap from Storage Logs…" (`tableDesign.openLogHeatmap`): asks
 * for log files or folders — a Log Analytics export of StorageTableLogs
 * (JSON or CSV), a diagnostic setting's blobs, `$logs` files, Cosmos DB's
 * partition-key RU logs —, reads them with a cancellable progress
 * notification, and opens the heatmap page with what they show, in a tab
 * of its own, with the workspace's designs to set them against (the page
 * picks the design, its table and the scale; the choice is remembered per
 * workspace).
 * Its failures are TdlErrors of their kind, which the command wrapper
 * shows alike: a path that cannot be read or logs with no record in them
 * are `input` (a warning); a cancellation says nothing.
 */
import * as vscode from "vscode";
import { InputError } from "@core/errors";
import { formatCount } from "@core/text/words";
import { type LogHeatmapArgs, readLogsForPanel } from "../pages/heatmap";
import { analysisOptions } from "../vscode/settings";
import { workspaceDesigns } from "../vscode/design-files";
import type { LogDesignChoice } from "@protocol/pages";

/** Where the page's choice of design, table and scale is kept for the workspace. */
const CHOICE_KEY = "tableDesign.logHeatmap.choice";

/** What the command remembers per workspace (VS Code's workspaceState). */
export interface ChoiceMemory {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/**
 * Runs the command: `open` shows the heatmap (the page's panel). The page
 * sets the logs against any design of the workspace and one of its tables;
 * it opens with the choice remembered for the workspace, or else the open
 * design.
 */
export async function openLogHeatmapCommand(open: (args: LogHeatmapArgs) => void, memory?: ChoiceMemory): Promise<void> {
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
  const designs = await workspaceDesigns();
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  const remembered = memory?.get<LogDesignChoice>(CHOICE_KEY);
  const opened = designs.find((d) => d.uri.toString() === active);
  const choice = remembered ?? (opened ? { design: opened.label } : undefined);
  const shown = paths.length === 1 ? vscode.workspace.asRelativePath(paths[0]) : `${paths.length} paths`;
  const args = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Reading ${shown}`, cancellable: true },
    (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return readLogsForPanel(paths, {
        shown,
        signal: abort.signal,
        onProgress: (p) => progress.report({ message: `${formatCount(p.lines)} entries, file ${p.files} of ${p.of}` }),
      });
    },
  );
  open({
    ...args,
    designs: designs.map((d) => ({ label: d.label, text: d.text })),
    analysis: analysisOptions(),
    ...(choice ? { choice } : {}),
    remember: (c) => void memory?.update(CHOICE_KEY, c),
  });
}
