/**
 * `tdl stress`: a partition stress test from the command line, against the
 * embedded emulator or an account whose connection string is in an
 * environment variable; `tdl stress --cleanup` removes leftover stress
 * tables (stress/cleanup.ts). Ctrl+C cancels in any phase and the table is
 * still deleted (stress/signals.ts). Everything that can be checked — the
 * options, the design, the target, the --report file — is checked before an
 * emulator or a table is started.
 */
import * as fs from "node:fs";
import { UsageError } from "@core/errors";
import {
  buildStressJob,
  checkDesign,
  chooseEngine,
  runOn,
  STRESS_DEFAULTS,
  StressFailure,
  endpointHost,
  PHASE_WORDS,
  FidelityEmulator,
  type StressEngine,
  type StressJob,
  type StressPhase,
  type StressRequest,
  readEmulatorSelf,
  type EmulatorSelf,
} from "@runtime";
import { analyzeTdl } from "@core";
import type { StressReport, StressMode } from "@protocol";
import { command } from "../command";
import { ANALYSIS, analysisOf, choice, custom, duration, flag, integer, outputFile, positive, text, type Values } from "../options";
import { EXIT, failureResult } from "../failure";
import { readTextFile } from "../files";
import type { CliResult, Io } from "../output";
import { cleanupCommand } from "./stress/cleanup";
import { localEmulator, targetFromEnv, type StressTarget } from "./stress/target";
import { HURRY_DELETE_MS, StressInterrupts } from "./stress/signals";
import { summary } from "./stress/summary";
import { LOCUST_FORMS, LOCUST_OPTIONS, exportForm, ingestForm } from "./stress/locust";
import { declaredRates, designTable, rateWithin } from "../validate";
import { formatCount } from "@core/text/words";

const MODES = ["single-partition", "spread", "design"] as const satisfies readonly StressMode[];

/** `read=50,write=50` → the shares of reads and writes. */
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

const OPTIONS = {
  design: text("FILE", "the design"),
  table: text("NAME", "its table to stress"),
  emulator: flag("the embedded emulator (with --cleanup: the emulator on 127.0.0.1:10002, tdl emulator)"),
  "connection-string-env": text("VAR", "the environment variable that holds the account's connection string"),
  duration: duration("30s", "how long the load runs: 30s, 2m, 1h or 500ms", { above0: true }).default(30_000, "30s"),
  concurrency: integer("N", "requests in flight at once", { min: 1 }).default(STRESS_DEFAULTS.concurrency),
  mode: choice(
    MODES,
    "single-partition (one hot partition), spread (keys spread as the design spreads them) or design (its access patterns at their rates)",
    {
      invalid: (raw, name) => `--${name} must be ${MODES.join(", ")}, not '${raw.slice(0, 40)}'`,
    },
  ).default("spread"),
  mix: custom("read=50,write=50", "the shares of reads and writes", parseMix),
  batch: integer("N", "write in entity group transactions of N entities", {
    min: 1,
    max: 100,
    invalid: () => "--batch takes 1 to 100 (an entity group transaction's limit)",
  }),
  scale: positive("K", "in design mode, multiplies the design's rates"),
  preload: integer("N", "entities written before the run, for the reads (default 200)", { min: 0 }),
  "emulator-scale": positive("K", "scale the emulator's targets by K instead of calibrating to this machine"),
  "fail-on-hot": flag("exit 1 when the verdict is hot (for CI: the run itself succeeded, the design did not)"),
  "keep-table": flag("keep the stress table afterwards (to look at it; tdl stress --cleanup removes it)"),
  report: outputFile("FILE.json", "also write the JSON report to FILE.json (checked before the run starts)"),
  format: choice(["text", "json"], "text (a summary) or json (the report)").default("text"),
  "yes-real-account": flag("confirm a stress test of a real account: it loads it at peak and costs money"),
  cleanup: flag("delete leftover stress tables instead of running one"),
  "older-than": duration("10m", "with --cleanup: only tables older than this").default(600_000, "10m"),
  ...LOCUST_OPTIONS,
  ...ANALYSIS.options,
};

/** The parsed flags of `tdl stress`. */
export type StressValues = Values<typeof OPTIONS>;

