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
import { type Secret, type StressOptions, STRESS_DEFAULTS } from "@runtime";
import type { ConnectionInfo, StressMode } from "@protocol";
import type { AnalysisOptions } from "@core";

/** Where the command runs: the active connection or the embedded emulator, with its throttle hook. */
export interface CommandTarget {
  connection: ConnectionInfo;
  secret: Secret;
  emulator: boolean;
  throttle?: StressOptions["throttle"];
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
  calibration?: StressOptions["calibration"];
  /** Called at most twice a second with the run's figures so far. */
  onProgress?: StressOptions["onProgress"];
}

/** The engine options for one run of the command. */
export function commandStressOptions(r: CommandRun): StressOptions {
  return {
    connection: r.target.connection,
    secret: r.target.secret,
    emulator: r.target.emulator,
    confirmedRealAccount: !r.target.emulator,
    design: r.design,
    mode: r.mode,
    durationMs: r.seconds * 1000,
    maxDurationMs: r.maxSeconds * 1000,
    concurrency: STRESS_DEFAULTS.concurrency,
    signal: r.signal,
    cleanupHint: r.cleanupHint,
    analysis: r.analysis,
    ...(r.target.emulator && r.target.throttle ? { throttle: r.target.throttle } : {}),
    ...(r.calibration ? { calibration: r.calibration } : {}),
    onProgress: r.onProgress,
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
