/**
 * Failures on the command line, mapped once. A thrown value becomes an exit
 * code and a message by its kind (core/errors.ts): usage and input 2, refused
 * and unavailable 1, anything else an internal failure, 3. A file whose
 * analysis throws is reported as one `internal` diagnostic of that file
 * (exit code 3), never as a stack trace. Stacks are for bug reports:
 * `TDL_DEBUG=1` prints them on stderr.
 */
import type { ReportDiagnostic } from "./report";
import type { CliResult } from "./output";
import { describeError, ErrorKind, kindOf, stackOf, TdlError } from "@core/errors";

/** Exit codes of the README's "The `tdl` command": `findings` and `failed` are the same 1, named for the command that says it. */
export const EXIT = { clean: 0, findings: 1, failed: 1, usage: 2, internal: 3 } as const;

/** The exit code of each kind of failure. */
const EXIT_OF: Record<ErrorKind, number> = {
  usage: EXIT.usage,
  input: EXIT.usage,
  refused: EXIT.failed,
  unavailable: EXIT.failed,
  internal: EXIT.internal,
};

/**
 * What `tdl` prints and exits with when `e` is thrown: the message (a usage
 * error adds where the usage is), or for an internal failure its first line
 * and, under TDL_DEBUG=1, its stack. `command` names the subcommand whose
 * `--help` a usage error points to.
 */
export function failureResult(e: unknown, command?: string): CliResult {
  const kind = kindOf(e);
  if (kind === "internal") {
    const stack = debugging() ? `${stackOf(e)}\n` : "";
    return {
      stdout: "",
      stderr: `tdl: internal failure: ${describeError(e)} (TDL_DEBUG=1 prints the stack)\n${stack}`,
      exitCode: EXIT.internal,
    };
  }
  const message = e instanceof Error ? e.message : describeError(e);
  const usage = kind === "usage" ? `Run '${command ? `tdl ${command} --help` : "tdl --help"}' for usage.\n` : "";
  return { stdout: "", stderr: `tdl: ${message}\n${usage}`, exitCode: EXIT_OF[kind] };
}

/**
 * `e` with `context` before its message (`the connection string in VAR: …`),
 * of the same kind; a failure that is not one the product expects is left as
 * it is, to be reported as internal.
 */
export function inContext(context: string, e: unknown): unknown {
  if (!(e instanceof TdlError)) return e;
  const wrapped = new TdlError(e.kind, `${context}: ${e.message}`, e.detail);
  wrapped.stack = e.stack;
  return wrapped;
}

/** Whether stacks go to stderr (`TDL_DEBUG=1`). */
export function debugging(): boolean {
  return !!process.env.TDL_DEBUG && process.env.TDL_DEBUG !== "0";
}

/** The diagnostic of a file whose analysis failed: on its first character, naming the cause. */
export function internalDiagnostic(what: string, e: unknown): ReportDiagnostic {
  return {
    code: "internal",
    severity: "error",
    fixes: [],
    message: `${what} failed: ${describeError(e)}; this file was not analysed, the other files were (TDL_DEBUG=1 prints the stack)`,
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  };
}

/** Collects the stacks of one run's failures for stderr; empty unless debugging. */
export class FailureLog {
  private readonly lines: string[] = [];

  add(where: string, e: unknown): void {
    if (debugging()) this.lines.push(`tdl: ${where}: ${stackOf(e)}`);
  }

  /** A rule failure the analysis caught itself (the core's `failures`). */
  addRule(where: string, f: { rule: string; table?: string; stack: string }): void {
    if (debugging()) this.lines.push(`tdl: ${where}: rule ${f.rule}${f.table ? ` on table ${f.table}` : ""}: ${f.stack}`);
  }

  text(): string {
    return this.lines.map((l) => l + "\n").join("");
  }
}
