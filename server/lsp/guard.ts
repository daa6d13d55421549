/**
 * Fault isolation for the language server: every handler, scheduled
 * analysis and configuration change runs inside a guard, so that no
 * document, request or notification can take the process down. A request's
 * failure is answered with the response error of its kind (core/errors.ts):
 * `usage` (params that break the protocol) as InvalidParams, `input`,
 * `refused` and `unavailable` as RequestFailed with their sentence, and
 * anything else — a bug — as InternalError whose message is the line the
 * log holds, with the stack beside it in the log.
 */
import { ErrorCodes, LSPErrorCodes, ResponseError } from "vscode-languageserver/node";
import { describeError, kindOf, stackOf, UsageError } from "@core/errors";

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

  /** Logs a warning; never throws. */
  warn(message: string): void {
    try {
      this.log.warn(message);
    } catch {
      process.stderr.write(`${message}\n`);
    }
  }

  /**
   * The response error for a request's failure, by its kind; logs it (the
   * stack of a bug, the sentence of the others). A `ResponseError` a
   * handler returns or throws is its own answer.
   */
  responseError(what: string, e: unknown): ResponseError<void> {
    if (e instanceof ResponseError) return e as ResponseError<void>;
    const kind = kindOf(e);
    const message = describeError(e);
    if (kind === "usage") {
      this.warn(`${what}: invalid params: ${message}`);
      return new ResponseError<void>(ErrorCodes.InvalidParams, message);
    }
    if (kind !== "internal") {
      this.warn(`${what}: ${message}`);
      return new ResponseError<void>(LSPErrorCodes.RequestFailed, message);
    }
    this.failed(what, e);
    return new ResponseError<void>(
      ErrorCodes.InternalError,
      `${what} failed: ${message} (the stack is in the Table Design Language Server's log)`,
    );
  }

  /** Wraps a request handler: its answer, or the response error of its failure (`responseError`). */
  request<P extends unknown[], R>(name: string, handler: (...params: P) => R | ResponseError<void>) {
    return (...params: P): R | ResponseError<void> => {
      try {
        return handler(...params);
      } catch (e) {
        return this.responseError(name, e);
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
        if (e instanceof InvalidParams) this.warn(`${name}: invalid params: ${e.message}`);
        else this.failed(name, e);
      }
    };
  }
}
