/**
 * How a bulk job stays a good citizen of the account: it never asks for more
 * than a share of the service's targets (the account's 20,000 entities/s,
 * a partition's 2,000), and it backs off as the guide says when the service
 * answers 503 Server Busy or 500 Operation Timed Out anyway.
 */
import { ServiceProfile } from "@core";
import { AccountError } from "../account/errors";
import { sleep } from "../net/deadline";
import { BackoffSettings, withRetries } from "../net/retry";

/** A bulk job's back-off (service-facts.md's formula): z = 1 s, zmin = 0.5 s, zmax = 30 s, 8 retries. */
export const BULK_BACKOFF: BackoffSettings = { baseMs: 1000, minMs: 500, maxMs: 30_000, maxRetries: 8 };

/**
 * A token bucket of entities per second that may go into debt: a page's
 * entities are known only once it is read, so they are spent after the fact
 * and the next call waits the debt off.
 */
export class Pace {
  private tokens: number;
  private last = performance.now();

  constructor(readonly perSecond: number) {
    this.tokens = perSecond;
  }

  spend(entities: number): void {
    this.refill();
    this.tokens -= entities;
  }

  /** Waits until the bucket is out of debt (returns at once when cancelled). */
  async ready(signal?: AbortSignal): Promise<void> {
    this.refill();
    if (this.tokens >= 0 || !Number.isFinite(this.perSecond)) return;
    await sleep((-this.tokens / this.perSecond) * 1000, signal);
    this.refill();
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }
}

/**
 * The paces of a job at `share` of the profile's targets: one for the whole
 * job, one per worker (a worker reads or writes one partition at a time).
 * A `rate` (entities/s) replaces the account's share for the whole job;
 * Infinity paces nothing (the emulator, which has no targets), and the
 * back-off on throttling still holds.
 */
export function pacesFor(profile: ServiceProfile, share: number, rate?: number): { job: Pace; worker: () => Pace } {
  if (rate === Infinity) return { job: new Pace(Infinity), worker: () => new Pace(Infinity) };
  const account = rate ?? (profile.accountTargetEntitiesPerSecond ?? Infinity) * share;
  const partition = profile.partitionTarget?.unit === "entities/s" ? profile.partitionTarget.value * share : Infinity;
  return { job: new Pace(account), worker: () => new Pace(partition) };
}

/** Runs one request of a job with the guide's back-off on throttling; `onRetry` hears of each wait. */
export function throttleAware<T>(op: () => Promise<T>, signal: AbortSignal | undefined, onRetry?: (delayMs: number) => void): Promise<T> {
  return withRetries(
    async () => {
      try {
        return await op();
      } catch (e) {
        // The session's errors carry the status as `status`; the policy reads `statusCode`.
        if (e instanceof AccountError) throw Object.assign(e, { statusCode: e.status });
        throw e;
      }
    },
    BULK_BACKOFF,
    (delay) => onRetry?.(delay),
    signal,
  );
}
