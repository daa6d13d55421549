/**
 * How a failure is shown, shared by the language server and the CLI: one
 * bounded line for users (a diagnostic, a message on stderr), the bounded
 * stack for logs and bug reports. An error whose message quotes a megabyte
 * of the user's input comes back short either way.
 */

/** Longest message carried into a diagnostic or a reply; the full text goes to the log. */
const MAX_MESSAGE = 300;
/** Longest stack written to a log. */
const MAX_STACK = 8000;

/** The first line of an error's message, bounded: what a user reads. */
export function describeError(e: unknown): string {
  const raw = e instanceof Error ? e.message : String(e);
  const line = raw.split("\n", 1)[0] || (e instanceof Error ? e.name : "unknown error");
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
}

/** The stack of an error, or its text when it has none (a thrown string), bounded. */
export function stackOf(e: unknown): string {
  const s = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
  return s.length > MAX_STACK ? `${s.slice(0, MAX_STACK)}… (${s.length - MAX_STACK} more characters)` : s;
}
