/**
 * A phase's time bounds, made once for each phase by the engine's chain of
 * phases (engine.ts) and handed down: the run's cancel (or a narrower one
 * the phase may cut short) and one request's bound. Every request of a
 * phase goes through `request`, so a phase meets the deadline helpers
 * (deadline.ts) in this one place instead of at each of its requests.
 */
import { linked, withDeadline } from "../net/deadline";

/** One phase's bounds. */
export interface PhaseBound {
  /** Aborts when the run is cancelled (or, for a narrowed bound, when the phase is cut short). */
  readonly signal?: AbortSignal;
  readonly requestTimeoutMs: number;
  /** Sends one request within the bound: a `RequestTimeout` after `requestTimeoutMs`, an abort as soon as `signal` aborts. */
  request<T>(send: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/** A bound a phase may end early by itself, without cancelling the run. */
export interface NarrowBound extends PhaseBound {
  readonly signal: AbortSignal;
  /** Ends the phase: its requests in flight abort, the run's signal is untouched. */
  cut(): void;
  /** Ends it and unhooks it from the run's signal (a long run must not pile listeners on it). */
  dispose(): void;
}

/** The bounds of a phase of the run cancelled by `signal`. */
export function phaseBound(signal: AbortSignal | undefined, requestTimeoutMs: number): PhaseBound {
  return { signal, requestTimeoutMs, request: (send) => withDeadline(signal, requestTimeoutMs, send) };
}

/**
 * A narrower bound inside `bound`: it also ends on `cut()` and, when
 * `withinMs` is given, that long from now. One listener on the run's
 * signal, however many requests are in flight.
 */
export function narrowed(bound: PhaseBound, withinMs?: number): NarrowBound {
  const child = linked(bound.signal);
  const timer = withinMs === undefined ? undefined : setTimeout(() => child.abort(), withinMs);
  return {
    signal: child.signal,
    requestTimeoutMs: bound.requestTimeoutMs,
    request: (send) => withDeadline(child.signal, bound.requestTimeoutMs, send),
    cut: () => child.abort(),
    dispose: () => {
      clearTimeout(timer);
      child.abort();
      child.dispose();
    },
  };
}
