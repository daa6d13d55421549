/**
 * The embedded emulator in VS Code: started on demand (or at activation
 * when `tableDesign.emulator.startOnActivation` is set), shown in the status
 * bar, stopped with VS Code.
 */
import * as vscode from "vscode";
import { EmbeddedEmulator } from "../emulator/azurite";
import { ConnectionInfo } from "../account/model";
import { Secret } from "../account/clients";

export class EmulatorService implements vscode.Disposable {
  private emulator: EmbeddedEmulator | undefined;
  private starting: Promise<EmbeddedEmulator> | undefined;

  constructor(private readonly output: vscode.OutputChannel, private readonly status: vscode.StatusBarItem) {}

  /** Starts the emulator once; later calls return the running one. */
  async start(): Promise<{ info: ConnectionInfo; secret: Secret }> {
    let e = this.emulator;
    if (!e?.running) {
      this.starting ??= Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Starting the table emulator" }, () =>
        EmbeddedEmulator.start({ port: vscode.workspace.getConfiguration("tableDesign").get<number>("emulator.port", 0), log: (l) => this.output.appendLine(l) })));
      try {
        e = this.emulator = await this.starting;
      } finally {
        this.starting = undefined;
      }
      this.output.appendLine(`Table emulator (Azurite, in memory) on ${e.endpoint}, pid ${e.pid}`);
      this.status.text = `$(database) Tables: emulator :${e.port}`;
      this.status.tooltip = `Open the table explorer (emulator at ${e.endpoint})`;
    }
    return { info: { id: "emulator", name: "Emulator", kind: "emulator", endpoint: e.endpoint }, secret: { connectionString: e.connectionString } };
  }

  get running(): boolean {
    return !!this.emulator?.running;
  }

  async stop(): Promise<void> {
    await this.emulator?.stop();
    this.emulator = undefined;
    this.status.text = "$(database) Tables";
  }

  dispose(): void {
    void this.stop();
  }
}