export const stress = command({
  name: "stress",
  summary: "Stress-test a design's partitions in a fresh, marked stress… table, always deleted afterwards; print a summary",
  description:
    "The JSON report comes with --format json or into --report FILE. On the emulator, a short probe first measures what this machine serves and scales Azure's targets and the design's rates to it (or by --emulator-scale K). A non-emulator endpoint needs --yes-real-account. Ctrl+C cancels (the table is still deleted); a second Ctrl+C waits at most 10 s for the deletion; a third exits at once, naming the table.",
  exits:
    "0 done; 1 the run failed, was cancelled, is invalid (the service stalled or a Locust worker stopped: nothing to judge by) or a table could not be deleted; 2 bad usage",
  options: OPTIONS,
  required: ["design", "table"],
  oneOf: [{ options: ["emulator", "connection-string-env"], what: "target" }],
  forms: [
    {
      selector: "cleanup",
      options: ["older-than", "emulator", "connection-string-env", "yes-real-account"],
      own: ["older-than"],
      description:
        "Delete leftover stress tables that carry a stress test's marker and are older than --older-than (default 10m); tables without the marker are left alone.",
    },
    ...LOCUST_FORMS,
  ],
  run: (args, io) =>
    args.options.cleanup
      ? cleanup(args.options, args.given)
      : args.options.export
        ? exportForm(args.options, args.positionals[0]!, io)
        : args.options.ingest !== undefined
          ? ingestForm(args.options.ingest).then((r) => output(r, args.options.report, args.options.format))
          : run(args.options, io),
});

/** `tdl stress --cleanup`: the target's leftover stress tables. */
function cleanup(options: StressValues, given: ReadonlyMap<string, string>): Promise<CliResult> {
  const envVar = options["connection-string-env"];
  const target = envVar !== undefined ? targetFromEnv(envVar) : localEmulator();
  return cleanupCommand(target, options["older-than"], given.get("older-than") ?? "10m", options["yes-real-account"]);
}

/**
 * What the flags ask for, in the parts `buildStressJob` completes (as the VS Code command's do, so both get the same
 * defaults). `embedded`: the embedded emulator when the run starts one (its throttling scaled to this machine).
 */
export function stressRequest(
  options: StressValues,
  design: { text: string; file: string; table: string },
  target: StressTarget,
  embedded?: StressRequest["target"]["throttle"],
): StressRequest {
  return {
    target: {
      connection: target.connection,
      secret: target.secret,
      emulator: embedded ? true : undefined,
      confirmedRealAccount: options["yes-real-account"],
      throttle: embedded,
    },
    plan: {
      design,
      analysis: analysisOf(options),
      mode: options.mode,
      durationMs: options.duration,
      concurrency: options.concurrency,
      mix: options.mix,
      batch: options.batch,
      scale: options.scale,
      rate: options.rate,
      preload: options.preload,
      keepTable: options["keep-table"],
      emulatorScale: options["emulator-scale"],
    },
    limits: { hurryDeleteMs: HURRY_DELETE_MS },
  };
}

