/**
 * `tdl`: the command line over the same analysis as the language server.
 * The subcommands are declared in cli/commands/ (one module each, listed in
 * its index.ts); this entry point finds the one asked for, reads its
 * arguments against its declaration, runs it, and maps whatever it throws
 * once (failure.ts). Exit codes follow the README's "The `tdl` command":
 * 0 clean, 1 findings or a failed run, 2 bad usage or unreadable input,
 * 3 internal failure. No stack trace reaches the user unless TDL_DEBUG=1
 * asks for it.
 */
import { UsageError } from "@core/errors";
import { asksForHelp, parseCommand, shown } from "./args";
import { COMMANDS, commandNamed } from "./commands";
import { commandHelp, mainHelp } from "./help";
import { EXIT, failureResult } from "./failure";
import { finish, processIo, type CliResult, type Io } from "./output";
import { VERSION } from "./version";

const ok = (stdout: string): CliResult => ({ stdout, stderr: "", exitCode: EXIT.clean });

/** Runs `tdl` on its arguments; long-running commands write through `io` as they go, the rest comes back in the result. */
export async function runCli(argv: readonly string[], io: Io = processIo): Promise<CliResult> {
  const [name, ...rest] = argv;
  const cmd = name === undefined ? undefined : commandNamed(name);
  try {
    if (name === undefined) return { ...ok(mainHelp(COMMANDS)), exitCode: EXIT.usage };
    if (name === "--help" || name === "-h" || name === "help") {
      // `tdl help check` is `tdl check --help`.
      const topic = rest[0] === undefined ? undefined : commandNamed(rest[0]);
      return ok(topic ? commandHelp(topic) : mainHelp(COMMANDS));
    }
    if (name === "--version") return ok(VERSION + "\n");
    if (!cmd) throw new UsageError(`unknown command '${shown(name)}'`);
    if (asksForHelp(rest)) return ok(commandHelp(cmd));
    return await cmd.run(parseCommand(cmd, rest), io);
  } catch (e) {
    return failureResult(e, cmd?.name);
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2))
    .catch((e: unknown) => failureResult(e))
    .then((result) => {
      // Output that stdout could not take (a full disk) is never a silent success.
      process.exitCode = finish(result) === undefined ? result.exitCode : Math.max(result.exitCode, EXIT.usage);
    });
}
