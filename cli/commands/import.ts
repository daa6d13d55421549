/**
 * `tdl import DIR --table T`: a bulk export written into a table, in
 * batches of one partition as idempotent upserts, resumable; `--verify`
 * reads the table back and compares each range's count and checksum with
 * the export's manifest. A line that is not an entity is named (file and
 * line) and skipped whole.
 */
import { SERVICE_NAMES } from "@core";
import { IF_EXISTS, importTable, loadManifest, occupiedSentence, throttleNote, verifyTable } from "@runtime";
import { command } from "../command";
import { choice, flag, integer, text } from "../options";
import { EXIT } from "../failure";
import { ACCOUNT_OPTIONS, JOB_SESSION, ONE_ACCOUNT, sessionOf } from "../account";
import { count, interruptible, PACE_OPTIONS, paceOf, retryLine, throttled } from "../jobs";
import { existingFolder, tableName } from "../validate";

/** The entities of the export in `dir` (its manifest was checked by the import). */
const manifestCount = (dir: string) => loadManifest(dir)?.count ?? 0;

/** Skipped lines listed on stderr at most. */
const LISTED = 20;

export const importCommand = command({
  name: "import",
  summary: "Write a bulk export into a table: batches per partition, idempotent upserts, resumable; --verify compares checksums",
  description:
    "Run it again after a crash or Ctrl+C and it goes on after the last batch written. Lines that are not entities are named and skipped, never half-written.",
  exits: "0 done (and verified, with --verify); 1 the job failed, was stopped, skipped lines or differs from the manifest; 2 bad usage",
  positionals: { arg: "DIR", count: "one", missing: "import needs the folder of an export: tdl import DIR --table T" },
  options: {
    table: text("NAME", "the table to write (created when missing)"),
    ...ACCOUNT_OPTIONS,
    verify: flag("read the table back and compare each range's count and checksum with the manifest"),
    concurrency: integer("N", "ranges written at once", { min: 1, max: 64 }).default(4),
    ...PACE_OPTIONS,
    service: choice(SERVICE_NAMES, "the target's service profile (its batch limits and targets)").default("azure-table"),
    "if-exists": choice(
      IF_EXISTS,
      "when the table holds some of the export's keys already: fail (write nothing), skip them, replace them whole, or merge the export's properties into them",
    ).default("fail"),
    "on-error": choice(
      ["stop", "skip"],
      "an entity the service refuses: stop naming its file and line, or skip it (named) and go on",
    ).default("stop"),
    "dry-run": flag("count the export's keys the table holds already and say what would happen; write nothing"),
  },
  required: ["table"],
  oneOf: [ONE_ACCOUNT],
  async run({ positionals, options }, io) {
    const dir = positionals[0];
    const { table, concurrency, service } = options;
    existingFolder(dir);
    tableName("table", table!, service);
    const session = sessionOf(options, JOB_SESSION);
    const job = interruptible(io, `run the same command again to resume`);
    const progress = throttled(io);
    try {
      const r = await importTable({
        session,
        table: table!,
        dir,
        concurrency,
        ...paceOf(options),
        service,
        signal: job.signal,
        ifExists: options["if-exists"],
        onError: options["on-error"],
        dryRun: options["dry-run"],
        onProgress: (p) => progress(`importing into ${table}: ${count(p.written)} of ${count(p.total)} entities${throttleNote(p.pace)}`),
        onRetry: (n) => progress(retryLine(n), true),
      });
      if (r.dryRun) {
        const existing = r.existing ?? 0;
        const what = existing
          ? occupiedSentence(existing, manifestCount(dir), table!, options["if-exists"])
          : `none of the export's ${count(manifestCount(dir))} keys exist in ${table}: all would be written`;
        return {
          stdout: `${JSON.stringify({ table, dryRun: true, existing, ifExists: options["if-exists"] })}\n`,
          stderr: `${what}\n`,
          exitCode: EXIT.clean,
        };
      }
      const lines = r.skipped.slice(0, LISTED).map((s) => `tdl: skipped ${s.file}:${s.line}: ${s.message}\n`);
      if (r.skipped.length > LISTED) lines.push(`tdl: … and ${count(r.skipped.length - LISTED)} more skipped lines\n`);
      if (r.cancelled)
        return {
          stdout: "",
          stderr: `${lines.join("")}tdl: stopped after ${count(r.written)} entities; run the same command again to resume\n`,
          exitCode: EXIT.failed,
        };
      let verdict = "";
      let ok = r.skipped.length === 0;
      let checksum: string | undefined;
      if (options.verify) {
        const v = await verifyTable({ session, table: table!, dir, signal: job.signal });
        checksum = v.checksum;
        ok &&= v.differ.length === 0;
        verdict = v.differ.length
          ? v.differ
              .map(
                (d) =>
                  `tdl: ${d.file} differs: the export holds ${count(d.expected.count)} entities (${d.expected.checksum}), the table ${count(d.actual.count)} (${d.actual.checksum})\n`,
              )
              .join("")
          : `verified: ${count(v.count)} entities, checksum ${v.checksum}, equal to the export's\n`;
      }
      return {
        stdout: `${JSON.stringify({ table, written: r.written, skipped: r.skipped.length, resumed: r.resumed, ...(checksum ? { checksum, verified: ok } : {}) })}\n`,
        stderr: `${lines.join("")}imported ${count(r.written)} entities into ${table}${r.skipped.length ? `, skipped ${count(r.skipped.length)} lines` : ""}\n${verdict}`,
        exitCode: ok ? EXIT.clean : EXIT.failed,
      };
    } finally {
      job.dispose();
    }
  },
});
