/**
 * The one error vocabulary. Every failure the product expects is one of five
 * kinds, and each front end maps the kind once: the CLI to its exit code
 * (cli/failure.ts), VS Code to a notification (the one wrapper of its commands, to come),
 * the language server to a response error (server/lsp/guard.ts), the pages to
 * their error line (client/webview-host/host.ts). Domain errors (an account's
 * answer, a stress run that failed) extend one of these, so no front end needs
 * an `instanceof` ladder. Anything else is `internal`: a bug, shown with its
 * bounded stack in the log.
 *
 * Also how a failure is shown: one bounded line for users (a diagnostic, a
 * message on stderr), the bounded stack for logs and bug reports. An error
 * whose message quotes a megabyte of the user's input comes back short
 * either way.
 */

/** What went wrong, as a front end needs to know it. */
export type ErrorKind =
  /** The caller asked wrongly: an unknown option, a missing argument, a confirmation not given, a request no client sends. */
  | "usage"
  /** The input cannot be used: a file that does not parse, a connection string that is not one. */
  | "input"
  /** Someone said no: the service (403, 409, 412), the user who cancelled, a design with errors. */
  | "refused"
  /** Something needed is not there: an endpoint that does not answer, a stall, a tool not installed. */
  | "unavailable"
  /** A bug: everything not expected. */
  | "internal";

/** A failure the product expects, with its kind; `detail` is what a "Details" button or `--verbose` shows. */
export class TdlError extends Error {
  constructor(
    readonly kind: Exclude<ErrorKind, "internal">,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** The caller asked wrongly (exit 2; an LSP InvalidParams). */
export class UsageError extends TdlError {
  constructor(message: string, detail?: string) {
    super("usage", message, detail);
  }
}

/** The input cannot be used (exit 2). */
export class InputError extends TdlError {
  constructor(message: string, detail?: string) {
    super("input", message, detail);
  }
}

/** Someone said no (exit 1). */
export class RefusedError extends TdlError {
  constructor(message: string, detail?: string) {
    super("refused", message, detail);
  }
}

/** Something needed did not answer or is missing (exit 1). */
export class UnavailableError extends TdlError {
  constructor(message: string, detail?: string) {
    super("unavailable", message, detail);
  }
}

/** The kind of any thrown value: a TdlError's own, an abort is `refused` by the user, the rest `internal`. */
export function kindOf(e: unknown): ErrorKind {
  if (e instanceof TdlError) return e.kind;
  // An AbortController's abort (a DOMException named AbortError): the user said stop.
  if ((e as { name?: unknown } | null)?.name === "AbortError") return "refused";
  return "internal";
}

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
