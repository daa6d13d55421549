/**
 * The partition stress test (seeds 000/003/004, "stress-testing partitions";
 * the README's "The `tdl` command"), free of `vscode`: create a fresh, marked
 * `stress…` table, load it from the design, drive peak load in one of three
 * modes, measure, and always delete the table — after success, failure,
 * cancellation in any phase and timeout. Every request is bounded in time;
 * the reported duration is the measured one.
 */
import { randomBytes } from "node:crypto";
import { TableClient, TableServiceClient, TableServiceClientOptions } from "@azure/data-tables";
import { AnalysisOptions, analyzeTdl, profileFor } from "@core";
import { makeClients } from "../account/clients";
import type { Secret } from "../account/secret";
import { ConnectionInfo } from "@protocol/entities";
import { isLoopback } from "../account/connection-string";
import { toAccountError } from "../account/errors";
import { isAbort, linked } from "./deadline";
import { directHttpClient } from "./direct-http";
import type { Calibration } from "./calibrate";
import { EntityGenerator } from "./generator";
import { createMarkedTable, deleteWithBackoff, DeleteWait, TableTaken } from "./lifecycle";
import { preload } from "./preload";
import type { CallContext } from "./operations";
import { activeTables } from "./marker";
import { Metrics } from "./metrics";
import { DEFAULT_CLEANUP_HINT, endpointHost, leftoverMessage, PHASE_WORDS, StressFailure, StressInputError, StressPhase } from "./phases";
import type { EngineInfo, Leftover, Skipped, StressMode, StressReport } from "@protocol/stress-report";
import { buildReport } from "./report";
import { EndpointSilent, RunClock, runPhase } from "./run-phase";
import { calibrate, RUN_BURST_SECONDS, ScalingOptions } from "./scaling";
import { callsPerSecond, plan, readsBack, type Work } from "./workload";
import { WrittenPool } from "./written";
import { UsageError } from "@core/errors";
import { formatCount } from "@core/text/words";

export { StressFailure, StressInputError } from "./phases";
export type { StressPhase } from "./phases";
export type { Calibration } from "./calibrate";

export const MAX_CONCURRENCY = 256;

/** What `tdl stress` and the VS Code command both run with unless told otherwise, so their figures compare. */
export const STRESS_DEFAULTS = { concurrency: 16 } as const;

export interface StressOptions extends ScalingOptions {
  connection: ConnectionInfo;
  secret: Secret;
  /** The target is the embedded or a local emulator (loopback): no confirmation needed. */
  emulator?: boolean;
  /** Explicit consent to load a real account (`--yes-real-account`, or the VS Code modal). */
  confirmedRealAccount?: boolean;
  design: { text: string; file: string; table: string };
  /** How the design is analysed (the profile when it declares no service, the partition target): the same options as everywhere else. */
  analysis?: AnalysisOptions;
  mode: StressMode;
  durationMs: number;
  maxDurationMs?: number;
  concurrency: number;
  /** Shares of writes and point reads (single-partition and spread modes). */
  mix?: { read: number; write: number };
  /** Inserts per batch (entity group transaction); the design's `batch` in design mode. */
  batch?: number;
  /** Design mode: multiply the design's rates by this (on an emulator, on top of the calibrated scale). */
  scale?: number;
  /** Single-partition and spread modes: calls per second in all, as an open load (without it, every worker sends as fast as it is answered). */
  rate?: number;
  /** Entities written before the load starts, for reads (default 200; none when the load reads nothing back). */
  preload?: number;
  keepTable?: boolean;
  /** Per-partition target; the profile's when omitted. */
  partitionTarget?: number;
  /** Cancels the run in whichever phase it is; the table is still deleted. */
  signal?: AbortSignal;
  /** Aborted when the user will not wait long (a second Ctrl+C): deletion then gets at most `hurryDeleteMs` more. */
  hurry?: AbortSignal;
  /** Upper bound on one request (default 10 s). */
  requestTimeoutMs?: number;
  /** How long requests in flight at the end of the run may still finish (default 2 s). */
  drainMs?: number;
  /** Upper bound on the preload phase (default 60 s); the run then reads what was loaded. */
  preloadMs?: number;
  /** The run fails when the endpoint gives no answer at all for this long (default 5 s). */
  outageMs?: number;
  /** How long deletion keeps trying while the endpoint is down or stalls (default 60 s: a 40 s stall still ends with the table deleted). */
  deleteWithinMs?: number;
  /** Each failed delete attempt while deletion keeps trying (the CLI says it is still trying). */
  onDeleteWait?: (w: DeleteWait) => void;
  /** Deletion's bound after `hurry` (default 10 s). */
  hurryDeleteMs?: number;
  /** How the user removes a table left behind (the CLI names its exact command line). */
  cleanupHint?: string;
  onProgress?: (p: { elapsedMs: number; entities: number; entitiesPerSecond: number }) => void;
  /** Each phase as it starts, with the table's name (known before it is created). */
  onPhase?: (phase: StressPhase, table: string) => void;
  /** Called once the table exists (tests use it to check the table is gone afterwards). */
  onTable?: (name: string) => void;
  /** Extra pipeline policy (tests inject faults with it). */
  clientOptions?: { additionalPolicies?: unknown[] };
  /** Another engine sends the load (Locust, runtime/locust/run.ts): the table's life, calibration and report stay this engine's. */
  external?: ExternalLoad;
}

