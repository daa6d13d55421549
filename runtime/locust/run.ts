/**
 * `tdl stress --engine locust --workers N`: the load sent by a Locust master
 * and N workers on this machine, in place of the built-in engine's run
 * phase. Everything else is the built-in engine's (runtime/stress/engine.ts):
 * the marked table created and always deleted, the emulator calibrated, the
 * report. The exported folder is written to a temporary directory; the
 * workers get a table SAS minted here (or the connection's own SAS) through
 * their environment, never a file; they preload, say they are ready, and
 * start together when tdl writes the start time (the emulator's throttling
 * starts then too). When the run ends, is cancelled or fails, every process
 * is stopped by its PID and the workers' records are read into the metrics.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { parseConnectionString } from "../account/connection-string";
import type { Secret } from "../account/secret";
import { freePort } from "../emulator/azurite";
import type { ExternalContext, ExternalLoad, ExternalOutcome } from "../stress/engine";
import { sleep } from "../net/deadline";
import { callsPerSecond } from "../stress/workload";
import { UnavailableError } from "@core/errors";
import type { StressMode } from "@protocol/stress-report";
import { locustFiles, type ExportedFile } from "./export";
import type { LocustPlan } from "./plan";
import { absorbRecords, recordFiles, RECORDS_DIR } from "./records";
import { mintTableSas, partitionRange } from "./sas";
import { findLocust, LocustProcesses } from "./processes";
import type { TableModel } from "@core";

export { findLocust, LOCUST_INSTALL } from "./processes";

export interface LocustRunOptions {
  design: { tm: TableModel; keys: ExportedFile; file: string; table: string };
  mode: StressMode;
  endpoint: string;
  secret: Secret;
  emulator: boolean;
  workers: number;
  /** Locust users per worker. */
  users: number;
  durationMs: number;
  /** Calls per second in all, in the peak modes (design mode paces at the design's rates). */
  rate?: number;
  preload: number;
  partitionTarget: number;
  accountTarget: number;
  /** The `locust` executable (default: found on PATH). */
  locust?: string;
  /** Each line a Locust process writes to stderr (tests and `TDL_DEBUG` show them). */
  log?: (line: string) => void;
  /** How long the workers may take to start and preload (default 60 s). */
  readyWithinMs?: number;
  /** How long calls under way at the end may still finish (default 2 s), as the built-in engine's drain. */
  drainMs?: number;
  /** Each Locust process as it starts (tests check that each is gone afterwards). */
  onProcess?: (name: string, pid: number) => void;
}

/**
 * How the workers sign, as environment variables: one table SAS each,
 * minted from the account key (or the connection's own SAS). On a local
 * emulator they sign with SharedKeyLite instead: Azurite refuses an entity
 * group transaction under a table SAS (403, as the SDK meets it too), and
 * its key is the public development key.
 */
function credentials(
  secret: Secret,
  table: string,
  count: number,
  o: { mode: StressMode; validMs: number; tm: TableModel; emulator: boolean },
): Record<string, string> {
  const parsed = secret.connectionString ? parseConnectionString(secret.connectionString) : undefined;
  if (parsed?.accountKey && o.emulator) return { TDL_ACCOUNT: parsed.accountName, TDL_ACCOUNT_KEY: parsed.accountKey };
  const tokens = parsed?.accountKey
    ? mintTableSas({ account: parsed.accountName, key: parsed.accountKey }, table, {
        count,
        validMs: o.validMs,
        range: partitionRange(o.mode, o.tm.table.partitionKey?.expr),
      })
    : undefined;
  const sas = parsed?.sas ?? secret.sasToken?.replace(/^\?/, "");
  if (tokens ?? sas) return Object.fromEntries(Array.from({ length: count }, (_, i) => [`TDL_SAS_${i}`, tokens?.[i] ?? sas!]));
  throw new UnavailableError(
    "Locust workers sign with a SAS or the account key: this connection signs in with Microsoft Entra ID. Use a connection string with the account key, or a SAS.",
  );
}

/** The Locust engine for one run. */
export class LocustLoad implements ExternalLoad {
  readonly preloadsItself = true;

  constructor(private readonly o: LocustRunOptions) {}

