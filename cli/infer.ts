/**
 * `tdl infer`: read a spread-out sample of a live table and write the
 * design inferred from it (stdout, or `--out FILE`). Progress and a summary
 * (the partition histogram, how well the keys were explained, what the
 * analyzer says of the design) go to stderr. Ctrl+C stops reading early:
 * the design is then inferred from what was read, and says so.
 * Exit 0 done, 1 the table could not be read (or holds nothing), 2 bad
 * usage (interfaces.md).
 */
import * as fs from "node:fs";
import { analyzeTdl } from "@core";
import { analysisOptions, parseArgs, UsageError } from "./args";
import { InputError, unreadable } from "./files";
import { EXIT } from "./failure";
import {
  AccountError,
  AccountSession,
  ConnectionStringError,
  histogramLines,
  InferError,
  inferFromTable,
  interpretConnectionInput,
  redact,
  type Secret,
  type TableInference,
} from "@runtime";
import type { ConnectionInfo } from "@protocol";
import type { CliResult } from "./output";

/** Largest `--sample`: a sample is held in memory. */
const MAX_SAMPLE = 1_000_000;
/** Progress lines at most this often. */
const PROGRESS_MS = 500;

/** Runs `tdl infer`; `progress` receives stderr text while reading (the result's stderr holds the summary). */
export async function inferCommand(argv: string[], progress: (s: string) => void = () => undefined): Promise<CliResult> {
  const { positionals, options } = parseArgs(argv, ["table", "connection-string-env", "account-url", "sample", "out", "service"], []);
  if (positionals.length) throw new UsageError(`infer takes no positional arguments (got '${positionals[0].slice(0, 40)}')`);
  const table = options.get("table");
  if (typeof table !== "string" || !table) throw new UsageError("infer needs --table NAME");
  const sample = options.has("sample") ? Number(options.get("sample")) : 10_000;
  if (!Number.isSafeInteger(sample) || sample < 1 || sample > MAX_SAMPLE)
    throw new UsageError(`--sample needs a whole number from 1 to ${MAX_SAMPLE.toLocaleString("en-US")}`);
  const out = options.get("out");
  if (out === "") throw new UsageError("--out needs a FILE");
  const service = analysisOptions(options).defaultService;
  const { connection, secret } = target(options.get("connection-string-env"), options.get("account-url"));

  const controller = new AbortController();
  const onSigint = () => {
    progress("tdl: stopping: the design is inferred from what was read so far\n");
    controller.abort();
  };
  process.once("SIGINT", onSigint);
  let last = -Infinity;
  let result: TableInference;
  try {
    const session = new AccountSession(connection, secret);
    result = await inferFromTable(session, table, {
      sample,
      service,
      signal: controller.signal,
      onProgress: (p) => {
        const now = performance.now();
        if (now - last < PROGRESS_MS && p.entities < p.target) return;
        last = now;
        progress(
          `reading ${table}: ${p.entities.toLocaleString("en-US")} of up to ${p.target.toLocaleString("en-US")} entities, ${p.requests} requests\n`,
        );
      },
    });
  } catch (e) {
    if (e instanceof InferError) return { stdout: "", stderr: `tdl: ${redact(e.message)}\n`, exitCode: 1 };
    if (e instanceof AccountError)
      return { stdout: "", stderr: `tdl: cannot read the table ${table}: ${redact(e.message)}\n`, exitCode: 1 };
    if (e instanceof DOMException && e.name === "AbortError")
      return { stdout: "", stderr: `tdl: cancelled before any entity of ${table} was read\n`, exitCode: 1 };
    throw e;
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
  if (typeof out === "string") {
    try {
      fs.writeFileSync(out, result.text);
    } catch (e) {
      throw new InputError(unreadable(out, e, "cannot write"));
    }
  }
  return {
    stdout: typeof out === "string" ? "" : result.text,
    stderr: summary(table, result, typeof out === "string" ? out : undefined),
    exitCode: EXIT.clean,
  };
}

/** The connection from `--connection-string-env VAR` or `--account-url URL` (exactly one). */
function target(envVar: string | true | undefined, url: string | true | undefined): { connection: ConnectionInfo; secret: Secret } {
  if ((envVar === undefined) === (url === undefined))
    throw new UsageError("choose one source: --connection-string-env VAR or --account-url URL");
  if (envVar === true || url === true)
    throw new UsageError(envVar === true ? "--connection-string-env needs a VAR" : "--account-url needs a URL");
  const text = envVar !== undefined ? process.env[envVar] : url!;
  if (!text) throw new UsageError(`the environment variable ${envVar} is not set`);
  try {
    // A URL with a SAS reads with it; a URL without one signs in with Microsoft Entra ID.
    const input = interpretConnectionInput(text, "entra-id");
    if (envVar !== undefined && input.kind !== "connection-string")
      throw new InputError(`${envVar} holds a URL: pass it with --account-url`);
    return { connection: { id: "cli", name: envVar ?? "account", kind: input.kind, endpoint: input.endpoint }, secret: input.secret };
  } catch (e) {
    if (e instanceof ConnectionStringError)
      throw new InputError(`${envVar !== undefined ? `the connection string in ${envVar}` : "--account-url"}: ${redact(e.message)}`);
    throw e;
  }
}

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
