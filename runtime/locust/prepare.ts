/**
 * Everything `tdl stress --export locust DIR` and the VS Code command
 * *Export the Stress Test for Azure Load Testing…* write, worked out from
 * the design and the target: the workload at its rate, a fresh stress
 * table's name, the engines the rate takes (one Locust worker calibrated
 * here when Locust is installed), and the credential — one table SAS per
 * engine when the account key is known, else SharedKeyLite with the key
 * in the Key Vault. Nothing is created on the account.
 */
import { randomBytes } from "node:crypto";
import { profileFor, type AnalysisOptions } from "@core";
import type { StressMode } from "@protocol/stress-report";
import type { ConnectionInfo } from "@protocol/entities";
import { isLoopback, parseConnectionString } from "../account/connection-string";
import type { Secret } from "../account/secret";
import { checkDesign } from "../stress/engine";
import { callsPerSecond } from "../stress/workload";
import { type AzureAuth } from "./azure";
import { calibrateWorker } from "./calibrate-worker";
import { designForLocust, locustFiles, type ExportedFile } from "./export";
import type { LocustPlan } from "./plan";
import { mintTableSas, partitionRange } from "./sas";
import { sizeRun, type Sizing } from "./sizing";

export interface LocustExportOptions {
  design: { text: string; file: string; table: string };
  analysis?: AnalysisOptions;
  mode: StressMode;
  mix?: { read: number; write: number };
  batch?: number;
  scale?: number;
  durationMs: number;
  /** Locust users per engine. */
  concurrency: number;
  preload?: number;
  /** Calls per second in all, in the peak modes. */
  rate?: number;
  connection: ConnectionInfo;
  secret: Secret;
  /** Engines to use instead of the sizing's. */
  engines?: number;
  keyVault?: string;
  /** How long minted SAS tokens are valid. */
  validForMs: number;
  p99Ms: number;
  /** Measure one worker for the sizing (default: when Locust is on PATH). */
  calibrate?: boolean;
  locust?: string;
  signal?: AbortSignal;
}

export interface LocustExport {
  files: ExportedFile[];
  plan: LocustPlan;
  sizing: Sizing;
  auth: AzureAuth;
  /** Why no worker was calibrated (the sizing then assumes a worker's rate). */
  uncalibrated?: string;
}

export async function prepareExport(o: LocustExportOptions): Promise<LocustExport> {
  const { analysis, tm, work: planned, skipped } = checkDesign(o);
  const design = designForLocust(o.design, o.analysis);
  const work = o.mode === "design" ? planned.map((w) => ({ ...w, weight: w.weight * (o.scale ?? 1) })) : planned;
  const rate = o.mode === "design" ? callsPerSecond(work) : (o.rate ?? 0);
  const profile = profileFor(analysis.service?.value);
  const parsed = o.secret.connectionString ? parseConnectionString(o.secret.connectionString) : undefined;
  const plan: LocustPlan = {
    design: { file: o.design.file, table: o.design.table },
    mode: o.mode,
    table: `stress${randomBytes(5).toString("hex")}`,
    endpoint: o.connection.endpoint,
    ...(parsed?.accountName ? { account: parsed.accountName } : {}),
    target: isLoopback(new URL(o.connection.endpoint).hostname) ? "emulator" : "account",
    durationMs: o.durationMs,
    users: o.concurrency,
    workers: 1,
    rate,
    preload: Math.max(0, Math.floor(o.preload ?? 200)),
    partitionTarget:
      o.analysis?.partitionTargetEntitiesPerSecond ??
      (profile.partitionTarget?.unit === "entities/s" ? profile.partitionTarget.value : 2000),
    accountTarget: profile.accountTargetEntitiesPerSecond ?? 20_000,
    p99Ms: o.p99Ms,
    work,
    skipped,
  };
  let measured: number | undefined;
  let uncalibrated: string | undefined;
  if (o.calibrate !== false && rate > 0) {
    try {
      measured = await calibrateWorker(locustFiles(design, { ...plan, rate: 0 }, { kind: "sas", engines: 1 }), {
        users: o.concurrency,
        locust: o.locust,
        signal: o.signal,
      });
    } catch (e) {
      uncalibrated = (e as Error).message;
    }
  }
  const sizing = sizeRun(work, rate, o.durationMs, measured);
  plan.workers = o.engines ?? (rate > 0 ? sizing.workers : 1);
  plan.sizing = sizing;
  // A local emulator's workers sign with SharedKeyLite: Azurite refuses entity group transactions under a table SAS.
  const key = parsed?.accountKey && plan.target === "account" ? { account: parsed.accountName, key: parsed.accountKey } : undefined;
  const auth: AzureAuth = { kind: key ? "sas" : "shared-key", engines: plan.workers, ...(o.keyVault ? { vault: o.keyVault } : {}) };
  const sas = key
    ? mintTableSas(key, plan.table, {
        count: plan.workers,
        validMs: o.validForMs,
        range: partitionRange(o.mode, tm.table.partitionKey?.expr),
      })
    : undefined;
  return { files: locustFiles(design, plan, auth, sas), plan, sizing, auth, ...(uncalibrated ? { uncalibrated } : {}) };
}
