/**
 * `tdl`: the command line over the same analysis as the language server.
 * Exit codes follow `interfaces.md`: 0 clean, 1 errors, 2 bad usage or input.
 */
import { InputError } from "./files";
import { parseArgs, UsageError } from "./args";
import { runCheck } from "./check";
import { runClassify } from "./classify";
import { runFix } from "./fix";
import { stressCommand } from "./stress";
import { emulatorCommand } from "./emulator";
import { AnalysisOptions } from "../service";

declare const TDL_VERSION: string | undefined;
const VERSION = typeof TDL_VERSION === "string" ? TDL_VERSION : "dev";

const HELP = `tdl — Table Design Assistant on the command line

Usage:
  tdl check PATH... [--format text|json|sarif] [--max-warnings N] [--service PROFILE]
      Analyse .tdl designs (a folder: every design below it, honouring .gitignore).
      Exit 0 when clean or only warnings/info, 1 on any error (or more warnings
      than --max-warnings), 2 on bad usage or unreadable input.
  tdl classify "FILTER" [--design FILE --table NAME] [--format text|json]
      Classify one OData filter as point, row-range, partition-range or
      table-scan, with estimates from a design's table. Exit 2 if it does
      not parse (with the position).
  tdl fix PATH...
      Apply every quick fix that is the only fix of its diagnostic; print a summary.
  tdl stress --design FILE --table NAME (--emulator | --connection-string-env VAR)
             [--duration 30s] [--concurrency N] [--mode single-partition|spread|design]
             [--mix read=50,write=50] [--batch N] [--scale K] [--emulator-scale K] [--keep-table]
             [--report FILE.json] [--yes-real-account]
      Stress-test a design's partitions in a fresh stress… table, always deleted
      afterwards. A non-emulator endpoint needs --yes-real-account. Exit 0 done,
      1 the run failed or was cancelled, 2 bad usage.
  tdl stress --cleanup [--older-than 10m] (--emulator | --connection-string-env VAR) [--yes-real-account]
      Delete leftover stress tables that carry a stress test's marker ('tdl stress --help').
  tdl emulator [--port 10002] [--fidelity azure-table|off] [--scale K] [--record FILE]
      Run Azurite's table service in memory on 127.0.0.1 behind a layer that
      rejects what Azure rejects and throttles hot partitions (targets × K);
      the first stdout line is {"connectionString": …, "tableEndpoint": …}.
      Runs until SIGINT/SIGTERM; exit 0 stopped cleanly, 1 could not start.
  tdl --help | tdl --version

Options:
  --format         text (default, path:line:col severity code message), json, sarif
  --max-warnings   fail (exit 1) when there are more warnings than N
  --service        profile for designs without a 'service' line:
                   azure-table (default), cosmos-table, tablestore
`;

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export async function runCli(argv: string[]): Promise<CliResult> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
      return { stdout: HELP, stderr: "", exitCode: command === undefined ? 2 : 0 };
    }
    if (command === "--version") return { stdout: VERSION + "\n", stderr: "", exitCode: 0 };
    if (command === "check") return check(rest);
    if (command === "classify") return classify(rest);
    if (command === "fix") return fix(rest);
    if (command === "stress") return await stressCommand(rest);
    if (command === "emulator") {
      // Long-running: it writes as it goes instead of returning its output at the end.
      const { exitCode } = await emulatorCommand(rest, (s) => process.stdout.write(s), (s) => process.stderr.write(s));
      return { stdout: "", stderr: "", exitCode };
    }
    throw new UsageError(`unknown command '${command}'`);
  } catch (e) {
    if (e instanceof UsageError) return { stdout: "", stderr: `tdl: ${e.message}\nRun 'tdl --help' for usage.\n`, exitCode: 2 };
    if (e instanceof InputError) return { stdout: "", stderr: `tdl: ${e.message}\n`, exitCode: 2 };
    throw e;
  }
}

function check(argv: string[]): CliResult {
  const { positionals, options } = parseArgs(argv, ["format", "max-warnings", "service"], ["help"]);
  if (options.has("help")) return { stdout: HELP, stderr: "", exitCode: 0 };
  if (!positionals.length) throw new UsageError("check needs at least one PATH");
  const format = (options.get("format") ?? "text") as string;
  if (format !== "text" && format !== "json" && format !== "sarif") throw new UsageError(`--format must be text, json or sarif, not '${format}'`);
  let maxWarnings: number | undefined;
  if (options.has("max-warnings")) {
    maxWarnings = Number(options.get("max-warnings"));
    if (!Number.isInteger(maxWarnings) || maxWarnings < 0) throw new UsageError("--max-warnings needs a whole number");
  }
  const analysis: AnalysisOptions = {};
  const service = options.get("service");
  if (service !== undefined) {
    if (service !== "azure-table" && service !== "cosmos-table" && service !== "tablestore") {
      throw new UsageError(`--service must be azure-table, cosmos-table or tablestore, not '${String(service)}'`);
    }
    analysis.defaultService = service;
  }
  const { output, exitCode } = runCheck(positionals, { format, maxWarnings, analysis }, VERSION);
  return { stdout: output, stderr: "", exitCode };
}

function classify(argv: string[]): CliResult {
  const { positionals, options } = parseArgs(argv, ["design", "table", "format"], []);
  if (positionals.length !== 1) throw new UsageError('classify needs one FILTER, quoted: tdl classify "PartitionKey eq \'a\'"');
  const format = (options.get("format") ?? "text") as string;
  if (format !== "text" && format !== "json") throw new UsageError(`--format must be text or json, not '${format}'`);
  const design = options.get("design");
  const table = options.get("table");
  return runClassify(positionals[0], { format, design: design as string | undefined, table: table as string | undefined });
}

function fix(argv: string[]): CliResult {
  const { positionals } = parseArgs(argv, [], []);
  if (!positionals.length) throw new UsageError("fix needs at least one PATH");
  return { stdout: runFix(positionals), stderr: "", exitCode: 0 };
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).then((result) => {
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exitCode = result.exitCode;
  });
}
