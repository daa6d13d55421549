/**
 * `tdl infer`: read a spread-out sample of a live table and write the
 * design inferred from it (stdout, or `--out FILE`, checked before anything
 * is read). Progress and a summary (the partition histogram, how well the
 * keys were explained, what the analyzer says of the design) go to stderr.
 * Ctrl+C stops reading early: the design is then inferred from what was
 * read, and says so.
 */
import * as fs from "node:fs";
import { analyzeTdl } from "@core";
import { InputError } from "@core/errors";
import { AccountError, AccountSession, histogramLines, inferFromTable, type TableInference } from "@runtime";
import { accountOf, ACCOUNT_OPTIONS, ONE_ACCOUNT } from "../account";
import { command } from "../command";
import { ANALYSIS, analysisOf, integer, outputFile, text } from "../options";
import { EXIT, inContext } from "../failure";
import { unreadable } from "../files";
import { onTable, tableName } from "../validate";

/** Largest `--sample`: a sample is held in memory. */
const MAX_SAMPLE = 1_000_000;
/** Progress lines at most this often. */
const PROGRESS_MS = 500;

export const infer = command({
  name: "infer",
  summary: "Read a sample of a live table, spread over its key space, and write the design inferred from it",
  description:
    "The design holds key expressions, property types and facts, rows and entity size (stdout without --out); progress and a summary go to stderr. An --account-url with a SAS reads with it; without one, Microsoft Entra ID signs in. Ctrl+C stops reading and infers from what was read.",
  exits: "0 done; 1 the table could not be read or is empty; 2 bad usage",
  options: {
    table: text("NAME", "the table to read"),
    ...ACCOUNT_OPTIONS,
    sample: integer("N", "how many entities to read at most", { min: 1, max: MAX_SAMPLE }).default(10_000, "10,000"),
    out: outputFile("FILE", "write the design here instead of stdout"),
    service: ANALYSIS.options.service,
  },
  required: ["table"],
  oneOf: [ONE_ACCOUNT],
  async run({ options }, io) {
    const { table, sample, out } = options;
    const service = analysisOf(options).defaultService;
    tableName("table", table!, service);
    const { connection, secret } = accountOf(options["connection-string-env"], options["account-url"]);
    const controller = new AbortController();
    const onSigint = () => {
      io.err("tdl: stopping: the design is inferred from what was read so far\n");
      controller.abort();
    };
    process.once("SIGINT", onSigint);
    let last = -Infinity;
    let result: TableInference;
    try {
      // A table the account does not have is named as every command names it (validate.ts).
      result = await onTable(connection.endpoint, table!, () =>
        inferFromTable(new AccountSession(connection, secret), table!, {
          sample,
          service,
          signal: controller.signal,
          onProgress: (p) => {
            const now = performance.now();
            if (now - last < PROGRESS_MS && p.entities < p.target) return;
            last = now;
            io.err(
              `reading ${table}: ${p.entities.toLocaleString("en-US")} of up to ${p.target.toLocaleString("en-US")} entities, ${p.requests} requests\n`,
            );
          },
        }),
      );
    } catch (e) {
      // The account's answer does not name the table: say which one could not be read.
      throw e instanceof AccountError ? inContext(`cannot read the table ${table}`, e) : e;
    } finally {
      process.removeListener("SIGINT", onSigint);
    }
    if (out !== undefined) {
      try {
        fs.writeFileSync(out, result.text);
      } catch (e) {
        throw new InputError(unreadable(out, e, "cannot write"));
      }
    }
    return { stdout: out !== undefined ? "" : result.text, stderr: summary(table!, result, out), exitCode: EXIT.clean };
  },
});

/** What stderr says after a run: the read, the partition histogram, the keys' coverage, the analyzer's findings. */
function summary(table: string, r: TableInference, out: string | undefined): string {
  const nf = (n: number) => n.toLocaleString("en-US");
  const s = r.sample;
  const lines = [
    `${table}: read ${nf(r.check.total)} entities in ${nf(r.stats.partitions)} partitions with ${nf(s.requests)} requests in ${(s.elapsedMs / 1000).toFixed(1)} s` +
      `${s.wholeTable ? " (the whole table)" : `; the table holds ${s.countComplete ? "" : "≈ "}${nf(s.tableRows)} (${s.rowsBasis})`}${s.cancelled ? "; stopped early" : ""}`,
    `design inferred in ${Math.round(r.inferMs)} ms: the PartitionKey expression rebuilds ${nf(r.check.partitionKey)} and the RowKey expressions ${nf(r.check.anyRowKey)} of ${nf(r.check.total)} sampled keys`,
    "entities per partition:",
    ...histogramLines(r.stats.histogram).map((l) => `  ${l}`),
  ];
  const findings = analyzeTdl(r.text).findings;
  const count = (sev: string) => findings.filter((f) => f.severity === sev).length;
  lines.push(
    `the analyzer finds ${count("error")} errors, ${count("warning")} warnings and ${count("info")} infos in it${out ? ` (tdl check ${out})` : ""}`,
  );
  if (out) lines.push(`wrote ${out}`);
  return lines.join("\n") + "\n";
}
