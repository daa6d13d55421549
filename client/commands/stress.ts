/**
 * `tableDesign.runStressTest`: pick a design table (from the CodeLens, or
 * from every `.tdl` in the workspace), a mode and a duration; run against
 * the current connection or the embedded emulator (a real account only
 * after a modal confirmation) with a cancellable progress notification, with
 * the options `tdl stress` uses (client/commands/stress-options.ts); open the report in a
 * tab named after the table, mode and time. Optionally compare with the key
 * a quick fix proposes, judged at the first run's calibration.
 * `tableDesign.removeStressTables`: find the marked leftovers of earlier
 * runs at the active connection (or the running embedded emulator), list
 * them in a confirmation, and remove them.
 */
import * as vscode from "vscode";
import {
  buildStressJob,
  chooseEngine,
  runOn,
  type StressEngine,
  LOCUST_WORKERS,
  StressFailure,
  proposedAlternative,
  describeLeftover,
  findLeftovers,
  LeftoverTable,
  removeLeftovers,
  endpointHost,
  isLoopback,
  makeClients,
  Secret,
  AccountSession,
  LOCUST_INSTALL,
} from "@runtime";
import { entityRate } from "@core/text/words";
import { ConnectionInfo, type StressMode, type StressReport } from "@protocol";
import { analyzeTdl } from "@core";
import { COMMANDS } from "@protocol/commands";
import { analysisOptions } from "../vscode/settings";
import { commandStressRequest, CommandTarget, designTables, reportTitle } from "./stress-options";
import { EmulatorHost } from "../vscode/emulator-host";
import { ConnectionStore } from "../explorer/controller";
import type { Commands } from "../vscode/commands";
import { workspaceDesigns } from "../vscode/design-files";

interface Target {
  session?: AccountSession;
}

/** The command that removes leftover tables, as a failure message names it and its button runs it. */
const REMOVE = COMMANDS.removeStressTables;

export class StressCommand {
  constructor(
    private readonly emulator: EmulatorHost,
    private readonly store: ConnectionStore,
    private readonly current: () => Target,
    private readonly showReport: (title: string, runs: Array<{ label: string; report: StressReport }>) => void,
    private readonly commands: Commands,
  ) {}

