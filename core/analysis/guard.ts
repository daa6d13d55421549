/**
 * Fault isolation of the analysis (`docs/rules.md`: "An analysis that fails
 * inside one rule reports `internal`… every other rule still runs"). A rule
 * that throws loses its own findings on that table, nothing else: the throw
 * becomes one `internal` finding on the table's name (at offset 0 for the
 * file's rules) and a failure with its stack, for the server's log.
 */
import { clip } from "../tdl/clip";
import { Finding } from "../findings";

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

/** The message of anything thrown, one line, kept short. */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return clip(text, 200).replace(/[\r\n]+/g, " ");
}

/** The stack of anything thrown (its message when it has none). */
export function stackOf(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
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
 * One `internal` finding for everything that failed at one spot: a bug that
 * breaks shared facts fails several rules at once, and one message naming
 * them all reads better than a stack of identical ones.
 */
export function internalFinding(caught: readonly Caught[], start: number, end: number, on?: string): Finding {
  const rules = [...new Set(caught.map((c) => c.rule))];
  const who = rules.length === 1 ? `rule ${rules[0]}` : `rules ${rules.slice(0, -1).join(", ")} and ${rules[rules.length - 1]}`;
  return {
    code: "internal",
    severity: "error",
    start,
    end,
    message:
      `${who} failed${on ? ` on ${on}` : ""}: ${errorMessage(caught[0].error)}; the other rules ran. ` +
      "This is a bug in Table Design Assistant; the log has the details.",
  };
}

/** The failures of `caught`, as the analysis result exposes them. */
export function failuresOf(caught: readonly Caught[], table?: string): RuleFailure[] {
  return caught.map((c) =>
    table === undefined ? { rule: c.rule, stack: stackOf(c.error) } : { rule: c.rule, table, stack: stackOf(c.error) },
  );
}
