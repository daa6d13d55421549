/**
 * The Locust side of `tdl stress`: its options, `--export locust DIR` (the
 * Locust and Azure Load Testing files of the test, with the engines sized
 * for the rate) and `--ingest DIR` (the workers' records back into the same
 * report as the built-in engine's). `--engine locust --workers N` runs in
 * the default form (commands/stress.ts). Everything is checked before
 * anything is measured or written: the folder, the design, the target.
 */
import * as path from "node:path";
import { ENGINES, LOCUST_WORKERS, prepareExport, readMeta, reportFromRecords, sizingText } from "@runtime";
import type { Form } from "../../command";
import { checkOutputFolder, makeFolder, writeWhole } from "../../destinations";
import { readTextFile } from "../../files";
import { analysisOf, choice, duration, integer, positive, text } from "../../options";
import type { CliResult, Io } from "../../output";
import { localEmulator, targetFromEnv } from "./target";
import { declaredRates, existingFolder, rateWithin } from "../../validate";
import { analyzeTdl } from "@core";
import { UsageError } from "@core/errors";
import type { StressMode, StressReport } from "@protocol";
import { formatCount, plural } from "@core/text/words";

export const LOCUST_OPTIONS = {
  engine: choice(ENGINES, "who sends the load: builtin (this process) or locust (a Locust master and --workers workers here)").default(
    "builtin",
  ),
  workers: integer("N", `with --engine locust: Locust workers on this machine (default ${LOCUST_WORKERS.default})`, {
    min: LOCUST_WORKERS.min,
    max: LOCUST_WORKERS.max,
  }),
  rate: positive("N", "single-partition and spread: calls per second in all, as an open load (design mode paces at the design's rates)"),
  export: choice(["locust"], "write the test's Locust and Azure Load Testing files to DIR instead of running it"),
  engines: integer("N", "with --export: engines on Azure Load Testing (default: sized for the rate)", { min: 1, max: 400 }),
  "key-vault": text("NAME", "with --export: the Key Vault the test definition's secrets refer to"),
  "valid-for": duration("24h", "with --export and an account key: how long the table SAS tokens are valid").default(86_400_000, "24h"),
  "p99-target": duration("1s", "with --export: the p99 latency above which Azure Load Testing fails the test").default(1000, "1s"),
  ingest: text("DIR", "read the Locust workers' records of a folder written by --export locust into the report"),
};

const ANALYSIS_NAMES = ["service", "partition-target", "rule"] as const;

/** The stress options the forms name: these, the run's and the analysis options. */
type Name =
  | keyof typeof LOCUST_OPTIONS
  | (typeof ANALYSIS_NAMES)[number]
  | "design"
  | "table"
  | "emulator"
  | "connection-string-env"
  | "mode"
  | "mix"
  | "batch"
  | "scale"
  | "duration"
  | "concurrency"
  | "preload"
  | "report"
  | "format";

export const LOCUST_FORMS: ReadonlyArray<Form<Name>> = [
  {
    selector: "export",
    positional: "DIR",
    required: ["design", "table"],
    options: [
      "design",
      "table",
      "emulator",
      "connection-string-env",
      "mode",
      "mix",
      "batch",
      "scale",
      "rate",
      "duration",
      "concurrency",
      "preload",
      "engines",
      "key-vault",
      "valid-for",
      "p99-target",
      ...ANALYSIS_NAMES,
    ],
    own: ["engines", "key-vault", "valid-for", "p99-target"],
    description:
      "Write the test's Locust files (locustfile.py, its runtime, the design's workload and Python key builders), the Azure Load Testing test definition (engines sized for the rate), run.json and a README to DIR; with an account key, one table SAS per engine for the Key Vault (never the key).",
  },
  {
    selector: "ingest",
    options: ["report", "format"],
    own: [],
    description:
      "Read the Locust workers' records in DIR (a folder written by --export locust, its records in DIR/tdl-records) into the stress report.",
  },
];

interface ExportValues {
  design?: string;
  table?: string;
  emulator: boolean;
  "connection-string-env"?: string;
  mode: StressMode;
  mix?: { read: number; write: number };
  batch?: number;
  scale?: number;
  rate?: number;
  duration: number;
  concurrency: number;
  preload?: number;
  engines?: number;
  "key-vault"?: string;
  "valid-for": number;
  "p99-target": number;
  service?: string;
  "partition-target"?: string;
  rule?: string;
}

/** `tdl stress --export locust DIR`. */
export async function exportForm(options: ExportValues, dir: string, io: Io): Promise<CliResult> {
  checkOutputFolder(dir);
  if (options.mode !== "design" && options.rate === undefined && options.engines === undefined)
    throw new UsageError(
      "--export with --mode single-partition or spread needs --rate N (the calls per second to size the engines for) or --engines N",
    );
  const [file, table] = [options.design!, options.table!];
  const text = readTextFile(file);
  if (options.rate !== undefined) rateWithin("rate", options.rate);
  if (options.mode === "design") declaredRates(file, analyzeTdl(text, analysisOf(options)), { table, scale: options.scale });
  const envVar = options["connection-string-env"];
  const target = envVar !== undefined ? targetFromEnv(envVar) : localEmulator();
  io.err("tdl: sizing: measuring one Locust worker (a few seconds)\n");
  const result = await prepareExport({
    design: { text, file, table },
    analysis: analysisOf(options),
    mode: options.mode,
    mix: options.mix,
    batch: options.batch,
    scale: options.scale,
    rate: options.rate,
    durationMs: options.duration,
    concurrency: options.concurrency,
    preload: options.preload,
    connection: target.connection,
    secret: target.secret,
    engines: options.engines,
    keyVault: options["key-vault"],
    validForMs: options["valid-for"],
    p99Ms: options["p99-target"],
  });
  makeFolder(dir);
  const lines: string[] = [];
  for (const f of result.files) {
    const where = path.join(dir, ...f.name.split("/"));
    makeFolder(path.dirname(where));
    writeWhole(where, f.text, f.secret ? 0o600 : undefined);
    lines.push(`wrote ${where}`);
  }
  const p = result.plan;
  lines.push(
    `${p.mode} workload of ${p.design.table} into the table ${p.table}: ${p.rate ? `${formatCount(p.rate)} calls/s in all` : "a closed load"} for ${Math.round(p.durationMs / 1000)} s on ${plural(p.workers, "engine")}`,
    `sizing: ${sizingText(result.sizing, "engines")}${result.uncalibrated ? ` (no worker was calibrated: ${result.uncalibrated})` : ""}`,
    result.auth.kind === "sas"
      ? `credential: one table SAS per engine in ${path.join(dir, "secrets")} (for the Key Vault; see README.md); the account key is in no file`
      : "credential: SharedKeyLite, the account key from the Key Vault (see README.md)",
  );
  return { stdout: lines.join("\n") + "\n", stderr: "", exitCode: 0 };
}

/** `tdl stress --ingest DIR`: the report (the caller prints it as a run's). */
export async function ingestForm(dir: string): Promise<StressReport> {
  existingFolder(dir);
  return reportFromRecords(dir, readMeta(dir));
}
