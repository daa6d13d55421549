/**
 * The embedded emulator in VS Code — Azurite behind the fidelity layer —
 * started on demand (or at activation when
 * `tableDesign.emulator.startOnActivation` is set), shown in the status bar,
 * stopped with VS Code; its traffic feeds the key-space heatmap.
 */
import * as vscode from "vscode";
import { FidelityEmulator, Secret, type StressTarget } from "@runtime";
import { ConnectionInfo, type TrafficSecond } from "@protocol";
import { describeError, stackOf, UnavailableError } from "@core/errors";

type ThrottleControl = NonNullable<StressTarget["throttle"]>;

/** Seconds of traffic kept for a heatmap opened late (ten minutes of continuous traffic). */
const RECENT_SECONDS = 600;

export class EmulatorHost implements vscode.Disposable {
  private emulator: FidelityEmulator | undefined;
  private starting: Promise<FidelityEmulator> | undefined;
  private readonly recent: TrafficSecond[] = [];
  private readonly listeners = new Set<(s: TrafficSecond) => void>();

  constructor(
    private readonly output: vscode.OutputChannel,
    private readonly status: vscode.StatusBarItem,
  ) {}

  /** Starts the emulator once; later calls return the running one. */
  async start(): Promise<{ info: ConnectionInfo; secret: Secret }> {
    let e = this.emulator;
    if (!e?.running) {
      const config = vscode.workspace.getConfiguration("tableDesign");
      this.starting ??= Promise.resolve(
        vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Starting the table emulator" }, () =>
          FidelityEmulator.start({
            port: config.get<number>("emulator.port", 0),
            fidelity: config.get<boolean>("emulator.fidelity", true),
            scale: config.get<number>("emulator.scale", 1),
            log: (l) => this.output.appendLine(l),
          }),
        ),
      );
      try {
        e = this.emulator = await this.starting;
      } catch (failure) {
        // Expected on a busy port, a missing Azurite, a slow machine: said as what it is, with the cause in the details.
        throw new UnavailableError(`could not start the table emulator: ${describeError(failure)}`, stackOf(failure));
      } finally {
        this.starting = undefined;
      }
      e.recorder.on("second", (s: TrafficSecond) => {
        this.recent.push(s);
        if (this.recent.length > RECENT_SECONDS) this.recent.shift();
        for (const l of this.listeners) l(s);
      });
      this.output.appendLine(`Table emulator (Azurite, in memory) on ${e.endpoint}, pid ${e.pid}`);
      this.status.text = `$(database) Tables: emulator :${e.port}`;
      this.status.tooltip = `Open the table explorer (emulator at ${e.endpoint})`;
    }
    return connectionOf(e);
  }

  /** The running emulator's throttling, which a stress run scales to this machine (as `tdl stress` does with its own emulator). */
  get throttle(): ThrottleControl | undefined {
    return this.emulator?.running ? this.emulator : undefined;
  }

  /** The running emulator's connection, without starting it (the explorer connects to it on open). */
  current(): { info: ConnectionInfo; secret: Secret } | undefined {
    const e = this.emulator;
    return e?.running ? connectionOf(e) : undefined;
  }

  /** The last ten minutes of traffic (seconds with traffic), for a heatmap opened late. */
  recentTraffic(): TrafficSecond[] {
    return [...this.recent];
  }

  onTraffic(listener: (s: TrafficSecond) => void): void {
    this.listeners.add(listener);
  }

  offTraffic(listener: (s: TrafficSecond) => void): void {
    this.listeners.delete(listener);
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

function connectionOf(e: FidelityEmulator): { info: ConnectionInfo; secret: Secret } {
  return {
    info: { id: "emulator", name: "Emulator", kind: "emulator", endpoint: e.endpoint },
    secret: { connectionString: e.connectionString },
  };
}
