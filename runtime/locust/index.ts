/**
 * Stress tests on Locust: the exported folder (Locust script, workload, key
 * builders, Azure Load Testing definition), a local run with a master and
 * workers in place of the built-in engine's run phase, records read back
 * into the same report, and the sizing of a run.
 */
import { azureTargets, checkDesign, runStress, type StressJob } from "../stress/engine";
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

/** The Locust engine's own settings: the job's `plan.concurrency` is each worker's users, so the run has `concurrency × workers` requests in flight at most. */
export interface LocustEngineOptions {
  workers: number;
  locust?: string;
  log?: (line: string) => void;
  onProcess?: (name: string, pid: number) => void;
}

/** A stress run whose load Locust sends (a master and `workers` workers here): the built-in engine's run in every other way. */
export function runLocustStress(job: StressJob, o: LocustEngineOptions): Promise<StressReport> {
  const { plan, target, limits } = job;
  const { analysis } = checkDesign(plan);
  const design = designForLocust(plan.design, plan.analysis);
  const azure = azureTargets(plan, analysis.service?.value);
  const load = new LocustLoad({
    design: { ...design, file: plan.design.file, table: plan.design.table },
    mode: plan.mode,
    endpoint: target.connection.endpoint,
    secret: target.secret,
    emulator: target.emulator,
    workers: o.workers,
    users: plan.concurrency,
    durationMs: plan.durationMs,
    rate: plan.rate,
    preload: plan.preload,
    partitionTarget: azure.partitionTargetEntitiesPerSecond,
    accountTarget: azure.accountTargetEntitiesPerSecond,
    locust: o.locust,
    log: o.log,
    onProcess: o.onProcess,
    drainMs: limits.drainMs,
  });
  // Requests in flight at once: each worker's users, on every worker.
  return runStress({ ...job, plan: { ...plan, concurrency: plan.concurrency * o.workers } }, load);
}
