/**
 * The language client's error handler: VS Code's restart policy (restart
 * after a crash, give up after five crashes in three minutes) is kept, but
 * every error and every restart is written to the "Table Design" output,
 * and giving up says plainly that diagnostics are no longer updated and how
 * to get them back, instead of leaving stale or missing diagnostics
 * unexplained. Transport errors never shut the client down by themselves:
 * the close that follows a dead connection decides.
 */
import { CloseAction, CloseHandlerResult, ErrorAction, ErrorHandler, ErrorHandlerResult, Message } from "vscode-languageclient/node";

/** Where the handler writes: the extension's output channel. */
export interface Log {
  appendLine(line: string): void;
}

/**
 * @param log the "Table Design" output channel
 * @param policy VS Code's default handler (`client.createDefaultErrorHandler()`), asked lazily
 *   because the client that makes it is created with these options
 */
export function serverErrorHandler(log: Log, policy: () => ErrorHandler): ErrorHandler {
  let restarts = 0;
  let fallback: ErrorHandler | undefined;
  const stamp = () => new Date().toISOString();
  return {
    error(error: Error, message: Message | undefined, count: number | undefined): ErrorHandlerResult {
      const about = message && "method" in message ? ` (${String((message as { method?: unknown }).method)})` : "";
      log.appendLine(
        `[${stamp()}] language server connection error${about}: ${error?.message ?? String(error)}${count ? ` — ${count} in a row` : ""}`,
      );
      return { action: ErrorAction.Continue, handled: true };
    },
    async closed(): Promise<CloseHandlerResult> {
      fallback ??= policy();
      const decision = await fallback.closed();
      if (decision.action === CloseAction.Restart) {
        restarts++;
        log.appendLine(
          `[${stamp()}] the language server stopped unexpectedly; restarting it (restart ${restarts}). Diagnostics of open designs come back once it runs.`,
        );
        return { action: CloseAction.Restart, handled: true };
      }
      const message =
        "The Table Design language server stopped 5 times within 3 minutes and was not restarted: diagnostics of .tdl and TypeScript files are no longer updated. " +
        "The 'Table Design' and 'Table Design Language Server' outputs show why; run 'Developer: Reload Window' to start it again.";
      log.appendLine(`[${stamp()}] ${message}`);
      return { action: CloseAction.DoNotRestart, message, handled: false };
    },
  };
}
