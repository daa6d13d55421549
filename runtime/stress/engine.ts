/**
 * The partition stress test (seeds 000/003/004, "stress-testing partitions";
 * the README's "The `tdl` command"), free of `vscode`: create a fresh, marked
 * `stress…` table, load it from the design, drive peak load in one of three
 * modes, measure, and always delete the table — after success, failure,
 * cancellation in any phase and timeout. Every request is bounded in time;
 * the reported duration is the measured one. `runStress` is a chain of
 * named phases over one `RunState`; the ending (ending.ts) deletes the
 * table and writes the report.
 */
import { randomBytes } from "node:crypto";
import { TableClient, TableServiceClient, TableServiceClientOptions } from "@azure/data-tables";
import { analyzeTdl, profileFor } from "@core";
import { UsageError } from "@core/errors";
import type { StressReport } from "@protocol/stress-report";
import { makeClients } from "../account/clients";
import { isLoopback } from "../account/connection-string";
import { narrowed, phaseBound, type PhaseBound } from "./bound";
import { isAbort } from "../net/deadline";
import { directHttpClient } from "./direct-http";
import { deletePhase, reportOf, settle } from "./ending";
import type { Calibration } from "./calibrate";
import type { ExternalLoad } from "./external";
import { EntityGenerator } from "./generator";
import { concurrencyOf, hostname, type StressJob, type StressPlan } from "./job";
import { createMarkedTable } from "./lifecycle";
import { activeTables } from "./marker";
import { Metrics } from "./metrics";
import { StressInputError, StressPhase } from "./phases";
import { endpointHost } from "../net/endpoint-host";
import { preload } from "./preload";
import { declaredCost } from "./report";
import { runPhase } from "./run-phase";
import { calibrate, emulatorThrottle, RUN_BURST_SECONDS } from "./scaling";
import type { PhaseFailure, RunState } from "./state";
import { callsPerSecond, plan, readsBack } from "./workload";
import { WrittenPool } from "./written";
import { formatCount } from "@core/text/words";

export { StressFailure, StressInputError } from "./phases";
export type { StressPhase } from "./phases";
export type { Calibration } from "./calibrate";
export type { ExternalContext, ExternalLoad, ExternalOutcome } from "./external";
export { buildStressJob, DELETE_WITHIN_MS, MAX_CONCURRENCY, STRESS_DEFAULTS } from "./job";
export type { StressHooks, StressJob, StressLimits, StressPlan, StressRequest, StressTarget } from "./job";

/**
 * A real account without consent: nothing was created. A usage error — the
 * caller left out the confirmation (`--yes-real-account`, exit 2 in the CLI;
 * VS Code asks first and never gets here without it).
 */
export class StressRefused extends UsageError {}

/**
 * Runs one stress test (built by `buildStressJob`) and returns its report
 * (also when cancelled: see `stopped`). A failure, or a table that could
 * not be deleted, throws a `StressFailure` carrying the report so far.
 * `external` sends the load in place of the built-in run phase (the engine
 * chooser, runtime/locust/engines.ts, passes Locust's).
 */
export async function runStress(job: StressJob, external?: ExternalLoad): Promise<StressReport> {
  const run = prepare(job, external);
  activeTables.add(run.table);
  const failure = await loadPhases(run);
  run.throttle?.setThrottle("default");
  const cancelledIn = job.hooks.signal?.aborted && !failure ? run.phase : undefined;
  const deletion = run.created.mayExist && !job.plan.keepTable ? await deletePhase(run, () => enter(run, "delete")) : undefined;
  activeTables.delete(run.table);
  return settle(run, reportOf(run, failure, cancelledIn, deletion), failure, deletion);
}

