/**
 * Time bounds for a stress run: every request gets its own timeout on top of
 * the caller's cancellation, and every wait can be cut short. A request that
 * runs out of time fails with `RequestTimeout` (so it is counted and
 * described as a timeout), never with the caller's abort.
 */
import { setMaxListeners } from "node:events";

/** A request that got no answer within its time bound. */
export class RequestTimeout extends Error {
  override readonly name = "TimeoutError";
  readonly code = "RequestTimeout";

  constructor(readonly timeoutMs: number) {
    super(`no answer within ${(timeoutMs / 1000).toFixed(1)} s (request timed out)`);
  }
}

/** A controller that also aborts when `parent` does; `dispose` unhooks it. */
export interface Linked {
  readonly signal: AbortSignal;
  abort(): void;
  dispose(): void;
}

/**
 * A child of `parent` (its own abort does not touch the parent). Unhooked
 * on dispose, so a long run does not pile listeners on the parent.
 */
export function linked(parent?: AbortSignal): Linked {
  const controller = new AbortController();
  // Each request in flight listens on its run's signal: as many listeners as the concurrency, by design.
  setMaxListeners(0, controller.signal);
  const onAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    abort: () => controller.abort(),
    dispose: () => parent?.removeEventListener("abort", onAbort),
  };
}

/**
 * Runs `fn` with a signal that aborts when `parent` aborts or after `ms`.
 * Our own timer firing becomes a `RequestTimeout`; the parent's abort an
 * `AbortError`. Either settles at once, even if `fn` does not react to its
 * signal (the SDK does not while a response body is stalled mid-way).
 */
export function withDeadline<T>(parent: AbortSignal | undefined, ms: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const child = linked(parent);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { child.abort(); reject(new RequestTimeout(ms)); }, Math.max(1, ms));
    child.signal.addEventListener("abort", () => reject(parent?.aborted ? abortError() : new RequestTimeout(ms)), { once: true });
  });
  let work: Promise<T>;
  try {
    work = fn(child.signal);
  } catch (e) {
    work = Promise.reject(e);
  }
  // The loser of the race must not become an unhandled rejection.
  work.catch(() => undefined);
  bound.catch(() => undefined);
  return Promise.race([work, bound]).finally(() => {
    // Not aborted on success: the SDK would tear down a socket the agent may reuse.
    clearTimeout(timer);
    child.dispose();
  });
}

function abortError(): Error {
  return Object.assign(new Error("The operation was aborted."), { name: "AbortError" });
}

/** Waits `ms`, or less when `signal` aborts first (resolving either way). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { clearTimeout(t); signal?.removeEventListener("abort", done); resolve(); };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** True when `e` is an abort (ours or the SDK's), not a service or network failure. */
export function isAbort(e: unknown): boolean {
  const err = e as { name?: string; code?: string } | undefined;
  return err?.name === "AbortError" || err?.code === "ABORT_ERR";
}
