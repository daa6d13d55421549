/**
 * Time bounds for a stress run: every request gets its own timeout on top of
 * the caller's cancellation, and every wait can be cut short. A request that
 * runs out of time fails with `RequestTimeout` (so it is counted and
 * described as a timeout), never with the caller's abort.
 */

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
 * Our own timer firing becomes a `RequestTimeout`; the parent's abort is
 * rethrown as the SDK raised it.
 */
export async function withDeadline<T>(parent: AbortSignal | undefined, ms: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const child = linked(parent);
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; child.abort(); }, Math.max(1, ms));
  try {
    return await fn(child.signal);
  } catch (e) {
    if (timedOut && !parent?.aborted) throw new RequestTimeout(ms);
    throw e;
  } finally {
    clearTimeout(timer);
    child.dispose();
  }
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