/** What another engine is given: the created table, the work at its rates, the calibration, and the run's metrics to fill. */
export interface ExternalContext {
  table: string;
  work: Work[];
  skipped: Skipped[];
  calibration?: Calibration;
  metrics: Metrics;
  /** Turns the emulator's throttling on at the calibrated scale: call it when the measured load starts. */
  startThrottling(): void;
  signal?: AbortSignal;
}

/** What another engine measured, besides the metrics it filled. */
export interface ExternalOutcome {
  durationMs: number;
  pace?: { callsPerSecond: number; sent: number; dropped: number };
  notes: string[];
  engine: EngineInfo;
}

/** An engine that sends the load in place of the built-in one. */
export interface ExternalLoad {
  /** Entities the built-in engine would preload: an external engine preloads its own. */
  readonly preloadsItself: true;
  run(ctx: ExternalContext): Promise<ExternalOutcome>;
}

/** How long deletion keeps trying by default while the endpoint does not answer. */
export const DELETE_WITHIN_MS = 60_000;

/**
 * A real account without consent: nothing was created. A usage error — the
 * caller left out the confirmation (`--yes-real-account`, exit 2 in the CLI;
 * VS Code asks first and never gets here without it).
 */
export class StressRefused extends UsageError {}

/**
 * Runs one stress test and returns its report (also when cancelled: see
 * `stopped`). A failure, or a table that could not be deleted, throws a
 * `StressFailure` carrying the report so far.
 */
