/**
 * `tdl delete --table T (--partition P | --filter F)`: a dry run first (how
 * many entities, in how many partitions), then — after `--yes`, or the
 * count typed back at the terminal's question — batches of one partition,
 * each entity deleted only if it is unchanged since the dry run; what was
 * deleted goes to a file, one JSON line per entity. Without a terminal and
 * without `--yes` it refuses: a script must say it means it.
 */
import { UsageError } from "@core/errors";
import { SERVICES } from "@core";
import { jobPaths, planDelete, runDelete, throttleNote } from "@runtime";
import { command } from "../command";
import { flag, outputFile, text } from "../options";
import { EXIT } from "../failure";
import { ACCOUNT_OPTIONS, JOB_SESSION, ONE_ACCOUNT, sessionOf } from "../account";
import { ask, count, interruptible, retryLine, throttled } from "../jobs";
import { onTable, parsedFilter, tableName } from "../validate";

export const deleteCommand = command({
  name: "delete",
  summary: "Delete every entity of a partition or of a filter: a dry-run count, a confirmation, batches per partition, a log",
  description:
    "Each entity is deleted only if it is unchanged since the dry run; one that changed is kept and named. Without --yes it asks for the count on the terminal; without a terminal it refuses. --dry-run only counts.",
  exits:
    "0 deleted (or counted, with --dry-run); 1 the job failed, was stopped, or entities changed and were kept; 2 bad usage or not confirmed",
  options: {
    table: text("NAME", "the table"),
    ...ACCOUNT_OPTIONS,
    partition: text("P", "delete every entity of this partition"),
    filter: text("F", "delete every entity this OData filter matches"),
    "dry-run": flag("count what would be deleted, and delete nothing"),
    yes: flag("delete without asking (after the dry run's count)"),
    log: outputFile("FILE", "where the deleted entities' keys go, one JSON line each (default tdl-deleted-TABLE-TIME.jsonl)"),
  },
  required: ["table"],
  oneOf: [ONE_ACCOUNT, { options: ["partition", "filter"], what: "selection" }],
  async run({ options }, io) {
    const table = options.table!;
    tableName("table", table);
    if (options.filter !== undefined) parsedFilter(options.filter);
    const session = sessionOf(options, JOB_SESSION);
    const job = interruptible(io, "what was deleted so far is in the log; run the command again for the rest");
    const progress = throttled(io);
    try {
      const selection = { table, partition: options.partition, filter: options.filter };
      const { path: net } = jobPaths(SERVICES["azure-table"], { signal: job.signal, onRetry: (n) => progress(retryLine(n), true) });
      const plan = await onTable(session.connection.endpoint, table, () =>
        planDelete(
          session,
          selection,
          job.signal,
          (n) => progress(`counting: ${count(n)} entities so far${throttleNote(net.state())}`),
          net,
        ),
      );
      const what = `${count(plan.entities.length)} ${plan.entities.length === 1 ? "entity" : "entities"} in ${count(plan.partitions)} ${plan.partitions === 1 ? "partition" : "partitions"} of ${table}`;
      if (job.signal.aborted) return { stdout: "", stderr: "tdl: stopped while counting: nothing was deleted\n", exitCode: EXIT.failed };
      if (options["dry-run"] || plan.entities.length === 0)
        return {
          stdout: `${JSON.stringify({ table, entities: plan.entities.length, partitions: plan.partitions })}\n`,
          stderr: `would delete ${what}\n`,
          exitCode: EXIT.clean,
        };
      if (!options.yes) {
        const answer = await ask(io, `Delete ${what}? Type ${plan.entities.length} to confirm: `);
        if (answer === undefined) throw new UsageError(`${what} would be deleted: without a terminal to ask on, pass --yes`);
        if (answer.replace(/,/g, "") !== String(plan.entities.length))
          return { stdout: "", stderr: "tdl: not confirmed: nothing was deleted\n", exitCode: EXIT.usage };
      }
      const log = options.log ?? `tdl-deleted-${table}-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`;
      const report = await runDelete(
        session,
        plan,
        log,
        job.signal,
        (done, total) => progress(`deleting: ${count(done)} of ${count(total)}${throttleNote(net.state())}`),
        net,
      );
      const kept = report.changed.map((e) => `tdl: kept ${e.partitionKey} / ${e.rowKey}: changed since the dry run\n`).join("");
      const notes = [
        `deleted ${count(report.deleted)} of ${what} (their keys are in ${log})`,
        report.gone ? `${count(report.gone)} were already gone` : "",
        report.changed.length ? `${count(report.changed.length)} changed since the dry run and were kept` : "",
        report.inDoubt
          ? `${count(report.inDoubt)} in doubt: stopped while their batch was on its way (deleted whole or not at all; a dry run tells which)`
          : "",
        report.notAttempted ? `${count(report.notAttempted)} not attempted: stopped` : "",
      ].filter(Boolean);
      const inDoubt = report.inDoubt ?? 0;
      return {
        stdout: `${JSON.stringify({ table, deleted: report.deleted, changed: report.changed.length, gone: report.gone, notAttempted: report.notAttempted, inDoubt, log })}\n`,
        stderr: `${kept}${notes.join("; ")}\n`,
        exitCode: report.changed.length || report.notAttempted || inDoubt ? EXIT.failed : EXIT.clean,
      };
    } finally {
      job.dispose();
    }
  },
});