/** Checks consent and the design, and sets up everything the phases share; nothing is sent yet. */
function prepare(job: StressJob, external: ExternalLoad | undefined): RunState {
  const { target, plan: p } = job;
  if (!target.emulator && !target.confirmedRealAccount) {
    throw new StressRefused(
      `${endpointHost(target.connection.endpoint)} is not an emulator: a stress test loads it at peak and costs money. Confirm with --yes-real-account (or in the VS Code dialog).`,
    );
  }
  const { analysis, tm, work: planned, skipped } = checkDesign(p);
  // Design mode: `scale` multiplies the design's rates (the calibration multiplies them again on an emulator).
  const work = p.mode === "design" ? planned.map((w) => ({ ...w, planned: w.weight, weight: w.weight * (p.scale ?? 1) })) : planned;
  const { service, table } = clientsWithoutRetries(job);
  const name = `stress${randomBytes(5).toString("hex")}`;
  return {
    job,
    external,
    context: { gen: new EntityGenerator(tm), mode: p.mode, seq: { n: 0 }, pool: new WrittenPool() },
    work,
    skipped,
    azure: azureTargets(p, analysis.service?.value),
    throttle: target.emulator ? target.throttle : undefined,
    host: endpointHost(target.connection.endpoint),
    service,
    client: table(name),
    table: name,
    metrics: new Metrics(0),
    clock: {},
    notes: skipped.map((x) => `${x.source} did not run: ${x.reason}.`),
    wanted: readsBack(work) && !external ? p.preload : 0,
    created: { mayExist: false },
    ...(p.mode === "design" ? { cost: declaredCost(analysis, p.design.table) } : {}),
    phase: "create",
    loaded: 0,
  };
}

/** A phase of the load: it runs when `when` allows, and only while the run is not cancelled (creation always runs). */
interface LoadPhase {
  name: StressPhase;
  when?: (run: RunState) => boolean;
  go: (run: RunState, bound: PhaseBound) => Promise<void>;
}

const LOAD_PHASES: readonly LoadPhase[] = [
  { name: "create", go: createPhase },
  { name: "calibrate", when: (run) => run.job.target.emulator, go: calibratePhase },
  { name: "preload", when: (run) => run.wanted > 0, go: preloadPhase },
  { name: "run", go: (run, bound) => (run.external ? externalRunPhase(run, run.external) : builtinRunPhase(run, bound)) },
];

/** Announces a phase: the run's state and the caller's hook. */
function enter(run: RunState, phase: StressPhase): void {
  run.phase = phase;
  run.job.hooks.onPhase?.(phase, run.table);
}

/**
 * The phases up to the end of the load, in order. The one place that
 * checks for a cancel between phases and makes each phase's time bounds
 * (bound.ts); a failure names the phase it was in.
 */
async function loadPhases(run: RunState): Promise<PhaseFailure | undefined> {
  const signal = run.job.hooks.signal;
  try {
    for (const phase of LOAD_PHASES) {
      // An aborted create may still have reached the service: creation runs (and fails at once) so deletion follows.
      if (phase.name !== "create" && signal?.aborted) break;
      if (phase.when && !phase.when(run)) continue;
      enter(run, phase.name);
      await phase.go(run, phaseBound(signal, run.job.limits.requestTimeoutMs));
    }
    return undefined;
  } catch (e) {
    return signal?.aborted && isAbort(e) ? undefined : { phase: run.phase, error: e };
  }
}

/** Creates and marks the table. */
async function createPhase(run: RunState, bound: PhaseBound): Promise<void> {
  await createMarkedTable(run.service, run.client, run.table, run.job.plan.design.file, bound, run.created);
  run.job.hooks.onTable?.(run.table);
}

/** Measures (or takes) the emulator's scale; nothing is throttled while setting up. */
async function calibratePhase(run: RunState, bound: PhaseBound): Promise<void> {
  const { plan: p, limits, target } = run.job;
  // An emulator the run did not start says itself whether it throttles, and at which scale (scaling.ts).
  const known = await emulatorThrottle({ throttle: run.throttle, emulatorScale: p.emulatorScale }, target.connection.endpoint);
  if (known.note) run.notes.push(known.note);
  run.throttle?.setThrottle("off");
  run.calibration = await calibrate(
    { throttle: known.throttle, calibration: p.calibration, emulatorScale: known.emulatorScale, calibrateMs: limits.calibrateMs },
    run.azure,
    { client: run.client, gen: run.context.gen, concurrency: concurrencyOf(p), bound },
  );
}

/** Writes the entities the reads need, within `limits.preloadMs`: the run then reads what was loaded, and the report says so. */
async function preloadPhase(run: RunState, bound: PhaseBound): Promise<void> {
  const { limits, hooks } = run.job;
  const within = narrowed(bound, limits.preloadMs);
  try {
    run.loaded = await preload(run.client, run.context, run.metrics, run.wanted, within);
    if (run.loaded < run.wanted && !hooks.signal?.aborted)
      run.notes.push(
        `The preload stopped at its ${Math.round(limits.preloadMs / 1000)} s bound with ${formatCount(run.loaded)} of ${formatCount(run.wanted)} entities.`,
      );
  } finally {
    within.dispose();
  }
}

