/**
 * `tableDesign.runStressTest`: pick a design table (from the CodeLens, or
 * from the open `.tdl` files), a mode and a duration; run against the
 * current connection or the embedded emulator (a real account only after a
 * modal confirmation) with a cancellable progress notification; open the
 * report. Optionally compare with the key a quick fix proposes.
 */
import * as vscode from "vscode";
import { runStress, StressRefused } from "../stress/engine";
import { proposedAlternative } from "../stress/compare";
import type { StressMode, StressReport } from "../stress/report";
import { isLoopback } from "../account/connection-string";
import { AccountSession } from "../account/explorer";
import { analyzeTdl } from "../../../server/src/service";
import { showStressReport } from "./report-panel";
import { EmulatorService } from "./emulator-service";
import { ConnectionStore } from "../panel/explorer-controller";

interface Target {
  session?: AccountSession;
}

export class StressCommand {
  constructor(private readonly context: vscode.ExtensionContext, private readonly emulator: EmulatorService, private readonly store: ConnectionStore,
    private readonly current: () => Target) {}

  async run(uri?: string, table?: string): Promise<void> {
    const design = await this.pickTable(uri, table);
    if (!design) return;
    const mode = await vscode.window.showQuickPick([
      { label: "spread", description: "the same load over many partitions" },
      { label: "single-partition", description: "all of it on one partition (the guide's step 3)" },
      { label: "design", description: "the design's own access patterns and rates" },
    ], { title: `Stress test ${design.table}: mode` });
    if (!mode) return;
    const max = vscode.workspace.getConfiguration("tableDesign").get<number>("stress.maxDurationSeconds", 120);
    const seconds = await vscode.window.showInputBox({ title: "Duration in seconds", value: "10", validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= max ? undefined : `1 to ${max} seconds (tableDesign.stress.maxDurationSeconds)`) });
    if (!seconds) return;
    const alternative = proposedAlternative(design.text, design.table);
    let compare = false;
    if (alternative) {
      const choice = await vscode.window.showQuickPick([{ label: "This design only" }, { label: "Compare with the quick fix", description: alternative.title }], { title: "Compare designs?" });
      if (!choice) return;
      compare = choice.label.startsWith("Compare");
    }
    const target = await this.target();
    if (!target) return;
    const runs: Array<{ label: string; report: StressReport }> = [];
    const designs = [{ label: `${design.table} as designed`, text: design.text }, ...(compare && alternative ? [{ label: `${design.table} with the fix (${alternative.code})`, text: alternative.text }] : [])];
    try {
      for (const d of designs) {
        const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Stress test: ${d.label}`, cancellable: true }, (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return runStress({
            connection: target.connection, secret: target.secret, emulator: target.emulator, confirmedRealAccount: !target.emulator,
            design: { text: d.text, file: design.file, table: design.table }, mode: mode.label as StressMode, durationMs: Number(seconds) * 1000,
            maxDurationMs: max * 1000, concurrency: 16, mix: { read: 20, write: 80 }, signal: abort.signal,
            partitionTarget: vscode.workspace.getConfiguration("tableDesign").get<number>("partitionTargetEntitiesPerSecond", 2000),
            onProgress: (p) => progress.report({ message: `${(p.elapsedMs / 1000).toFixed(0)} s · ${p.entitiesPerSecond.toLocaleString("en-US")} entities/s` }),
          });
        });
        runs.push({ label: d.label, report });
        if (report.stopped === "cancelled") break;
      }
    } catch (e) {
      if (!(e instanceof StressRefused)) vscode.window.showErrorMessage(`Stress test failed: ${(e as Error).message}`);
      if (!runs.length) return;
    }
    showStressReport(this.context, `Stress test: ${design.table}`, runs);
  }

  private async pickTable(uri?: string, table?: string): Promise<{ text: string; file: string; table: string } | undefined> {
    if (uri && table) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      return { text: doc.getText(), file: doc.uri.fsPath, table };
    }
    const docs = vscode.workspace.textDocuments.filter((d) => d.languageId === "tdl" || d.fileName.endsWith(".tdl"));
    const items = docs.flatMap((d) => analyzeTdl(d.getText()).tables.filter((t) => !t.table.hasSyntaxError && t.table.name.text)
      .map((t) => ({ label: t.table.name.text, description: vscode.workspace.asRelativePath(d.uri), doc: d })));
    if (!items.length) {
      vscode.window.showWarningMessage("Open a .tdl design to stress-test one of its tables.");
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(items, { title: "Stress test which table?" });
    return pick && { text: pick.doc.getText(), file: pick.doc.uri.fsPath, table: pick.label };
  }

  /** The explorer's connection when one is active, else the embedded emulator; a real account only after confirmation. */
  private async target() {
    const session = this.current().session;
    if (session) {
      const emulator = isLoopback(new URL(session.connection.endpoint).hostname);
      if (!emulator) {
        const ok = await vscode.window.showWarningMessage(
          `Run a stress test against ${session.connection.name} (${session.connection.endpoint})? It writes at peak rate into a new table, which costs money, and deletes the table afterwards.`,
          { modal: true }, "Run against this account");
        if (ok !== "Run against this account") return undefined;
      }
      const secret = (await this.store.secret(session.connection.id)) ?? {};
      return { connection: session.connection, secret, emulator };
    }
    const { info, secret } = await this.emulator.start();
    return { connection: info, secret, emulator: true };
  }
}
