/**
 * `tdl migrate run`: the backfill (runtime/migrate/backfill.ts) with its
 * progress on stderr, Ctrl+C as a clean stop, and the pre-flight's refusals
 * listed before anything is written. The JSON line on stdout is what a
 * script (and the bench) reads: rows inserted, found, removed again, and
 * the rate of this run's writing beside the rate the share allows.
 */
import * as path from "node:path";
import { EXPORT_FOLDER, throttleNote, runBackfill } from "@runtime";
import type { MigrationPlan, ServiceName } from "@core";
import { EXIT } from "../../failure";
import { count, interruptible, paceOf, retryLine, throttled } from "../../jobs";
import type { CliResult, Io } from "../../output";
import { onTable } from "../../validate";
import type { Designs } from "./designs";
import { sidesOf } from "./targets";

/** Failing entities listed on stderr at most. */
const LISTED = 20;

export interface RunOptions {
  table?: string;
  share: number;
  rate?: number;
  dir?: string;
  "skip-invalid": boolean;
  "connection-string-env"?: string;
  "account-url"?: string;
  "from-table"?: string;
  "to-table"?: string;
  "to-connection-string-env"?: string;
  "to-account-url"?: string;
  "to-service"?: ServiceName;
}

export async function runMigration(d: Designs, plan: MigrationPlan, options: RunOptions, io: Io): Promise<CliResult> {
  if (options.dir === undefined)
    return { stdout: "", stderr: "tdl: migrate run needs --dir DIR (the job folder: a rerun resumes from it)\n", exitCode: EXIT.usage };
  const sides = sidesOf(d, plan, options, "run");
  const job = interruptible(io, "run the same command again to resume");
  const progress = throttled(io);
  const pace = paceOf(options);
  try {
    const r = await onTable(sides.source.connection.endpoint, sides.sourceTable, () =>
      runBackfill({
        ...sides,
        dir: options.dir!,
        share: pace.share,
        rate: pace.rate,
        skipInvalid: options["skip-invalid"],
        signal: job.signal,
        onRetry: (n) => progress(retryLine(n), true),
        onProgress: (p) =>
          progress(
            `migrating ${sides.sourceTable}: ${p.phase} ${count(p.done)}${p.total ? ` of ${count(p.total)}` : ""}${p.pace ? throttleNote(p.pace) : ""}`,
          ),
      }),
    );
    const failing = r.preflight.failing
      .slice(0, LISTED)
      .map((f) => `tdl: ${path.join(options.dir!, EXPORT_FOLDER, f.file)}:${f.line}: ${f.message}\n`)
      .join("");
    const more = r.preflight.count > LISTED ? `tdl: … and ${count(r.preflight.count - LISTED)} more\n` : "";
    if (r.exported.cancelled || r.backfill?.cancelled)
      return { stdout: "", stderr: "tdl: stopped; run the same command again to resume\n", exitCode: EXIT.failed };
    const b = r.backfill;
    if (!b)
      return {
        stdout: "",
        stderr: `${failing}${more}tdl: ${count(r.preflight.count)} of ${count(r.exported.manifest.count)} entities cannot be migrated to ${sides.targetService}: nothing was written (--skip-invalid writes the others)\n`,
        exitCode: EXIT.failed,
      };
    const allowed = Number.isFinite(pace.rate ?? NaN) ? pace.rate! : plan.tables[0].rate;
    const summary = {
      table: sides.sourceTable,
      targets: Object.fromEntries(sides.targets.map((t) => [t.design, t.table])),
      entities: b.entities,
      inserted: b.inserted,
      present: b.present,
      removed: b.removed,
      skipped: b.skipped,
      identities: r.preflight.identities,
      rowsPerSecond: Math.round(b.rowsPerSecond),
      allowedPerSecond: allowed === undefined ? null : Math.round(allowed),
    };
    return {
      stdout: `${JSON.stringify(summary)}\n`,
      stderr: `${failing}${more}migrated ${count(b.entities)} entities of ${sides.sourceTable}: ${count(b.inserted)} rows inserted, ${count(b.present)} there already (newer dual writes, kept), ${count(b.removed)} deleted again (their old entity was deleted meanwhile); ${count(Math.round(b.rowsPerSecond))} rows/s\n`,
      exitCode: EXIT.clean,
    };
  } finally {
    job.dispose();
  }
}
