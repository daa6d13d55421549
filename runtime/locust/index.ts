/**
 * Stress tests on Locust: the exported folder (Locust script, workload, key
 * builders, Azure Load Testing definition), a local run with a master and
 * workers in place of the built-in engine's run phase, records read back
 * into the same report, and the sizing of a run.
 */
import { profileFor } from "@core";
import { isLoopback } from "../account/connection-string";
import { checkDesign, runStress, type StressOptions } from "../stress/engine";
import type { StressReport } from "@protocol/stress-report";
import { designForLocust } from "./export";
import { LocustLoad } from "./run";

export { designForLocust, locustFiles } from "./export";
export type { ExportedFile } from "./export";
export { findLocust, LOCUST_INSTALL, LocustLoad } from "./run";
export { readMeta, META_FILE } from "./plan";
export type { LocustPlan, RunMeta } from "./plan";
export { reportFromRecords, RECORDS_DIR } from "./records";
export { mintTableSas, partitionRange } from "./sas";
export { sizeRun, sizingText } from "./sizing";
export type { Sizing } from "./sizing";

/** `concurrency` is each worker's users: the run has `concurrency × workers` requests in flight at most. */
export interface LocustStressOptions extends StressOptions {
  workers: number;
  /** Calls per second in all, in the peak modes. */
  rate?: number;
  locust?: string;
  log?: (line: string) => void;
  onProcess?: (name: string, pid: number) => void;
}

/** A stress run whose load Locust sends (a master and `workers` workers here): the built-in engine's run in every other way. */
export function runLocustStress(o: LocustStressOptions): Promise<StressReport> {
  const { analysis } = checkDesign(o);
  const design = designForLocust(o.design, o.analysis);
  const profile = profileFor(analysis.service?.value);
  const emulator = o.emulator ?? isLoopback(new URL(o.connection.endpoint).hostname);
  return runStress({
    ...o,
    // Requests in flight at once: each worker's users, on every worker.
    concurrency: o.concurrency * o.workers,
    external: new LocustLoad({
      design: { ...design, file: o.design.file, table: o.design.table },
      mode: o.mode,
      endpoint: o.connection.endpoint,
      secret: o.secret,
      emulator,
      workers: o.workers,
      users: o.concurrency,
      durationMs: Math.min(o.durationMs, o.maxDurationMs ?? 300_000),
      rate: o.rate,
      preload: Math.max(0, Math.floor(o.preload ?? 200)),
      partitionTarget:
        o.partitionTarget ??
        o.analysis?.partitionTargetEntitiesPerSecond ??
        (profile.partitionTarget?.unit === "entities/s" ? profile.partitionTarget.value : 2000),
      accountTarget: profile.accountTargetEntitiesPerSecond ?? 20_000,
      locust: o.locust,
      log: o.log,
      onProcess: o.onProcess,
      drainMs: o.drainMs ?? Math.min(2000, o.requestTimeoutMs ?? 10_000),
    }),
  });
}