export async function runStress(o: StressOptions): Promise<StressReport> {
  const emulator = o.emulator ?? isLoopback(hostname(o.connection.endpoint));
  if (!emulator && !o.confirmedRealAccount) {
    throw new StressRefused(
      `${endpointHost(o.connection.endpoint)} is not an emulator: a stress test loads it at peak and costs money. Confirm with --yes-real-account (or in the VS Code dialog).`,
    );
  }
  const { analysis, tm, work: planned, skipped } = checkDesign(o);
  // Design mode: `scale` multiplies the design's rates (the calibration multiplies them again on an emulator).
  const work = o.mode === "design" ? planned.map((w) => ({ ...w, weight: w.weight * (o.scale ?? 1) })) : planned;
  const profile = profileFor(analysis.service?.value);
  const azure = {
    partitionTargetEntitiesPerSecond:
      o.partitionTarget ??
      o.analysis?.partitionTargetEntitiesPerSecond ??
      (profile.partitionTarget?.unit === "entities/s" ? profile.partitionTarget.value : 2000),
    accountTargetEntitiesPerSecond: profile.accountTargetEntitiesPerSecond ?? 20_000,
  };
  const throttle = emulator ? o.throttle : undefined;
  const askedMs = Math.min(o.durationMs, o.maxDurationMs ?? 300_000);
  const concurrency = Math.max(1, Math.min(MAX_CONCURRENCY, Math.floor(o.concurrency)));
  const requestTimeoutMs = o.requestTimeoutMs ?? 10_000;
  const host = endpointHost(o.connection.endpoint);
  const { service, table: tableClient } = clientsWithoutRetries(o);
  const table = `stress${randomBytes(5).toString("hex")}`;
  const metrics = new Metrics(0);
  const clock: RunClock = {};
  const notes: string[] = skipped.map((x) => `${x.source} did not run: ${x.reason}.`);
  const wanted = readsBack(work) && !o.external ? Math.max(0, Math.floor(o.preload ?? 200)) : 0;
  let external: ExternalOutcome | undefined;
  let calibration: Calibration | undefined;
  let phase: StressPhase = "create";
  let loaded = 0;
  let failure: { phase: StressPhase; error: unknown } | undefined;
  const created = { mayExist: false };
  const enter = (p: StressPhase) => {
    phase = p;
    o.onPhase?.(p, table);
  };
  activeTables.add(table);
  try {
    enter("create");
    const client = tableClient(table);
    await createMarkedTable(service, client, table, o.design.file, o.signal, requestTimeoutMs, created);
    o.onTable?.(table);
    const gen = new EntityGenerator(tm);
    const context = { gen, mode: o.mode, seq: { n: 0 }, pool: new WrittenPool() };
    if (emulator && !o.signal?.aborted) {
      enter("calibrate");
      // Setting up is not load: nothing is throttled until the run starts.
      throttle?.setThrottle("off");
      calibration = await calibrate(o, azure, { client, gen, concurrency, signal: o.signal, requestTimeoutMs });
    }
    if (!o.signal?.aborted && wanted > 0) {
      enter("preload");
      loaded = await boundedPreload(client, context, metrics, wanted, o, requestTimeoutMs, notes);
    }
    if (!o.signal?.aborted && o.external) {
      enter("run");
      const scaled = calibration;
      external = await o.external.run({
        table,
        work,
        skipped,
        calibration,
        metrics,
        startThrottling: () => scaled && throttle?.setThrottle({ scale: scaled.scale, burstSeconds: RUN_BURST_SECONDS }),
        signal: o.signal,
      });
    } else if (!o.signal?.aborted) {
      if (calibration) throttle?.setThrottle({ scale: calibration.scale, burstSeconds: RUN_BURST_SECONDS });
      enter("run");
      await runPhase(
        {
          client,
          gen,
          pool: context.pool,
          seq: context.seq,
          work,
          mode: o.mode,
          metrics,
          concurrency,
          durationMs: askedMs,
          drainMs: o.drainMs ?? Math.min(2000, requestTimeoutMs),
          requestTimeoutMs,
          outageMs: o.outageMs ?? 5000,
          signal: o.signal,
          onProgress: o.onProgress,
          onDrain: () => enter("drain"),
          pace: o.mode === "design" ? callsPerSecond(work) * (calibration?.scale ?? 1) : o.rate,
        },
        clock,
      );
    }
  } catch (e) {
    if (!(o.signal?.aborted && isAbort(e))) failure = { phase, error: e };
  }
  throttle?.setThrottle("default");
  const cancelledIn = o.signal?.aborted && !failure ? phase : undefined;
  const deletion =
    created.mayExist && !o.keepTable ? await deletePhase(service, table, o, requestTimeoutMs, () => enter("delete")) : undefined;
  activeTables.delete(table);
  const leftover = deletion?.leftover;

  const runMs = external ? external.durationMs : clock.startedAt === undefined ? 0 : (clock.endedAt ?? performance.now()) - clock.startedAt;
  notes.push(...(external?.notes ?? []));
  if (clock.startedAt !== undefined && !cancelledIn && runMs > askedMs + Math.max(250, askedMs * 0.02))
    notes.push(overrunNote(runMs, askedMs, metrics, o.drainMs ?? Math.min(2000, requestTimeoutMs), requestTimeoutMs));
  const pacer = clock.pacer;
  if (pacer && pacer.counts.dropped > Math.max(5, 0.1 * (pacer.counts.sent + pacer.counts.dropped))) {
    notes.push(
      `This machine could not keep the design's pace: ${formatCount(pacer.counts.dropped)} of ${formatCount(pacer.counts.sent + pacer.counts.dropped)} calls could not start on time (every worker was busy), so the load was lighter than the design's.`,
    );
  }
  const hint = o.cleanupHint ?? DEFAULT_CLEANUP_HINT;
  const left = leftover ? `; ${leftoverMessage(leftover, hint)}` : "";
  const why =
    failure && `failed while ${PHASE_WORDS[failure.phase]} at ${host}: ${reason(failure.error, o.connection.endpoint, requestTimeoutMs)}`;
  const stopped =
    why ??
    (cancelledIn === "create"
      ? "cancelled while creating the table"
      : cancelledIn === "calibrate"
        ? "cancelled while calibrating the emulator"
        : cancelledIn === "preload"
          ? `cancelled while loading entities (${formatCount(loaded)} of ${formatCount(wanted)})`
          : cancelledIn
            ? "cancelled"
            : undefined);
  const report = buildReport({
    metrics,
    durationMs: runMs,
    target: emulator ? "emulator" : "account",
    table,
    design: { file: o.design.file, table: o.design.table },
    mode: o.mode,
    concurrency,
    partitionTarget: calibration?.partitionTargetEntitiesPerSecond ?? azure.partitionTargetEntitiesPerSecond,
    notes,
    stopped: stopped || leftover ? `${stopped ?? "finished"}${left}` : undefined,
    leftover,
    calibration,
    work,
    skipped,
    pace: pacer ? { callsPerSecond: Math.round(pacer.perSecond * 100) / 100, ...pacer.counts } : external?.pace,
    ...(external ? { engine: external.engine } : {}),
  });
  if (failure) {
    // What became of the table, so the user knows whether anything is left to clean up.
    const fate =
      deletion?.afterMs !== undefined
        ? `; the table ${table} was deleted once ${host} answered again (after ${(deletion.afterMs / 1000).toFixed(1)} s)`
        : deletion && !leftover
          ? `; the table ${table} was deleted`
          : !created.mayExist && !(failure.error instanceof TableTaken)
            ? "; no table was created"
            : "";
    throw new StressFailure(`the stress test ${why}${fate}${left}`, report, failure.phase, leftover);
  }
  if (leftover) throw new StressFailure(leftoverMessage(leftover, hint), report, "delete", leftover);
  return report;
}