  async run(uri?: string, table?: string): Promise<void> {
    const design = await this.pickTable(uri, table);
    if (!design) return;
    const mode = await vscode.window.showQuickPick(
      [
        { label: "spread", description: "the same load over many partitions" },
        { label: "single-partition", description: "all of it on one partition (the guide's step 3)" },
        { label: "design", description: "the design's own access patterns and rates" },
      ],
      { title: `Stress test ${design.table}: mode` },
    );
    if (!mode) return;
    const max = vscode.workspace.getConfiguration("tableDesign").get<number>("stress.maxDurationSeconds", 120);
    const seconds = await vscode.window.showInputBox({
      title: "Duration in seconds",
      value: "10",
      validateInput: (v) =>
        /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= max ? undefined : `1 to ${max} seconds (tableDesign.stress.maxDurationSeconds)`,
    });
    if (!seconds) return;
    const engine = await this.pickEngine();
    if (!engine) return;
    const options = analysisOptions();
    const alternative = proposedAlternative(design.text, design.table, options);
    let compare = false;
    if (alternative) {
      const choice = await vscode.window.showQuickPick(
        [{ label: "This design only" }, { label: "Compare with the quick fix", description: alternative.title }],
        { title: "Compare designs?" },
      );
      if (!choice) return;
      compare = choice.label.startsWith("Compare");
    }
    const target = await this.target();
    if (!target) return;
    const runs: Array<{ label: string; report: StressReport }> = [];
    const designs = [
      { label: `${design.table} as designed`, text: design.text },
      ...(compare && alternative ? [{ label: `${design.table} with the fix (${alternative.code})`, text: alternative.text }] : []),
    ];
    const startedAt = new Date();
    try {
      for (const d of designs) {
        const report = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: `Stress test: ${d.label}${engine.name === "locust" ? ` on Locust (${engine.workers} workers)` : ""}`,
            cancellable: true,
          },
          (progress, token) => {
            const abort = new AbortController();
            token.onCancellationRequested(() => abort.abort());
            const request = commandStressRequest({
              target,
              design: { text: d.text, file: design.file, table: design.table },
              mode: mode.label as StressMode,
              seconds: Number(seconds),
              maxSeconds: max,
              analysis: options,
              signal: abort.signal,
              calibration: runs[0]?.report.calibration,
              cleanupHint: `run the command 'Table Design: ${REMOVE.title}' while connected to ${endpointHost(target.connection.endpoint)}`,
              onProgress: (p) => progress.report({ message: `${(p.elapsedMs / 1000).toFixed(0)} s · ${entityRate(p.entitiesPerSecond)}` }),
            });
            return runOn(engine, buildStressJob(request));
          },
        );
        // Cancelled before the load ran: there is nothing to report, only that the table is gone.
        if (report.stopped?.startsWith("cancelled while")) {
          vscode.window.showInformationMessage(`Stress test ${report.stopped}; the table ${report.table} was deleted.`);
          break;
        }
        runs.push({ label: d.label, report });
        if (report.stopped?.startsWith("cancelled")) break;
      }
    } catch (e) {
      if (e instanceof StressFailure && e.leftover) {
        void vscode.window.showErrorMessage(`Stress test: ${e.message}`, REMOVE.title).then((choice) => {
          if (choice) void this.commands.execute("removeStressTables");
        });
      } else this.commands.report(COMMANDS.runStressTest.title, e);
      // What the load measured before it failed is still worth seeing; a failure before the load has nothing to show.
      if (e instanceof StressFailure && e.phase !== "create" && e.phase !== "preload")
        runs.push({ label: `${design.table} (${e.phase === "delete" ? "its table was left behind" : "failed"})`, report: e.report });
      if (!runs.length) return;
    }
    this.showReport(reportTitle(design.table, mode.label as StressMode, startedAt, runs.length > 1), runs);
  }

  /**
   * Who sends the load (the `tableDesign.stress.engine` setting): this
   * process, or Locust with workers on this machine — or, with "ask", a
   * choice, Locust offered with its install line when it is missing.
   */
  private async pickEngine(): Promise<StressEngine | undefined> {
    const config = vscode.workspace.getConfiguration("tableDesign");
    const setting = config.get<string>("stress.engine", "builtin");
    const workers = config.get<number>("stress.locustWorkers", LOCUST_WORKERS.default);
    if (setting === "builtin") return chooseEngine("builtin");
    let locust: StressEngine | undefined;
    try {
      locust = chooseEngine("locust", workers);
    } catch {
      locust = undefined;
    }
    if (setting === "ask") {
      const pick = await vscode.window.showQuickPick(
        [
          { label: "Built-in", description: "this process: the quick local check" },
          {
            label: `Locust, ${locust?.name === "locust" ? locust.workers : workers} workers`,
            description: locust ? "a Locust master and its workers on this machine" : `not installed: ${LOCUST_INSTALL}`,
          },
        ],
        { title: "Who sends the load?" },
      );
      if (!pick) return undefined;
      if (pick.label === "Built-in") return chooseEngine("builtin");
    }
    if (!locust) {
      void vscode.window.showErrorMessage(
        `The stress test runs on Locust (tableDesign.stress.engine), which is not installed: ${LOCUST_INSTALL}.`,
      );
      return undefined;
    }
    return locust;
  }

  /** `tableDesign.removeStressTables`: the marked leftovers at the active connection or the running emulator, removed after a confirmation. */
  async removeLeftovers(): Promise<void> {
    const target = await this.cleanupTarget();
    if (!target) {
      vscode.window.showInformationMessage(
        "No connection is active and the embedded emulator is not running: there is nowhere to look for leftover stress tables.",
      );
      return;
    }
    const host = endpointHost(target.connection.endpoint);
    const clients = makeClients(target.connection, target.secret);
    let tables: LeftoverTable[];
    try {
      tables = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Looking for leftover stress tables at ${host}`, cancellable: true },
        (_p, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return findLeftovers(clients, target.connection.endpoint, { signal: abort.signal });
        },
      );
    } catch (e) {
      vscode.window.showErrorMessage(`Could not list the stress tables at ${host}: ${(e as Error).message}`);
      return;
    }
    const removable = tables.filter((t) => !t.keep);
    const kept = tables.filter((t) => t.keep).map((t) => `${t.table}: ${t.keep}`);
    if (!removable.length) {
      vscode.window.showInformationMessage(
        `No leftover stress tables at ${host}.${kept.length ? ` Kept ${kept.length}: ${kept.join("; ")}` : ""}`,
      );
      return;
    }
    const plural = removable.length === 1 ? "table" : "tables";
    const ok = await vscode.window.showWarningMessage(
      `Remove ${removable.length} leftover stress ${plural} at ${host}?`,
      {
        modal: true,
        detail:
          removable.map((t) => describeLeftover(t)).join("\n") +
          (kept.length ? `\n\nKept (not made by a finished stress test of this tool):\n${kept.join("\n")}` : ""),
      },
      "Remove",
    );
    if (ok !== "Remove") return;
    const results = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Removing ${removable.length} stress ${plural}` },
      () => removeLeftovers(clients, target.connection.endpoint, removable),
    );
    const failed = results.filter((r) => !r.removed);
    const removed = results.filter((r) => r.removed).map((r) => r.table);
    if (failed.length)
      vscode.window.showErrorMessage(
        `Removed ${removed.length} of ${removable.length} stress ${plural} at ${host}; not removed: ${failed.map((f) => `${f.table} (${f.reason})`).join("; ")}`,
      );
    else vscode.window.showInformationMessage(`Removed ${removed.length} leftover stress ${plural} at ${host}: ${removed.join(", ")}`);
  }

  /** The active connection, else the embedded emulator if it runs (a stopped one, in memory, holds nothing). */
  private async cleanupTarget(): Promise<{ connection: ConnectionInfo; secret: Secret } | undefined> {
    const session = this.current().session;
    if (session) return { connection: session.connection, secret: (await this.store.secret(session.connection.id)) ?? {} };
    if (!this.emulator.running) return undefined;
    const { info, secret } = await this.emulator.start();
    return { connection: info, secret };
  }

  /**
   * The CodeLens's table, or a pick among every table of every `.tdl` in the
   * workspace (an open editor's text when it is open, so unsaved edits count).
   */
  async pickTable(uri?: string, table?: string): Promise<{ text: string; file: string; table: string } | undefined> {
    if (uri && table) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      return { text: doc.getText(), file: doc.uri.fsPath, table };
    }
    const files = (await workspaceDesigns()).map((f) => ({ path: f.uri.fsPath, label: f.label, text: f.text }));
    const options = analysisOptions();
    const items = designTables(files, (text) =>
      analyzeTdl(text, options)
        .tables.filter((t) => !t.table.hasSyntaxError && t.table.name.text)
        .map((t) => t.table.name.text),
    ).map((t) => ({ label: t.table, description: t.label, design: t }));
    if (!items.length) {
      vscode.window.showWarningMessage("No .tdl design with a table in this workspace: create one to stress-test it.");
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(items, { title: "Stress test which table?", matchOnDescription: true });
    return pick && { text: pick.design.text, file: pick.design.path, table: pick.design.table };
  }

  /** The explorer's connection when one is active, else the embedded emulator; a real account only after confirmation. */
  private async target(): Promise<CommandTarget | undefined> {
    const session = this.current().session;
    if (session) {
      const emulator = isLoopback(new URL(session.connection.endpoint).hostname);
      if (!emulator) {
        const ok = await vscode.window.showWarningMessage(
          `Run a stress test against ${session.connection.name} (${session.connection.endpoint})? It writes at peak rate into a new table, which costs money, and deletes the table afterwards.`,
          { modal: true },
          "Run against this account",
        );
        if (ok !== "Run against this account") return undefined;
      }
      const secret = (await this.store.secret(session.connection.id)) ?? {};
      // The explorer on the embedded emulator: its throttling is scaled to this machine, as when no explorer is open.
      const embedded = this.emulator.current()?.info.endpoint === session.connection.endpoint;
      return { connection: session.connection, secret, emulator, throttle: embedded ? this.emulator.throttle : undefined };
    }
    const { info, secret } = await this.emulator.start();
    return { connection: info, secret, emulator: true, throttle: this.emulator.throttle };
  }
}
