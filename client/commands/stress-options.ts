/**
 * What the VS Code stress command asks of the engine, free of `vscode` so a
 * Node harness runs exactly the command's code path. The command runs as
 * `tdl stress` does: the same concurrency and mix (writes only unless the
 * design says otherwise), the embedded emulator's throttling handed to the
 * run so it is calibrated and scaled to this machine, and a compared design
 * judged at the first run's calibration. Earlier the command sent a 20 %
 * point-read mix and no throttle control, so its figures and verdicts
 * differed from the CLI's for the same design.
 */
import type { Secret, StressRequest, StressTarget } from "@runtime";
import type { ConnectionInfo, StressMode } from "@protocol";
import type { AnalysisOptions } from "@core";

/** Where the command runs: the active connection or the embedded emulator, with its throttle hook. */
export interface CommandTarget {
  connection: ConnectionInfo;
  secret: Secret;
  emulator: boolean;
  throttle?: StressTarget["throttle"];
}

export interface CommandRun {
  target: CommandTarget;
  design: { text: string; file: string; table: string };
  mode: StressMode;
  seconds: number;
  maxSeconds: number;
  analysis: AnalysisOptions;
  cleanupHint: string;
  signal?: AbortSignal;
  /** The first run's calibration when designs are compared: both are judged at the same scale. */
  calibration?: StressRequest["plan"]["calibration"];
  /** Called at most twice a second with the run's figures so far. */
  onProgress?: NonNullable<StressRequest["hooks"]>["onProgress"];
}

/**
 * What one run of the command asks for, in the parts `buildStressJob`
 * completes (its defaults, the CLI's, fill the rest). A real account counts
 * as confirmed: the command asked in a modal first.
 */
export function commandStressRequest(r: CommandRun): StressRequest {
  return {
    target: {
      connection: r.target.connection,
      secret: r.target.secret,
      emulator: r.target.emulator,
      confirmedRealAccount: !r.target.emulator,
      throttle: r.target.throttle,
      cleanupHint: r.cleanupHint,
    },
    plan: {
      design: r.design,
      analysis: r.analysis,
      mode: r.mode,
      durationMs: r.seconds * 1000,
      ...(r.calibration ? { calibration: r.calibration } : {}),
    },
    limits: { maxDurationMs: r.maxSeconds * 1000 },
    hooks: { signal: r.signal, onProgress: r.onProgress },
  };
}

/**
 * A report tab's title: the design table, the mode and the time it ran, so
 * two reports never share a title ("Stress test: Orders · spread · 14:03:27").
 */
export function reportTitle(table: string, mode: StressMode, at: Date, compared: boolean): string {
  const time = [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
  return `Stress test: ${table}${compared ? " (compared with its fix)" : ""} · ${mode} · ${time}`;
}

/** Every table of every design, for the picker: the tables that parse and have a name, with the file they are in. */
export function designTables(
  files: Array<{ path: string; label: string; text: string }>,
  tablesOf: (text: string) => string[],
): Array<{ table: string; path: string; label: string; text: string }> {
  return files
    .flatMap((f) => tablesOf(f.text).map((table) => ({ table, ...f })))
    .sort((a, b) => a.label.localeCompare(b.label) || a.table.localeCompare(b.table));
}
