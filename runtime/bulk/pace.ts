/**
 * How a bulk job stays a good citizen of the account: it never asks for more
 * than a share of the service's targets (the account's 20,000 entities/s,
 * a partition's 2,000), every request goes through one throttle-aware path
 * (runtime/net/throttled.ts) that backs off as the guide says and slows the
 * whole job down when the service answers 503 Server Busy, 500 Operation
 * Timed Out or 504 anyway, and recovers slowly.
 */
import { ServiceProfile } from "@core";
import { Pace } from "../net/pace";
import { RetryNotice, throttledPath, ThrottledPath } from "../net/throttled";

export { BULK_BACKOFF } from "../net/throttled";

/**
 * A job's request path at `share` of the profile's account target, and a
 * pace per worker at that share of a partition's target (a worker reads or
 * writes one partition at a time). A `rate` (entities/s) replaces the
 * account's share for the whole job; Infinity paces nothing until the
 * service throttles (the emulator, which has no targets of its own to
 * publish).
 */
export function jobPaths(
  profile: ServiceProfile,
  o: { share?: number; rate?: number; signal?: AbortSignal; onRetry?: (n: RetryNotice) => void },
): { path: ThrottledPath; worker: () => Pace } {
  const share = o.share ?? 0.8;
  if (o.rate === Infinity) return { path: throttledPath(Infinity, o), worker: () => new Pace(Infinity) };
  const account = o.rate ?? (profile.accountTargetEntitiesPerSecond ?? Infinity) * share;
  const partition = profile.partitionTarget?.unit === "entities/s" ? profile.partitionTarget.value * share : Infinity;
  return { path: throttledPath(account, o), worker: () => new Pace(partition) };
}