/** One stress run, its design and target checked before an emulator or a table starts. */
async function run(options: StressValues, io: Io): Promise<CliResult> {
  // Required by the declaration: present whenever the run form is.
  const [file, tableName] = [options.design!, options.table!];
  const envVar = options["connection-string-env"];
  const design = { text: readTextFile(file), file, table: tableName };
  // Checked before an emulator starts, so a bad variable, table or design costs nothing.
  const account = envVar !== undefined ? targetFromEnv(envVar) : undefined;
  const analysis = analyzeTdl(design.text, analysisOf(options));
  designTable(file, analysis, tableName);
  // No run of a load no account serves: a declared rate (× --scale) or --rate beyond it is the input's mistake.
  if (options.mode === "design") declaredRates(file, analysis, { table: tableName, scale: options.scale });
  if (options.rate !== undefined) rateWithin("rate", options.rate);
  checkDesign({ design, analysis: analysisOf(options), mode: options.mode, mix: options.mix, batch: options.batch });
  // Locust must be there before an emulator or a table is started for it.
  const engine = chooseEngine(options.engine, options.workers);
  const write = io.err;
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
      emulator = await FidelityEmulator.start({ scale: options["emulator-scale"] ?? 1 });
      target = {
        connection: { id: "cli", name: "emulator", kind: "emulator", endpoint: emulator.endpoint },
        secret: { connectionString: emulator.connectionString },
        local: true,
      };
    }
    // An emulator tdl did not start (tdl emulator) says itself whether it throttles: then its scale is the run's.
    const own = account?.local ? await readEmulatorSelf(target.connection.endpoint) : undefined;
    const request = stressRequest(options, design, target, emulator);
    const job = buildStressJob({
      ...request,
      target: { ...request.target, cleanupHint: hint ? `run: ${hint}` : "restart the run: the embedded emulator keeps nothing" },
      hooks: {
        signal: interrupts.cancel.signal,
        hurry: interrupts.hurry.signal,
        onPhase: (phase, table) => {
          interrupts.track(phase, table);
          if (phase === "delete") {
            deleting = true;
            deletingTable = table;
          }
          const line = phaseLine(phase, table, job, engine, endpointHost(target.connection.endpoint), own);
          if (line) say(line);
        },
        onDeleteWait: (w) =>
          say(
            `still trying to delete ${deletingTable ?? "the stress table"} (${w.reason}; ${(w.elapsedMs / 1000).toFixed(0)} s of at most ${(w.boundMs / 1000).toFixed(0)} s)`,
          ),
        onProgress: (p) => {
          progressShown = true;
          write(`\r${(p.elapsedMs / 1000).toFixed(1)} s · ${p.entities} entities · ${p.entitiesPerSecond} entities/s   `);
        },
      },
    });
    const report = await runOn(engine, job);
    if (progressShown) write("\n");
    if (deleting) say(`the stress table ${report.table} was deleted`);
    const done = output(report, options.report, options.format);
    // --fail-on-hot: the run succeeded; the design's verdict decides the exit, so CI can gate on it.
    if (options["fail-on-hot"] && report.verdict.exceedsTarget && done.exitCode === EXIT.clean)
      return {
        ...done,
        stderr: `${done.stderr}tdl: the verdict is hot (--fail-on-hot): ${report.verdict.headline}\n`,
        exitCode: EXIT.failed,
      };
    return done;
  } catch (e) {
    if (progressShown) write("\n");
    const failed = failureResult(e, "stress");
    // A run that failed still measured something: its report goes where a finished run's would.
    const measured = e instanceof StressFailure ? output(e.report, options.report, options.format, false) : undefined;
    return measured ? { ...measured, stderr: measured.stderr + failed.stderr, exitCode: failed.exitCode } : failed;
  } finally {
    interrupts.uninstall();
    await emulator?.stop();
  }
}

/** What the CLI says as a phase starts (nothing for the drain). */
function phaseLine(
  phase: StressPhase,
  table: string,
  job: StressJob,
  engine: StressEngine,
  host: string,
  own?: EmulatorSelf,
): string | undefined {
  const { plan } = job;
  const seconds = (plan.durationMs / 1000).toFixed(1);
  switch (phase) {
    case "create":
      return `creating the stress table ${table} at ${host}`;
    case "calibrate":
      if (own?.throttles)
        return `the emulator throttles at Azure's targets × ${own.scale} (tdl emulator --scale): the run is judged at that scale`;
      return plan.emulatorScale === undefined
        ? "calibrating the emulator (what this machine serves)"
        : `scaling the emulator's targets by ${plan.emulatorScale}`;
    case "preload":
      return `loading ${formatCount(plan.preload)} entities`;
    case "run":
      return engine.name === "locust"
        ? `running the load on Locust for ${seconds} s: a master and ${engine.workers} workers of ${plan.concurrency} users each`
        : `running the load for ${seconds} s at concurrency ${plan.concurrency}`;
    case "delete":
      return `${PHASE_WORDS.delete} ${table}`;
    default:
      return undefined;
  }
}

/**
 * The report on stdout: the summary, or JSON with `--format json`;
 * `--report FILE` writes the JSON to FILE as well. A file that cannot be
 * written loses nothing: the JSON then goes to stdout.
 */
function output(report: StressReport, file: string | undefined, format: string, withStopped = true): CliResult {
  const json = JSON.stringify(report, null, 2) + "\n";
  // An invalid run (the service stalled, a worker stopped) measured nothing to judge by: not a clean exit.
  const exitCode = report.stopped || report.verdict.invalid ? EXIT.failed : EXIT.clean;
  const stderr =
    report.stopped && withStopped
      ? `tdl: stopped: ${report.stopped}\n`
      : report.verdict.invalid
        ? `tdl: the run is invalid: ${report.verdict.invalid}\n`
        : "";
  if (file) {
    try {
      fs.writeFileSync(file, json);
    } catch (e) {
      return {
        stdout: json,
        stderr: `${stderr}tdl: cannot write the report to ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): it follows on stdout\n`,
        exitCode: EXIT.failed,
      };
    }
  }
  return { stdout: format === "json" ? json : summary(report, file), stderr, exitCode };
}
