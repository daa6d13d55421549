/**
 * Fault isolation for the language server: every handler, scheduled
 * analysis and configuration change runs inside a guard, so that no
 * document, request or notification can take the process down. A failure
 * is logged once with its stack and answered with an empty result; params
 * that no client should send are answered with `InvalidParams`.
 */
import { ErrorCodes, ResponseError } from "vscode-languageserver/node";
import { stackOf, UsageError } from "@core/errors";

/** Params that break the protocol's contract (a missing URI, a negative line): answered as InvalidParams. */
export class InvalidParams extends UsageError {}

/** Where the guards write: `connection.console` in the server, a list in tests. */
export interface GuardLog {
  error(message: string): void;
  warn(message: string): void;
}

export class Guard {
  constructor(private readonly log: GuardLog) {}

  /** Logs `what failed` with the stack. */
  failed(what: string, e: unknown): void {
    this.report(`${what} failed`, e);
  }

  /** Logs a message with the error's stack; never throws (logging itself can fail when the connection is gone). */
  report(message: string, e: unknown): void {
    try {
      this.log.error(`${message}: ${stackOf(e)}`);
    } catch {
      process.stderr.write(`${message}: ${stackOf(e)}\n`);
    }
  }

  /**
   * Wraps a request handler: a thrown `InvalidParams` or a `ResponseError`
   * becomes the error reply; any other failure is logged and answered with
   * `fallback` (the handlers are synchronous: the analysis is).
   */
  request<P extends unknown[], R>(name: string, fallback: R, handler: (...params: P) => R | ResponseError<void>) {
    return (...params: P): R | ResponseError<void> => {
      try {
        return handler(...params);
      } catch (e) {
        if (e instanceof ResponseError) return e as ResponseError<void>;
        if (e instanceof InvalidParams) {
          this.log.warn(`${name}: invalid params: ${e.message}`);
          return new ResponseError<void>(ErrorCodes.InvalidParams, e.message);
        }
        this.failed(name, e);
        return fallback;
      }
    };
  }

  /** Wraps a notification handler or a timer callback: failures are logged, never rethrown. */
  run<P extends unknown[]>(name: string, fn: (...params: P) => void | Promise<void>) {
    return (...params: P): void => {
      try {
        const result = fn(...params);
        if (result instanceof Promise) result.catch((e: unknown) => this.failed(name, e));
      } catch (e) {
        if (e instanceof InvalidParams) this.log.warn(`${name}: invalid params: ${e.message}`);
        else this.failed(name, e);
      }
    };
  }
}
