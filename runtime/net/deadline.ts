/**
 * Time bounds for requests (a stress run's, a bulk job's, Locust's waits):
 * every request gets its own timeout on top of the caller's cancellation, and
 * every wait can be cut short. A request that runs out of time fails with
 * `RequestTimeout` (so it is counted and described as a timeout), never with
 * the caller's abort.
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
 * Written without helper promises: it wraps every request of a run.
 */
export function withDeadline<T>(parent: AbortSignal | undefined, ms: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const controller = new AbortController();
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
      return true;
    };
    const onParentAbort = () => {
      if (settle()) {
        controller.abort();
        reject(abortError());
      }
    };
    const timer = setTimeout(
      () => {
        if (settle()) {
          controller.abort();
          reject(new RequestTimeout(ms));
        }
      },
      Math.max(1, ms),
    );
    if (parent?.aborted) return onParentAbort();
    parent?.addEventListener("abort", onParentAbort, { once: true });
    let work: Promise<T>;
    try {
      work = fn(controller.signal);
    } catch (e) {
      if (settle()) reject(e);
      return;
    }
    // Not aborted on success: the SDK would tear down a socket the agent may reuse.
    work.then(
      (v) => {
        if (settle()) resolve(v);
      },
      (e: unknown) => {
        if (settle()) reject(e);
      },
    );
  });
}

function abortError(): Error {
  return Object.assign(new Error("The operation was aborted."), { name: "AbortError" });
}

/** Waits `ms`, or less when `signal` aborts first (resolving either way). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** True when `e` is an abort (ours or the SDK's), not a service or network failure. */
export function isAbort(e: unknown): boolean {
  const err = e as { name?: string; code?: string } | undefined;
  return err?.name === "AbortError" || err?.code === "ABORT_ERR";
}