/** The built-in load: throttling on at the calibrated scale, then the workers until the duration ends. */
async function builtinRunPhase(run: RunState, bound: PhaseBound): Promise<void> {
  const { plan: p, limits, hooks } = run.job;
  const calibration = run.calibration;
  if (calibration) run.throttle?.setThrottle({ scale: calibration.scale, burstSeconds: RUN_BURST_SECONDS });
  await runPhase(
    {
      client: run.client,
      gen: run.context.gen,
      pool: run.context.pool,
      seq: run.context.seq,
      work: run.work,
      mode: p.mode,
      metrics: run.metrics,
      concurrency: concurrencyOf(p),
      durationMs: p.durationMs,
      drainMs: limits.drainMs,
      outageMs: limits.outageMs,
      bound,
      onProgress: hooks.onProgress,
      onDrain: () => enter(run, "drain"),
      pace: p.mode === "design" ? callsPerSecond(run.work) * (calibration?.scale ?? 1) : p.rate,
    },
    run.clock,
  );
}

/** Another engine sends the load; it turns the throttling on when its measured load starts. */
async function externalRunPhase(run: RunState, external: ExternalLoad): Promise<void> {
  const calibration = run.calibration;
  run.outcome = await external.run({
    table: run.table,
    work: run.work,
    skipped: run.skipped,
    calibration,
    metrics: run.metrics,
    startThrottling: () => calibration && run.throttle?.setThrottle({ scale: calibration.scale, burstSeconds: RUN_BURST_SECONDS }),
    signal: run.job.hooks.signal,
  });
}

/**
 * The design table a run would load and what it would send, or a
 * `StressInputError` saying why it cannot run (no such table, a syntax
 * error, no keys, no pattern with a rate in design mode). Nothing is
 * created: callers check a design before they start an emulator.
 */
export function checkDesign(o: Pick<StressPlan, "design" | "mode" | "mix" | "batch" | "analysis">) {
  const analysis = analyzeTdl(o.design.text, o.analysis);
  const tm = analysis.tables.find((t) => t.table.name.text === o.design.table);
  if (!tm)
    throw new StressInputError(
      `${o.design.file} has no table '${o.design.table.slice(0, 100)}' (it has ${analysis.tables.map((t) => t.table.name.text).join(", ") || "none"})`,
    );
  if (tm.table.hasSyntaxError || !tm.table.partitionKey || !tm.table.rowKey)
    throw new StressInputError(`table '${o.design.table}' does not parse or has no keys: fix the design first`);
  return { analysis, tm, ...plan(o, tm) };
}

/** Azure's targets for the plan: the per-partition one given, the analysis's, or the service profile's. */
export function azureTargets(
  p: Pick<StressPlan, "partitionTarget" | "analysis">,
  service: Parameters<typeof profileFor>[0],
): Calibration["azure"] {
  const profile = profileFor(service);
  return {
    partitionTargetEntitiesPerSecond:
      p.partitionTarget ??
      p.analysis?.partitionTargetEntitiesPerSecond ??
      (profile.partitionTarget?.unit === "entities/s" ? profile.partitionTarget.value : 2000),
    accountTargetEntitiesPerSecond: profile.accountTargetEntitiesPerSecond ?? 20_000,
  };
}

/** Clients with the SDK's own retries off: the test applies and counts the guide's policy itself. */
function clientsWithoutRetries(job: StressJob): { service: TableServiceClient; table: (name: string) => TableClient } {
  const { connection, secret, clientOptions } = job.target;
  // A plain-HTTP loopback emulator: requests skip VS Code's proxy patch of http.request (see direct-http.ts), as the CLI's never meet it.
  const direct =
    connection.endpoint.startsWith("http:") && isLoopback(hostname(connection.endpoint)) ? { httpClient: directHttpClient() } : {};
  const pair = makeClients(connection, secret, {
    retryOptions: { maxRetries: 0 },
    ...direct,
    ...(clientOptions ?? {}),
  } as TableServiceClientOptions);
  return { service: pair.service, table: pair.table };
}
