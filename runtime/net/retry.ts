/**
 * The guide's retry policy (the partitioning guide's "Retry policies", the performance checklist's "Timeout and
 * server busy errors"): retry 503 Server Busy, 500 Operation Timed Out and
 * 504 Gateway Timeout with exponential back-off and ±20 % jitter, and a
 * connection failure once, immediately; never 4xx, 501 or 505 — nor a
 * request that got no answer in its time bound (retrying it would stretch
 * the run past its end).
 */
import { sleep } from "./deadline";

export interface BackoffSettings {
  /** z: the default back-off. */
  baseMs: number;
  /** zmin and zmax: the bounds. */
  minMs: number;
  maxMs: number;
  maxRetries: number;
}

/** A stress test's milliseconds (docs/service-facts.md): z = 100 ms, zmin = 50 ms, zmax = 5 s. */
export const STRESS_BACKOFF: BackoffSettings = { baseMs: 100, minMs: 50, maxMs: 5000, maxRetries: 5 };

/** y = Rand(0.8·z, 1.2·z) · (2^x − 1); y = Min(zmin + y, zmax), x the retry number (1, 2, …). */
export function backoffDelay(retry: number, s: BackoffSettings, random: () => number = Math.random): number {
  const z = s.baseMs * (0.8 + 0.4 * random());
  return Math.min(s.minMs + z * (2 ** retry - 1), s.maxMs);
}

export type RetryDecision = "backoff" | "immediately" | "never";

export interface ErrorLike {
  statusCode?: number;
  code?: string;
  name?: string;
  message?: string;
  details?: { errorCode?: string };
  response?: { headers?: { get?(n: string): string | undefined } };
}

/** The service's error code of a failure, or the network error's code. */
export function errorCode(e: ErrorLike): string {
  return (
    e.response?.headers?.get?.("x-ms-error-code") ??
    e.details?.errorCode ??
    /"code"\s*:\s*"(\w+)"/.exec(e.message ?? "")?.[1] ??
    e.code ??
    e.name ??
    "Error"
  );
}

const CONNECTION_FAILURES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_SOCKET",
  "REQUEST_SEND_ERROR",
]);

export function retryDecision(e: ErrorLike): RetryDecision {
  const status = e.statusCode;
  const code = errorCode(e);
  if (status === 503 || status === 504) return "backoff";
  if (status === 500 && code === "OperationTimedOut") return "backoff";
  if (status === undefined && CONNECTION_FAILURES.has(code)) return "immediately";
  return "never";
}

export interface RetryStats {
  retries: number;
  delays: number[];
}

/**
 * Runs `op`, retrying as the policy says. `onRetry` learns of each retry;
 * the last failure is rethrown. Sleeping stops early when `signal` aborts.
 */
export async function withRetries<T>(
  op: () => Promise<T>,
  s: BackoffSettings,
  onRetry: (delayMs: number, e: ErrorLike) => void,
  signal?: AbortSignal,
): Promise<T> {
  let retry = 0;
  let connectionRetried = false;
  for (;;) {
    try {
      return await op();
    } catch (e) {
      const decision = retryDecision(e as ErrorLike);
      if (decision === "never" || signal?.aborted) throw e;
      if (decision === "immediately") {
        if (connectionRetried) throw e;
        connectionRetried = true;
        onRetry(0, e as ErrorLike);
        continue;
      }
      if (++retry > s.maxRetries) throw e;
      const delay = backoffDelay(retry, s);
      onRetry(delay, e as ErrorLike);
      await sleep(delay, signal);
      if (signal?.aborted) throw e;
    }
  }
}

/**
 * Which target a 503 Server Busy answer names: the account ("… is over the
 * account limit", Azure's message for ingress, egress and operations), else
 * the partition's server. Undefined for any other answer.
 */
export function throttleScope(e: ErrorLike): "partition" | "account" | undefined {
  if (e.statusCode !== 503 || errorCode(e) !== "ServerBusy") return undefined;
  return /over the account limit/i.test(e.message ?? "") ? "account" : "partition";
}
