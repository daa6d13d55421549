/**
 * Fault isolation of the analysis (`docs/rules.md`: "An analysis that fails
 * inside one rule reports `internal`… every other rule still runs"). A rule
 * that throws loses its own findings on that table, nothing else: the throw
 * becomes one `internal` finding on the table's name (at offset 0 for the
 * file's rules) and a failure with its stack, for the server's log.
 */
import { describeError, stackOf } from "../errors";
import { Finding } from "../findings";
import { said } from "../rules/rule";
import { INTERNAL } from "./records";

/** A rule (or analysis step) that threw: what the LSP and CLI log. */
export interface RuleFailure {
  /** The rule's code, or the step: `parser`, `model`, `analyzer`. */
  rule: string;
  /** The table it was checking (absent for file-wide rules and steps). */
  table?: string;
  stack: string;
}

/** A caught throw, before it becomes a finding and a failure. */
export interface Caught {
  rule: string;
  error: unknown;
}

/** The message of anything thrown, one bounded line, after the error's name (`TypeError: …`): a bug is told by its kind. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${describeError(error)}` : describeError(error);
}

/** Runs `fn`; a throw is added to `caught` under `rule` instead of escaping. Returns whether `fn` completed. */
export function attempt(caught: Caught[], rule: string, fn: () => void): boolean {
  try {
    fn();
    return true;
  } catch (error) {
    caught.push({ rule, error });
    return false;
  }
}

/**
 * The `internal` finding, the one shape every failure of the analysis takes
 * for the user: what failed and the error's message, at `start`–`end`, what
 * the user still gets, and that it is a bug whose stack is in the log.
 */
export function internalFinding(failed: string, error: unknown, start: number, end: number, consequence: string): Finding {
  return {
    code: "internal",
    severity: "error",
    start,
    end,
    ...said(INTERNAL, "failed", { failed, error: errorMessage(error), consequence }),
  };
}

/**
 * One `internal` finding for every rule that failed at one spot: a bug that
 * breaks shared facts fails several rules at once, and one message naming
 * them all reads better than a stack of identical ones.
 */
export function rulesFailed(caught: readonly Caught[], start: number, end: number, on?: string): Finding {
  const rules = [...new Set(caught.map((c) => c.rule))];
  const who = rules.length === 1 ? `rule ${rules[0]}` : `rules ${rules.slice(0, -1).join(", ")} and ${rules[rules.length - 1]}`;
  return internalFinding(`${who} failed${on ? ` on ${on}` : ""}`, caught[0].error, start, end, "the other rules ran");
}

/**
 * The one diagnostic a document gets when its analysis fails as a whole:
 * on its first line (at most 200 characters of it), naming the cause, so
 * that the user sees why the other diagnostics are missing.
 */
export function analysisFailed(what: string, error: unknown, text: string): Finding {
  const firstLine = text.search(/[\r\n]/);
  const end = Math.min(firstLine < 0 ? text.length : firstLine, 200);
  return internalFinding(`${what} failed`, error, 0, end, "no other diagnostics are shown for this document until it changes");
}

/** The failures of `caught`, as the analysis result exposes them. */
export function failuresOf(caught: readonly Caught[], table?: string): RuleFailure[] {
  return caught.map((c) =>
    table === undefined ? { rule: c.rule, stack: stackOf(c.error) } : { rule: c.rule, table, stack: stackOf(c.error) },
  );
}
