/**
 * `tdl migrate verify`: the comparison (runtime/migrate/compare.ts) with
 * `--repair`, its differences listed, then the cutover checklist with the
 * state of each step — what the tables show is judged here (the backfill's
 * checkpoint, the differences); what only the team can know (reads
 * switched, old writes stopped) is said as the next step once the one
 * before it is done.
 */
import * as path from "node:path";
import { backfillState, verifyMigration, type VerifyReport } from "@runtime";
import type { MigrationPlan } from "@core";
import { stringLiteral } from "@core";
import { EXIT } from "../../failure";
import { count, paceOf, retryLine, throttled } from "../../jobs";
import { plural } from "@core/text/words";
import type { CliResult, Io } from "../../output";
import { onTable } from "../../validate";
import type { Designs } from "./designs";
import type { RunOptions } from "./run";
import { sidesOf } from "./targets";

/** Differences listed on stderr at most. */
const LISTED = 20;

export async function verifyCommand(
  d: Designs,
  plan: MigrationPlan,
  options: RunOptions & { repair: boolean },
  io: Io,
): Promise<CliResult> {
  const sides = sidesOf(d, plan, options, "verify");
  const progress = throttled(io);
  const pace = paceOf(options);
  const report = await onTable(sides.source.connection.endpoint, sides.sourceTable, () =>
    verifyMigration({
      ...sides,
      repair: options.repair,
      share: pace.share,
      rate: pace.rate,
      onRetry: (n) => progress(retryLine(n), true),
      onProgress: (p) => progress(`verifying ${sides.sourceTable}: ${p.phase} ${count(p.done)}`),
    }),
  );
  const lines = report.differences
    .slice(0, LISTED)
    .map((x) => `${x.kind} ${x.table} ${x.partitionKey} / ${x.rowKey}: ${x.detail}${x.repaired ? ` → ${x.repaired}` : ""}\n`);
  if (report.differences.length > LISTED) lines.push(`… and ${count(report.differences.length - LISTED)} more\n`);
  const c = report.counts;
  const summary = `${count(report.oldEntities)} old entities, ${count(report.newRows)} new rows: ${plural(report.differences.length, "difference")} (${count(c.missing)} missing, ${count(c.extra)} extra, ${count(c.different)} different, ${count(c.unmapped)} that cannot be re-keyed)${options.repair ? `; ${count(report.repaired)} repaired` : ""}\n`;
  const settled = report.differences.length === 0 || (options.repair && report.repaired === report.differences.length);
  return {
    stdout: `${lines.join("")}${summary}\n${checklist(report, settled, sides.sourceTable, options.dir)}`,
    stderr: "",
    exitCode: report.differences.length && !settled ? EXIT.findings : EXIT.clean,
  };
}

/** The cutover steps, each with its state. */
function checklist(report: VerifyReport, settled: boolean, oldTable: string, dir: string | undefined): string {
  const state = dir ? backfillState(dir) : undefined;
  const backfilled = state
    ? `done (${path.join(dir!, "migrate.json")}: ${count(state.identities.count)} new rows planned)`
    : dir
      ? "not run in this folder"
      : "unknown (--dir names the run's folder)";
  const steps: Array<[string, string]> = [
    ["dual writes deployed (tdl codegen --migration)", "assumed: the backfill must start after them"],
    ["backfill (tdl migrate run)", backfilled],
    [
      "tables agree (tdl migrate verify)",
      settled
        ? report.differences.length
          ? "done after repair: run verify again to confirm"
          : "done: 0 differences"
        : `not yet: ${plural(report.differences.length, "difference")} (--repair resolves them toward the newer write)`,
    ],
    ["switch reads to the new design", settled ? "next: ready" : "blocked until the tables agree"],
    ["stop writing the old design (drop the dual writes)", "after reads are switched"],
    [
      `delete the old table: tdl delete --table ${oldTable} --filter "PartitionKey ge ${stringLiteral("")}"`,
      "after old writes have stopped",
    ],
  ];
  return `cutover:\n${steps.map(([s, st], i) => `  ${i + 1}. ${s}: ${st}\n`).join("")}`;
}