/**
 * The design table a run would load and what it would send, or a
 * `StressInputError` saying why it cannot run (no such table, a syntax
 * error, no keys, no pattern with a rate in design mode). Nothing is
 * created: callers check a design before they start an emulator.
 */
export function checkDesign(o: Pick<StressOptions, "design" | "mode" | "mix" | "batch" | "analysis">) {
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

/** The preload, bounded by `preloadMs` (default 60 s): the run then reads what was loaded, and the report says so. */
async function boundedPreload(
  client: TableClient,
  context: CallContext,
  metrics: Metrics,
  wanted: number,
  o: StressOptions,
  requestTimeoutMs: number,
  notes: string[],
): Promise<number> {
  const bounded = linked(o.signal);
  const preloadMs = o.preloadMs ?? 60_000;
  const timer = setTimeout(() => bounded.abort(), preloadMs);
  try {
    const loaded = await preload(client, context, metrics, wanted, bounded.signal, requestTimeoutMs);
    if (loaded < wanted && !o.signal?.aborted)
      notes.push(
        `The preload stopped at its ${Math.round(preloadMs / 1000)} s bound with ${formatCount(loaded)} of ${formatCount(wanted)} entities.`,
      );
    return loaded;
  } finally {
    clearTimeout(timer);
    bounded.abort();
    bounded.dispose();
  }
}

/**
 * Deletes the table within its budget; a second Ctrl+C (`hurry`) shortens
 * the budget to `hurryDeleteMs` from then. `afterMs` is set when it took
 * more than one attempt (the endpoint came back).
 */
async function deletePhase(
  service: TableServiceClient,
  table: string,
  o: StressOptions,
  requestTimeoutMs: number,
  enter: () => void,
): Promise<{ leftover?: Leftover; afterMs?: number }> {
  enter();
  const t0 = performance.now();
  const budget = { until: t0 + (o.deleteWithinMs ?? DELETE_WITHIN_MS) };
  const hurry = () => {
    budget.until = Math.min(budget.until, performance.now() + (o.hurryDeleteMs ?? 10_000));
  };
  if (o.hurry?.aborted) hurry();
  else o.hurry?.addEventListener("abort", hurry, { once: true });
  try {
    const outcome = await deleteWithBackoff(service, table, o.connection.endpoint, budget, requestTimeoutMs, o.onDeleteWait);
    if (!outcome.deleted)
      return { leftover: { table, host: endpointHost(o.connection.endpoint), reason: outcome.reason ?? "deleting it failed" } };
    return outcome.attempts > 1 ? { afterMs: performance.now() - t0 } : {};
  } finally {
    o.hurry?.removeEventListener("abort", hurry);
  }
}

/** The report says so when the run phase took longer than asked, and why. */
function overrunNote(runMs: number, askedMs: number, metrics: Metrics, drainMs: number, requestTimeoutMs: number): string {
  const timeouts = Object.values(metrics.ops).reduce((n, s) => n + (s.errorCodes.RequestTimeout ?? 0), 0);
  return (
    `The run took ${(runMs / 1000).toFixed(1)} s, longer than the ${(askedMs / 1000).toFixed(1)} s asked: requests still in flight at the end were given up to ${(drainMs / 1000).toFixed(1)} s` +
    (timeouts ? `, and ${timeouts} got no answer within ${(requestTimeoutMs / 1000).toFixed(1)} s (the endpoint stalled).` : ".")
  );
}

/** A failure in words: the account module's description, plus how long the endpoint was silent. */
function reason(e: unknown, endpoint: string, timeoutMs: number): string {
  if (e instanceof EndpointSilent) return `${toAccountError(e.last, endpoint, timeoutMs).message} (${e.message})`;
  if (e instanceof TableTaken || e instanceof StressInputError) return e.message;
  return toAccountError(e, endpoint, timeoutMs).message;
}

function hostname(endpoint: string): string {
  try {
    return new URL(endpoint).hostname;
  } catch {
    return "";
  }
}

/** Clients with the SDK's own retries off: the test applies and counts the guide's policy itself. */
function clientsWithoutRetries(o: StressOptions): { service: TableServiceClient; table: (name: string) => TableClient } {
  // A plain-HTTP loopback emulator: requests skip VS Code's proxy patch of http.request (see direct-http.ts), as the CLI's never meet it.
  const direct =
    o.connection.endpoint.startsWith("http:") && isLoopback(hostname(o.connection.endpoint)) ? { httpClient: directHttpClient() } : {};
  const pair = makeClients(o.connection, o.secret, {
    retryOptions: { maxRetries: 0 },
    ...direct,
    ...(o.clientOptions ?? {}),
  } as TableServiceClientOptions);
  return { service: pair.service, table: pair.table };
}
