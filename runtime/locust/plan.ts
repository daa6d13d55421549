/**
 * A Locust run as tdl plans it, and `run.json`, the part of it written
 * beside the Locust files: what `tdl stress --ingest` needs to turn the
 * workers' records into the same report as the built-in engine's (the
 * design, the mode, the targets, the work and its rates, the calibration).
 * Nothing in it is a secret.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import type { Calibration, Skipped, StressMode } from "@protocol/stress-report";
import { InputError } from "@core/errors";
import type { Work } from "../stress/workload";
import { toolVersion } from "../stress/marker";
import type { Sizing } from "./sizing";

export interface LocustPlan {
  design: { file: string; table: string };
  mode: StressMode;
  /** The stress table the workers write. */
  table: string;
  endpoint: string;
  account?: string;
  target: "emulator" | "account";
  durationMs: number;
  /** Locust users per worker (engine): requests in flight at once on each. */
  users: number;
  /** Workers here, or engines on Azure Load Testing. */
  workers: number;
  /** Calls per second of all workers together (an open load); 0: each user sends as fast as it is answered. */
  rate: number;
  /** Entities written before the load, for the reads (all workers together). */
  preload: number;
  partitionTarget: number;
  accountTarget: number;
  /** The p99 latency the run is judged against (the test definition's failure criterion). */
  p99Ms: number;
  work: Work[];
  skipped: Skipped[];
  calibration?: Calibration;
  /** How many workers or engines the rate takes, and the run's billable transactions. */
  sizing?: Sizing;
}

/** What `run.json` holds. */
export interface RunMeta extends Omit<LocustPlan, "work" | "endpoint" | "account"> {
  tool: "table-design-assistant";
  version: string;
  work: Array<Pick<Work, "op" | "weight" | "batch" | "source" | "queryClass">>;
}

export const META_FILE = "run.json";

/** `run.json`'s text for a plan (the endpoint stays out: the records say what was measured, not where). */
export function metaText(p: LocustPlan): string {
  const meta: RunMeta = {
    tool: "table-design-assistant",
    version: toolVersion(),
    design: p.design,
    mode: p.mode,
    table: p.table,
    target: p.target,
    durationMs: p.durationMs,
    users: p.users,
    workers: p.workers,
    rate: p.rate,
    preload: p.preload,
    partitionTarget: p.partitionTarget,
    accountTarget: p.accountTarget,
    p99Ms: p.p99Ms,
    work: p.work.map((w) => ({
      op: w.op,
      weight: w.weight,
      batch: w.batch,
      ...(w.source ? { source: w.source } : {}),
      ...(w.queryClass ? { queryClass: w.queryClass } : {}),
    })),
    skipped: p.skipped,
    ...(p.calibration ? { calibration: p.calibration } : {}),
    ...(p.sizing ? { sizing: p.sizing } : {}),
  };
  return JSON.stringify(meta, null, 2) + "\n";
}

/** `DIR/run.json`, or an InputError saying what is wrong with it. */
export function readMeta(dir: string): RunMeta {
  const file = path.join(dir, META_FILE);
  if (!existsSync(file)) throw new InputError(`${dir} has no ${META_FILE}: it is not a folder written by tdl stress --export locust`);
  let meta: RunMeta;
  try {
    meta = JSON.parse(readFileSync(file, "utf8")) as RunMeta;
  } catch (e) {
    throw new InputError(`${file} is not JSON: ${(e as Error).message}`);
  }
  if (meta?.tool !== "table-design-assistant" || !meta.design || !Array.isArray(meta.work))
    throw new InputError(`${file} was not written by tdl stress --export locust`);
  return meta;
}