  async run(ctx: ExternalContext): Promise<ExternalOutcome> {
    const o = this.o;
    const locust = o.locust ?? findLocust();
    const rate = o.mode === "design" ? callsPerSecond(ctx.work) * (ctx.calibration?.scale ?? 1) : (o.rate ?? 0);
    const plan: LocustPlan = {
      design: { file: o.design.file, table: o.design.table },
      mode: o.mode,
      table: ctx.table,
      endpoint: o.endpoint,
      target: o.emulator ? "emulator" : "account",
      durationMs: o.durationMs,
      users: o.users,
      workers: o.workers,
      rate,
      preload: o.preload,
      partitionTarget: ctx.calibration?.partitionTargetEntitiesPerSecond ?? o.partitionTarget,
      accountTarget: ctx.calibration?.accountTargetEntitiesPerSecond ?? o.accountTarget,
      p99Ms: 1000,
      work: ctx.work,
      skipped: ctx.skipped,
      ...(ctx.calibration ? { calibration: ctx.calibration } : {}),
    };
    const dir = mkdtempSync(path.join(tmpdir(), "tdl-locust-"));
    const procs = new LocustProcesses(o.log, o.onProcess);
    try {
      for (const f of locustFiles(o.design, plan, { kind: "sas", engines: o.workers })) {
        mkdirSync(path.dirname(path.join(dir, f.name)), { recursive: true });
        writeFileSync(path.join(dir, f.name), f.text);
      }
      mkdirSync(path.join(dir, RECORDS_DIR));
      const credential = credentials(o.secret, ctx.table, o.workers, {
        mode: o.mode,
        validMs: o.durationMs + 3_600_000,
        tm: o.design.tm,
        emulator: o.emulator,
      });
      const startFile = path.join(dir, `start-${randomBytes(4).toString("hex")}`);
      const env: Record<string, string> = {
        TDL_ENDPOINT: o.endpoint,
        TDL_TABLE: ctx.table,
        TDL_WORKERS: String(o.workers),
        TDL_RATE: String(rate),
        TDL_DURATION: String(o.durationMs / 1000),
        TDL_PRELOAD: String(o.preload),
        TDL_RECORDS: path.join(dir, RECORDS_DIR),
        TDL_START_FILE: startFile,
        TDL_DRAIN: String((o.drainMs ?? 2000) / 1000),
        ...credential,
      };
      const port = await freePort();
      const users = o.users * o.workers;
      const runTime = Math.ceil((o.readyWithinMs ?? 60_000) / 1000 + o.durationMs / 1000 + 30);
      procs.spawn(
        "master",
        locust,
        [
          "-f",
          "locustfile.py",
          "--headless",
          "--master",
          "--master-bind-host",
          "127.0.0.1",
          "--master-bind-port",
          String(port),
          "--expect-workers",
          String(o.workers),
          "--users",
          String(users),
          "--spawn-rate",
          String(users),
          "--run-time",
          `${runTime}s`,
          "--only-summary",
          "--stop-timeout",
          "1",
        ],
        dir,
        env,
      );
      for (let i = 0; i < o.workers; i++)
        procs.spawn(
          `worker ${i + 1}`,
          locust,
          ["-f", "locustfile.py", "--worker", "--master-host", "127.0.0.1", "--master-port", String(port)],
          dir,
          env,
        );
      await this.startTogether(dir, procs, startFile, ctx);
      await procs.until(Date.now() + o.durationMs + (o.drainMs ?? 2000) + 300, ctx.signal);
      await procs.stop();
      // Cancelled before any worker began: nothing was measured, and that is no failure.
      if (ctx.signal?.aborted && !recordFiles(dir).some((f) => readFileSync(f, "utf8").includes('"start":')))
        return { durationMs: 0, notes: [], engine: { name: "locust", workers: o.workers, records: 0, skippedLines: 0 } };
      const read = await absorbRecords(dir, ctx.metrics, o.workers);
      return {
        durationMs: Math.min(read.durationMs, o.durationMs + (o.drainMs ?? 2000)),
        pace: read.pace,
        notes: read.notes,
        engine: { name: "locust", workers: o.workers, records: read.files, skippedLines: read.skippedLines },
        invalid: read.invalid,
      };
    } catch (e) {
      await procs.stop();
      throw e;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Waits until every worker has preloaded and said so, then starts them (and the throttling) at one time. */
  private async startTogether(dir: string, procs: LocustProcesses, startFile: string, ctx: ExternalContext): Promise<void> {
    const within = Date.now() + (this.o.readyWithinMs ?? 60_000);
    for (;;) {
      procs.check();
      if (ctx.signal?.aborted) return;
      const texts = recordFiles(dir).map((f) => readFileSync(f, "utf8"));
      const failed = texts.map((t) => /"failed":\s*("(?:[^"\\]|\\.)*")/.exec(t)?.[1]).find((m) => m !== undefined);
      if (failed) throw new UnavailableError(`a Locust worker could not start: ${JSON.parse(failed) as string}`);
      const ready = texts.filter((t) => /"ready":/.test(t)).length;
      if (ready >= this.o.workers) break;
      if (Date.now() > within)
        throw new UnavailableError(
          `${ready} of ${this.o.workers} Locust workers got ready within ${Math.round((this.o.readyWithinMs ?? 60_000) / 1000)} s${procs.lastWords()}`,
        );
      await sleep(100, ctx.signal);
    }
    const start = Date.now() / 1000 + 0.2;
    ctx.startThrottling();
    writeFileSync(startFile, String(start));
  }
}
