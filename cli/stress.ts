/**
 * `tdl stress`: a partition stress test from the command line, against the
 * embedded emulator or an account whose connection string is in an
 * environment variable; `tdl stress --cleanup` removes leftover stress
 * tables. Ctrl+C cancels in any phase and the table is still deleted (see
 * stress-signals.ts). Exit 0 done, 1 the run failed or was cancelled, 2 bad
 * usage (the README's "The `tdl` command").
 */
import * as fs from "node:fs";
import { analysisOptions, ANALYSIS_OPTIONS, parseArgs, UsageError } from "./args";
import { InputError } from "./files";
import {
  checkDesign,
  runStress,
  STRESS_DEFAULTS,
  StressFailure,
  StressInputError,
  StressRefused,
  endpointHost,
  PHASE_WORDS,
  FidelityEmulator,
} from "@runtime";
import type { StressReport, StressMode } from "@protocol";
import { checkCleanupOptions, cleanupCommand } from "./stress-cleanup";
import type { CliResult } from "./output";
import { localEmulator, targetFromEnv } from "./stress-target";
import { HURRY_DELETE_MS, StressInterrupts } from "./stress-signals";
import { COMMAND_HELP } from "./help";
import { summary } from "./stress-summary";

const MODES: StressMode[] = ["single-partition", "spread", "design"];

export function parseDuration(raw: string, option = "--duration"): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(raw.trim());
  if (!m) throw new UsageError(`${option} must look like 30s, 2m, 1h or 500ms, not '${raw.slice(0, 40)}'`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? "s") as "ms" | "s" | "m" | "h" | "d"];
  return Number(m[1]) * unit;
}

export function parseMix(raw: string): { read: number; write: number } {
  const mix = { read: 0, write: 0 };
  for (const part of raw.split(",")) {
    const [k, v] = part.split("=").map((x) => x.trim());
    if ((k !== "read" && k !== "write") || !/^\d+$/.test(v ?? ""))
      throw new UsageError(`--mix takes read=N,write=N, not '${raw.slice(0, 40)}'`);
    mix[k] = Number(v);
  }
  if (mix.read + mix.write <= 0) throw new UsageError("--mix needs a positive share");
  return mix;
}

