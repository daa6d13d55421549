/**
 * How a VS Code command's failure reaches the user: mapped once, by the
 * error's kind (core/errors.ts), never by VS Code's generic "command
 * failed" toast. Usage, input and refused failures are a warning with
 * their sentence; unavailable ones an error with their sentence; a bug an
 * error that points to the output channel, where its bounded stack is
 * logged; a cancellation says nothing. Free of `vscode` (the notifier is
 * injected), so a test runs every case.
 */
import { describeError, kindOf, stackOf, TdlError } from "@core/errors";

/** Where a failure is shown and logged: VS Code's notifications and the output channel, or a test's record. */
export interface Notifier {
  warning(message: string, ...actions: string[]): PromiseLike<string | undefined>;
  error(message: string, ...actions: string[]): PromiseLike<string | undefined>;
  /** Appends a line to the output channel. */
  log(line: string): void;
  /** Brings the output channel to the front. */
  showLog(): void;
}

/** The button that opens the output channel. */
export const SHOW_OUTPUT = "Show Output";

/** A cancellation: the user's own doing, said by nobody (an AbortSignal's error, VS Code's CancellationError). */
export function isCancellation(e: unknown): boolean {
  return e instanceof Error && (e.name === "AbortError" || e.name === "Canceled");
}

/** The command's title as a message names it: "Connect to an Account" (no trailing ellipsis). */
function shortTitle(title: string): string {
  return title.replace(/…$/, "");
}

/** `the table does not exist` → `The table does not exist.` */
function sentence(text: string): string {
  const t = text.trim();
  const first = t ? t[0].toUpperCase() + t.slice(1) : t;
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}

/**
 * Shows and logs the failure of the command titled `title`. Returns at once:
 * a notification stays until the user closes it, and nothing waits for that
 * (a button pressed later is handled then).
 */
export function reportFailure(title: string, e: unknown, notify: Notifier): void {
  if (isCancellation(e)) return;
  const kind = kindOf(e);
  const message = sentence(describeError(e));
  const what = shortTitle(title);
  const onChoice = (choice: string | undefined) => {
    if (choice === SHOW_OUTPUT) notify.showLog();
  };
  if (kind === "internal") {
    notify.log(`${what} failed: ${stackOf(e)}`);
    notify
      .error(`${what} failed: ${message} This is a bug: the details are in the Table Design output channel.`, SHOW_OUTPUT)
      .then(onChoice);
    return;
  }
  // What the service or the tool said beyond the sentence: in the output channel, a button away.
  const detail = e instanceof TdlError ? e.detail : undefined;
  notify.log(`${what}: ${message}${detail ? `\n${detail}` : ""}`);
  const actions = detail ? [SHOW_OUTPUT] : [];
  (kind === "unavailable" ? notify.error(`${what}: ${message}`, ...actions) : notify.warning(`${what}: ${message}`, ...actions)).then(
    onChoice,
  );
}

/**
 * Runs a command: its result, or undefined once its failure was reported.
 * Never rejects, so VS Code never shows its own "command failed" toast.
 */
export async function runReported<R>(title: string, run: () => R | PromiseLike<R>, notify: Notifier): Promise<R | undefined> {
  try {
    return await run();
  } catch (e) {
    reportFailure(title, e, notify);
    return undefined;
  }
}
