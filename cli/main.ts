/**
 * `tdl`: the command line over the same analysis as the language server.
 * Exit codes follow the README's "The `tdl` command": 0 clean, 1 findings, 2 bad usage or
 * unreadable input, 3 internal failure. No stack trace reaches the user
 * unless TDL_DEBUG=1 asks for it.
 */
import * as fs from "node:fs";
import { InputError, unreadable } from "./files";
import { analysisOptions, ANALYSIS_OPTIONS, parseArgs, shown, UsageError } from "./args";
import { runCheck } from "./check";
import { runClassify } from "./classify";
import { runFix } from "./fix";
import { stressCommand } from "./stress";
import { emulatorCommand } from "./emulator";
import { inferCommand } from "./infer";
import { codegenCommand } from "./codegen";
import { asksForHelp, COMMAND_HELP, HELP } from "./help";
import { debugging, EXIT } from "./failure";
import { describeError, stackOf } from "@core/errors";
import type { CliResult } from "./output";

declare const TDL_VERSION: string | undefined;
const VERSION = typeof TDL_VERSION === "string" ? TDL_VERSION : "dev";

export async function runCli(argv: string[]): Promise<CliResult> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) return { stdout: HELP, stderr: "", exitCode: EXIT.usage };
    if (command === "--help" || command === "-h" || command === "help") {
      // `tdl help check` is `tdl check --help`.
      const topic = rest[0];
      return topic !== undefined && Object.hasOwn(COMMAND_HELP, topic)
        ? { stdout: COMMAND_HELP[topic], stderr: "", exitCode: EXIT.clean }
        : { stdout: HELP, stderr: "", exitCode: EXIT.clean };
    }
    if (command === "--version") return { stdout: VERSION + "\n", stderr: "", exitCode: EXIT.clean };
    if (!Object.hasOwn(COMMAND_HELP, command)) throw new UsageError(`unknown command '${shown(command)}'`);
    if (asksForHelp(rest)) return { stdout: COMMAND_HELP[command], stderr: "", exitCode: EXIT.clean };
    return await dispatch(command, rest);
  } catch (e) {
    const usage = Object.hasOwn(COMMAND_HELP, command ?? "") ? `tdl ${command} --help` : "tdl --help";
    if (e instanceof UsageError) return { stdout: "", stderr: `tdl: ${e.message}\nRun '${usage}' for usage.\n`, exitCode: EXIT.usage };
    if (e instanceof InputError) return { stdout: "", stderr: `tdl: ${e.message}\n`, exitCode: EXIT.usage };
    return internalFailure(e);
  }
}

/** A failure no command caught: its message and exit 3, the stack only under TDL_DEBUG=1. */
function internalFailure(e: unknown): CliResult {
  const stack = debugging() ? `${stackOf(e)}\n` : "";
  return {
    stdout: "",
    stderr: `tdl: internal failure: ${describeError(e)} (TDL_DEBUG=1 prints the stack)\n${stack}`,
    exitCode: EXIT.internal,
  };
}

async function dispatch(command: string, rest: string[]): Promise<CliResult> {
  switch (command) {
    case "check":
      return check(rest);
    case "classify":
      return classify(rest);
    case "fix":
      return fix(rest);
    case "stress":
      return await stressCommand(rest);
    case "infer":
      return await inferCommand(rest, (s) => process.stderr.write(s));
    case "codegen":
      return codegenCommand(rest);
    case "emulator": {
      // The emulator is long-running: it writes as it goes instead of returning its output at the end.
      const { exitCode } = await emulatorCommand(
        rest,
        (s) => process.stdout.write(s),
        (s) => process.stderr.write(s),
      );
      return { stdout: "", stderr: "", exitCode };
    }
    default:
      throw new UsageError(`unknown command '${shown(command)}'`);
  }
}

function check(argv: string[]): CliResult {
  const { positionals, options } = parseArgs(argv, ["format", "max-warnings", ...ANALYSIS_OPTIONS], ["test-files", "design-drift"]);
  if (!positionals.length) throw new UsageError("check needs at least one PATH");
  const format = (options.get("format") ?? "text") as string;
  if (format !== "text" && format !== "json" && format !== "sarif")
    throw new UsageError(`--format must be text, json or sarif, not '${format}'`);
  let maxWarnings: number | undefined;
  if (options.has("max-warnings")) {
    maxWarnings = Number(options.get("max-warnings"));
    if (!Number.isSafeInteger(maxWarnings) || maxWarnings < 0) throw new UsageError("--max-warnings needs a whole number");
  }
  const analysis = analysisOptions(options);
  const { output, stderr, exitCode } = runCheck(
    positionals,
    { format, maxWarnings, analysis, designDrift: options.has("design-drift") },
    VERSION,
  );
  return { stdout: output, stderr, exitCode };
}

function classify(argv: string[]): CliResult {
  const { positionals, options } = parseArgs(argv, ["design", "table", "format", ...ANALYSIS_OPTIONS], []);
  if (positionals.length !== 1) throw new UsageError("classify needs one FILTER, quoted: tdl classify \"PartitionKey eq 'a'\"");
  const format = (options.get("format") ?? "text") as string;
  if (format !== "text" && format !== "json") throw new UsageError(`--format must be text or json, not '${format}'`);
  const design = options.get("design");
  const table = options.get("table");
  // `-` reads the filter from stdin: a filter longer than the system's limit on one argument (128 KiB on Linux) still gets classified.
  const filter = positionals[0] === "-" ? readStdin() : positionals[0];
  return runClassify(filter, {
    format,
    design: design as string | undefined,
    table: table as string | undefined,
    analysis: analysisOptions(options),
  });
}

function readStdin(): string {
  try {
    return fs.readFileSync(0, "utf8").replace(/\r?\n$/, "");
  } catch (e) {
    throw new InputError(unreadable("stdin", e));
  }
}

function fix(argv: string[]): CliResult {
  const { positionals, options } = parseArgs(argv, [...ANALYSIS_OPTIONS], []);
  if (!positionals.length) throw new UsageError("fix needs at least one PATH");
  return runFix(positionals, analysisOptions(options));
}

/** Writes a result and sets the exit code; a closed pipe (`tdl check . | head`) ends the run quietly. */
function emit(result: CliResult): void {
  const quietOnClosedPipe = (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(result.exitCode);
  };
  process.stdout.on("error", quietOnClosedPipe);
  process.stderr.on("error", quietOnClosedPipe);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.exitCode;
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).catch(internalFailure).then(emit);
}