export async function stressCommand(argv: string[]): Promise<CliResult> {
  const { options } = parseArgs(
    argv,
    [
      "design",
      "table",
      "connection-string-env",
      "duration",
      "concurrency",
      "mode",
      "mix",
      "batch",
      "report",
      "scale",
      "preload",
      "emulator-scale",
      "older-than",
      "format",
      ...ANALYSIS_OPTIONS,
    ],
    ["emulator", "keep-table", "yes-real-account", "cleanup", "help"],
  );
  if (options.has("help")) return { stdout: COMMAND_HELP.stress, stderr: "", exitCode: 0 };
  const envVar = options.get("connection-string-env") as string | undefined;
  if (options.has("emulator") === !!envVar) throw new UsageError("choose one target: --emulator or --connection-string-env VAR");
  if (options.has("cleanup")) {
    checkCleanupOptions(options.keys());
    const olderThanText = (options.get("older-than") as string | undefined) ?? "10m";
    const target = envVar ? targetFromEnv(envVar) : localEmulator();
    return cleanupCommand(target, parseDuration(olderThanText, "--older-than"), olderThanText, options.has("yes-real-account"));
  }
  if (options.has("older-than")) throw new UsageError("--older-than goes with --cleanup");
  const file = options.get("design") as string | undefined;
  const tableName = options.get("table") as string | undefined;
  if (!file || !tableName) throw new UsageError("stress needs --design FILE and --table NAME (or --cleanup)");
  const mode = (options.get("mode") ?? "spread") as StressMode;
  if (!MODES.includes(mode)) throw new UsageError(`--mode must be ${MODES.join(", ")}, not '${mode}'`);
  const concurrency = Number(options.get("concurrency") ?? STRESS_DEFAULTS.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError("--concurrency needs a whole number ≥ 1");
  const batch = options.has("batch") ? Number(options.get("batch")) : undefined;
  if (batch !== undefined && (!Number.isInteger(batch) || batch < 1 || batch > 100))
    throw new UsageError("--batch takes 1 to 100 (an entity group transaction's limit)");
  const preload = options.has("preload") ? Number(options.get("preload")) : undefined;
  if (preload !== undefined && (!Number.isInteger(preload) || preload < 0)) throw new UsageError("--preload needs a whole number ≥ 0");
  const durationMs = parseDuration((options.get("duration") as string) ?? "30s");
  if (!(durationMs > 0) || !Number.isFinite(durationMs))
    throw new UsageError(`--duration must be longer than 0, not '${String(options.get("duration")).slice(0, 40)}'`);
  const format = (options.get("format") ?? "text") as string;
  if (format !== "text" && format !== "json") throw new UsageError(`--format must be text or json, not '${format.slice(0, 40)}'`);
  const scale = positive(options, "scale");
  const emulatorScale = positive(options, "emulator-scale");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  // Checked before an emulator starts, so a bad variable, table or design costs nothing.
  const account = envVar ? targetFromEnv(envVar) : undefined;
  const mix = options.has("mix") ? parseMix(options.get("mix") as string) : undefined;
  try {
    checkDesign({ design: { text, file, table: tableName }, analysis: analysisOptions(options), mode, mix, batch });
  } catch (e) {
    if (e instanceof StressInputError) throw new UsageError(e.message);
    throw e;
  }
  const reportFile = options.get("report") as string | undefined;
  const write = (s: string) => void process.stderr.write(s);
  let progressShown = false;
  let deleting = false;
  let deletingTable: string | undefined;
  const say = (s: string) => {
    write(`${progressShown ? "\n" : ""}tdl: ${s}\n`);
    progressShown = false;
  };
  const hint = account
    ? `tdl stress --cleanup --older-than 0s --connection-string-env ${account.envVar}${account.local ? "" : " --yes-real-account"}`
    : undefined;
  const interrupts = new StressInterrupts(
    (table) =>
      account
        ? `the stress table ${table} may remain at ${endpointHost(account.connection.endpoint)}; remove it with: ${hint}`
        : `the embedded emulator stops with tdl, and the stress table ${table} with it`,
    write,
  );
  interrupts.install();
  let emulator: FidelityEmulator | undefined;
  try {
    let target = account;
    if (!target) {
      // The embedded emulator with Azure fidelity: it rejects and throttles as the service would (targets × --emulator-scale).
      emulator = await FidelityEmulator.start({ scale: emulatorScale ?? 1 });
      target = {
        connection: { id: "cli", name: "emulator", kind: "emulator", endpoint: emulator.endpoint },
        secret: { connectionString: emulator.connectionString },
        local: true,
      };
    }
    const host = endpointHost(target.connection.endpoint);
    const report = await runStress({
      connection: target.connection,
      secret: target.secret,
      emulator: emulator ? true : undefined,
      confirmedRealAccount: options.has("yes-real-account"),
      design: { text, file, table: tableName },
      analysis: analysisOptions(options),
      mode,
      durationMs,
      concurrency,
      mix,
      batch,
      scale,
      preload,
      keepTable: options.has("keep-table"),
      // The run scales the embedded emulator's throttling to this machine (calibrated, or --emulator-scale).
      throttle: emulator,
      emulatorScale,
      signal: interrupts.cancel.signal,
      hurry: interrupts.hurry.signal,
      hurryDeleteMs: HURRY_DELETE_MS,
      cleanupHint: hint ? `run: ${hint}` : "restart the run: the embedded emulator keeps nothing",
      onPhase: (phase, table) => {
        interrupts.track(phase, table);
        if (phase === "create") say(`creating the stress table ${table} at ${host}`);
        else if (phase === "calibrate")
          say(
            emulatorScale === undefined
              ? "calibrating the emulator (what this machine serves)"
              : `scaling the emulator's targets by ${emulatorScale}`,
          );
        else if (phase === "preload") say(`loading ${(preload ?? 200).toLocaleString("en-US")} entities`);
        else if (phase === "run") say(`running the load for ${(durationMs / 1000).toFixed(1)} s at concurrency ${concurrency}`);
        else if (phase === "delete") {
          deleting = true;
          deletingTable = table;
          say(`${PHASE_WORDS.delete} ${table}`);
        }
      },
      onDeleteWait: (w) =>
        say(
          `still trying to delete ${deletingTable ?? "the stress table"} (${w.reason}; ${(w.elapsedMs / 1000).toFixed(0)} s of at most ${(w.boundMs / 1000).toFixed(0)} s)`,
        ),
      onProgress: (p) => {
        progressShown = true;
        write(`\r${(p.elapsedMs / 1000).toFixed(1)} s · ${p.entities} entities · ${p.entitiesPerSecond} entities/s   `);
      },
    });
    if (progressShown) write("\n");
    if (deleting) say(`the stress table ${report.table} was deleted`);
    return output(report, reportFile, format);
  } catch (e) {
    if (e instanceof StressRefused || e instanceof StressInputError) return { stdout: "", stderr: `tdl: ${e.message}\n`, exitCode: 2 };
    if (progressShown) write("\n");
    const report = e instanceof StressFailure ? e.report : undefined;
    const out = report ? output(report, reportFile, format, false) : { stdout: "", stderr: "", exitCode: 1 };
    return { ...out, stderr: `${out.stderr}tdl: ${(e as Error).message}\n`, exitCode: 1 };
  } finally {
    interrupts.uninstall();
    await emulator?.stop();
  }
}

/** A positive finite number option, or undefined when absent. */
function positive(options: Map<string, string | true>, name: string): number | undefined {
  if (!options.has(name)) return undefined;
  const n = Number(options.get(name));
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${name} needs a positive number, not '${String(options.get(name)).slice(0, 40)}'`);
  return n;
}

/**
 * The report on stdout: the summary, or JSON with `--format json`;
 * `--report FILE` writes the JSON to FILE as well. A file that cannot be
 * written loses nothing: the JSON then goes to stdout.
 */
function output(report: StressReport, file: string | undefined, format: string, withStopped = true): CliResult {
  const json = JSON.stringify(report, null, 2) + "\n";
  const exitCode = report.stopped ? 1 : 0;
  const stderr = report.stopped && withStopped ? `tdl: stopped: ${report.stopped}\n` : "";
  if (file) {
    try {
      fs.writeFileSync(file, json);
    } catch (e) {
      return {
        stdout: json,
        stderr: `${stderr}tdl: cannot write the report to ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): it follows on stdout\n`,
        exitCode: 1,
      };
    }
  }
  return { stdout: format === "json" ? json : summary(report, file), stderr, exitCode };
}
