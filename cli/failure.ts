/**
 * Internal failures on the command line: a file whose analysis throws is
 * reported as one `internal` diagnostic of that file (exit code 3), never as
 * a stack trace. Stacks are for bug reports: `TDL_DEBUG=1` prints them on
 * stderr.
 */
import { ReportDiagnostic } from "./report";
import { describeError, stackOf } from "@core/errors";

/** Exit codes of the README's "The `tdl` command". */
export const EXIT = { clean: 0, findings: 1, usage: 2, internal: 3 } as const;

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
