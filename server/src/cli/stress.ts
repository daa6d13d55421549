/**
 * `tdl stress`: a partition stress test from the command line, against the
 * embedded emulator or an account whose connection string is in an
 * environment variable. SIGINT cancels the run; the table is deleted anyway.
 */
import * as fs from "node:fs";
import { parseArgs, UsageError } from "./args";
import { InputError } from "./files";
import { runStress, StressRefused } from "../../../client/src/stress/engine";
import type { StressReport, StressMode } from "../../../client/src/stress/report";
import { FidelityEmulator } from "../../../client/src/emulator/fidelity-emulator";
import { parseConnectionString } from "../../../client/src/account/connection-string";

export interface CliOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const MODES: StressMode[] = ["single-partition", "spread", "design"];

export function parseDuration(raw: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw.trim());
  if (!m) throw new UsageError(`--duration must look like 30s, 2m or 500ms, not '${raw}'`);
  const n = Number(m[1]);
  return m[2] === "ms" ? n : m[2] === "m" ? n * 60_000 : n * 1000;
}

export function parseMix(raw: string): { read: number; write: number } {
  const mix = { read: 0, write: 0 };
  for (const part of raw.split(",")) {
    const [k, v] = part.split("=").map((x) => x.trim());
    if ((k !== "read" && k !== "write") || !/^\d+$/.test(v ?? "")) throw new UsageError(`--mix takes read=N,write=N, not '${raw}'`);
    mix[k] = Number(v);
  }
  if (mix.read + mix.write <= 0) throw new UsageError("--mix needs a positive share");
  return mix;
}

export async function stressCommand(argv: string[]): Promise<CliOutput> {
  const { options } = parseArgs(argv, ["design", "table", "connection-string-env", "duration", "concurrency", "mode", "mix", "batch", "report", "scale", "preload", "emulator-scale"],
    ["emulator", "keep-table", "yes-real-account"]);
  const file = options.get("design") as string | undefined;
  const tableName = options.get("table") as string | undefined;
  if (!file || !tableName) throw new UsageError("stress needs --design FILE and --table NAME");
  const mode = (options.get("mode") ?? "spread") as StressMode;
  if (!MODES.includes(mode)) throw new UsageError(`--mode must be ${MODES.join(", ")}, not '${mode}'`);
  const envVar = options.get("connection-string-env") as string | undefined;
  if (options.has("emulator") === !!envVar) throw new UsageError("choose one target: --emulator or --connection-string-env VAR");
  const concurrency = Number(options.get("concurrency") ?? 16);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError("--concurrency needs a whole number ≥ 1");
  const batch = options.has("batch") ? Number(options.get("batch")) : undefined;
  if (batch !== undefined && (!Number.isInteger(batch) || batch < 1 || batch > 100)) throw new UsageError("--batch takes 1 to 100 (an entity group transaction's limit)");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let emulator: FidelityEmulator | undefined;
  let connectionString: string;
  if (envVar) {
    const value = process.env[envVar];
    if (!value) throw new UsageError(`the environment variable ${envVar} is not set`);
    connectionString = value;
  } else {
    // The embedded emulator with Azure fidelity: it rejects and throttles as the service would (targets × --emulator-scale).
    emulator = await FidelityEmulator.start({ scale: options.has("emulator-scale") ? Number(options.get("emulator-scale")) : 1 });
    connectionString = emulator.connectionString;
  }
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const parsed = parseConnectionString(connectionString);
    const report = await runStress({
      connection: { id: "cli", name: envVar ?? "emulator", kind: "connection-string", endpoint: parsed.endpoint },
      secret: { connectionString }, emulator: emulator ? true : undefined, confirmedRealAccount: options.has("yes-real-account"),
      design: { text, file, table: tableName }, mode, durationMs: parseDuration((options.get("duration") as string) ?? "30s"),
      concurrency, mix: options.has("mix") ? parseMix(options.get("mix") as string) : undefined, batch,
      scale: options.has("scale") ? Number(options.get("scale")) : undefined,
      preload: options.has("preload") ? Number(options.get("preload")) : undefined,
      keepTable: options.has("keep-table"), signal: abort.signal,
      onProgress: (p) => process.stderr.write(`\r${(p.elapsedMs / 1000).toFixed(1)} s · ${p.entities} entities · ${p.entitiesPerSecond} entities/s   `),
    });
    process.stderr.write("\n");
    return output(report, options.get("report") as string | undefined);
  } catch (e) {
    if (e instanceof StressRefused) return { stdout: "", stderr: `tdl: ${e.message}\n`, exitCode: 2 };
    const report = (e as { report?: StressReport }).report;
    const out = report ? output(report, options.get("report") as string | undefined) : { stdout: "", stderr: "", exitCode: 1 };
    return { ...out, stderr: `${out.stderr}tdl: the stress test failed: ${(e as Error).message}\n`, exitCode: 1 };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await emulator?.stop();
  }
}

function output(report: StressReport, file: string | undefined): CliOutput {
  const json = JSON.stringify(report, null, 2) + "\n";
  const exitCode = report.stopped ? 1 : 0;
  if (!file) return { stdout: json, stderr: report.stopped ? `tdl: stopped: ${report.stopped}\n` : "", exitCode };
  fs.writeFileSync(file, json);
  return { stdout: summary(report) + `report: ${file}\n`, stderr: report.stopped ? `tdl: stopped: ${report.stopped}\n` : "", exitCode };
}

export function summary(r: StressReport): string {
  const lines = [`${r.mode} on ${r.target} (table ${r.table}, deleted unless --keep-table), ${(r.durationMs / 1000).toFixed(1)} s at concurrency ${r.concurrency}`];
  for (const [op, o] of Object.entries(r.operations)) {
    if (!o.count && !Object.keys(o.errors).length) continue;
    lines.push(`  ${op.padEnd(9)} ${o.entitiesPerSecond.toLocaleString("en-US").padStart(9)} entities/s  p50 ${o.latencyMs.p50} ms  p99 ${o.latencyMs.p99} ms  errors ${JSON.stringify(o.errors)}  retries ${o.retries}`);
  }
  lines.push(`  hottest partition ${r.verdict.hottestPartitionEntitiesPerSecond.toLocaleString("en-US")} entities/s (target ${r.verdict.partitionTargetEntitiesPerSecond.toLocaleString("en-US")})`, `  ${r.verdict.note}`);
  return lines.join("\n") + "\n";
}
