/**
 * `tdl export --table T --out DIR`: every entity of a table as JSON lines
 * with their Edm types, read in parallel by PartitionKey ranges, at most a
 * share of the service's targets, with a manifest of each range's count and
 * checksum. Run it again on the same folder after a crash or Ctrl+C and it
 * goes on from its checkpoint.
 */
import { SERVICE_NAMES } from "@core";
import { exportTable, throttleNote } from "@runtime";
import { command } from "../command";
import { choice, integer, outputFolder, text } from "../options";
import { EXIT } from "../failure";
import { ACCOUNT_OPTIONS, JOB_SESSION, ONE_ACCOUNT, sessionOf } from "../account";
import { count, interruptible, PACE_OPTIONS, paceOf, retryLine, throttled } from "../jobs";
import { onTable, tableName } from "../validate";

export const exportCommand = command({
  name: "export",
  summary: "Export a table as JSON lines with Edm types, in parallel key ranges, resumable, with a checksummed manifest",
  description:
    "Writes one range-NNNN.jsonl file per PartitionKey range and manifest.json (each range's count and checksum) into --out. Run it again on the same folder to resume after a crash or Ctrl+C; a finished export is left as it is.",
  exits: "0 done; 1 the job failed or was stopped (a rerun resumes it); 2 bad usage",
  options: {
    table: text("NAME", "the table to export"),
    out: outputFolder("DIR", "the folder of the export (created; resumed when it holds one)"),
    ...ACCOUNT_OPTIONS,
    concurrency: integer("N", "key ranges read at once", { min: 1, max: 64 }).default(4),
    ...PACE_OPTIONS,
    service: choice(SERVICE_NAMES, "the source's service profile (its targets)").default("azure-table"),
  },
  required: ["table", "out"],
  oneOf: [ONE_ACCOUNT],
  async run({ options }, io) {
    const { table, out, concurrency, service } = options;
    tableName("table", table!, service);
    const session = sessionOf(options, JOB_SESSION);
    const job = interruptible(io, `run the same command again to resume from ${out}`);
    const progress = throttled(io);
    try {
      const r = await onTable(session.connection.endpoint, table!, () =>
        exportTable({
          session,
          table: table!,
          dir: out!,
          concurrency,
          ...paceOf(options),
          service,
          signal: job.signal,
          onProgress: (p) =>
            progress(
              `exporting ${table}: ${count(p.entities)} entities, ${p.rangesDone} of ${p.ranges} ranges done${throttleNote(p.pace)}`,
            ),
          onRetry: (n) => progress(retryLine(n), true),
        }),
      );
      const m = r.manifest;
      if (r.cancelled)
        return {
          stdout: "",
          stderr: `tdl: stopped: ${count(m.ranges.reduce((n, x) => n + x.count, 0))} entities exported so far, ${m.ranges.filter((x) => x.done).length} of ${m.ranges.length} ranges done; run the same command again to resume\n`,
          exitCode: EXIT.failed,
        };
      return {
        stdout: `${JSON.stringify({ table: m.table, entities: m.count, ranges: m.ranges.length, checksum: m.checksum, resumed: r.resumed })}\n`,
        stderr: `exported ${count(m.count)} entities of ${table} in ${m.ranges.length} ranges to ${out} (checksum ${m.checksum})\n`,
        exitCode: EXIT.clean,
      };
    } finally {
      job.dispose();
    }
  },
});
