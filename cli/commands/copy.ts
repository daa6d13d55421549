/**
 * `tdl copy`: a table into another table, account or service profile, by
 * way of a bulk export in --dir (so a copy resumes like one). Every entity
 * is checked against the target profile's limits before anything is
 * written — on Cosmos DB for Table a RowKey of at most 255 bytes, items of
 * at most 2 MB — and those that would fail are listed; nothing is written
 * while any would, unless --skip-invalid.
 */
import { SERVICE_NAMES } from "@core";
import { AccountSession, copyTable, IF_EXISTS, throttleNote } from "@runtime";
import { command } from "../command";
import { choice, flag, outputFolder, text } from "../options";
import { EXIT } from "../failure";
import { accountOf, ACCOUNT_OPTIONS, JOB_SESSION, ONE_ACCOUNT, sessionOf } from "../account";
import { count, interruptible, retryLine, throttled } from "../jobs";
import { onTable, tableName } from "../validate";

/** Failing entities listed on stderr at most. */
const LISTED = 20;

export const copy = command({
  name: "copy",
  summary: "Copy a table to another table, account or profile, after a pre-flight of every entity against the target's limits",
  description:
    "The source is exported into --dir first (a rerun resumes; run again after it finished, it reads the source again and deletes from the target the entities the source no longer holds). Entities the target would refuse (a Cosmos DB for Table RowKey over 255 bytes, an item over 2 MB…) are listed before anything is written; --skip-invalid writes the others.",
  exits: "0 copied; 1 entities would fail on the target (nothing written), the job failed or was stopped; 2 bad usage",
  options: {
    table: text("NAME", "the table to copy"),
    ...ACCOUNT_OPTIONS,
    "to-table": text("NAME", "the table to write (created when missing)"),
    "to-connection-string-env": text("VAR", "the target account's connection string (default: the source's account)"),
    "to-account-url": text("URL", "the target account's table endpoint (default: the source's account)"),
    "to-service": choice(SERVICE_NAMES, "the target's service profile: its limits are checked before writing").default("azure-table"),
    dir: outputFolder("DIR", "the work folder: the export, and the job's checkpoints"),
    "skip-invalid": flag("write the entities the target takes and list the others, instead of writing nothing"),
    "if-exists": choice(
      IF_EXISTS,
      "when the target table holds some of the keys already: fail (write nothing), skip them, replace them whole, or merge into them",
    ).default("fail"),
  },
  required: ["table", "to-table", "dir"],
  oneOf: [ONE_ACCOUNT],
  async run({ options }, io) {
    tableName("table", options.table!);
    tableName("to-table", options["to-table"]!, options["to-service"]);
    const source = sessionOf(options, JOB_SESSION);
    const toEnv = options["to-connection-string-env"];
    const toUrl = options["to-account-url"];
    const target =
      toEnv !== undefined || toUrl !== undefined
        ? (({ connection, secret }) => new AccountSession(connection, secret, JOB_SESSION))(accountOf(toEnv, toUrl, "to-"))
        : source;
    const job = interruptible(io, "run the same command again to resume");
    const progress = throttled(io);
    try {
      const r = await onTable(source.connection.endpoint, options.table!, () =>
        copyTable({
          source,
          sourceTable: options.table!,
          target,
          targetTable: options["to-table"]!,
          targetService: options["to-service"],
          dir: options.dir!,
          skipInvalid: options["skip-invalid"],
          ifExists: options["if-exists"],
          signal: job.signal,
          onRetry: (n) => progress(retryLine(n), true),
          onProgress: (p) =>
            progress(
              `copying ${options.table}: ${p.phase} ${count(p.done)}${p.total ? ` of ${count(p.total)}` : ""}${p.pace ? throttleNote(p.pace) : ""}`,
            ),
        }),
      );
      const m = r.exported.manifest;
      // A refresh says what it re-read; an unfinished copy resumed from its export says from when that export is.
      const refreshed = r.refreshed
        ? `tdl: ${options.dir} held a finished copy (its export read ${m.source} at ${r.refreshed.from}): ${options.table} was read again${r.refreshed.removed ? `; ${count(r.refreshed.removed)} entities it no longer holds were deleted from ${options["to-table"]}` : ""}\n`
        : "";
      const reused = r.refreshed
        ? refreshed
        : r.exported.reused
          ? `tdl: copied the export already in ${options.dir}, read from ${m.source} at ${m.started} (finished ${m.finished}): changes to ${options.table} since then are not in it; an empty --dir reads the source again\n`
          : "";
      const failing = r.preflight.failing
        .slice(0, LISTED)
        .map((f) => `tdl: ${f.file}:${f.line}: ${f.message}\n`)
        .join("");
      const more = r.preflight.count > LISTED ? `tdl: … and ${count(r.preflight.count - LISTED)} more\n` : "";
      if (r.exported.cancelled || r.imported?.cancelled)
        return { stdout: "", stderr: "tdl: stopped; run the same command again to resume\n", exitCode: EXIT.failed };
      if (!r.imported)
        return {
          stdout: "",
          stderr: `${failing}${more}tdl: ${count(r.preflight.count)} of ${count(r.exported.manifest.count)} entities would fail on ${options["to-service"]}: nothing was written (--skip-invalid writes the others)\n`,
          exitCode: EXIT.failed,
        };
      return {
        stdout: `${JSON.stringify({ table: options["to-table"], written: r.imported.written, skipped: r.imported.skipped.length })}\n`,
        stderr: `${reused}${failing}${more}copied ${count(r.imported.written)} entities into ${options["to-table"]}${r.preflight.count ? `; ${count(r.preflight.count)} the target refuses were skipped` : ""}\n`,
        exitCode: EXIT.clean,
      };
    } finally {
      job.dispose();
    }
  },
});
