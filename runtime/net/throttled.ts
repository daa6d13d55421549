/**
 * The one path every request of a bulk job takes — probes, pages, batches,
 * deletes, checks: it waits for the job's pace (and a worker's own), sends,
 * and on a throttling answer tells the pace to slow down and waits the
 * guide's back-off before trying again; a request that goes through lets
 * the pace recover. What a request cost (entities) is spent on the paces, so
 * the job never asks for more than its share of the targets, and the
 * service's answers decide how far below that it goes.
 */
import { BackoffSettings, ErrorLike, retryDecision, withRetries } from "./retry";
import { AdaptivePace, Pace, PaceState } from "./pace";
import { formatCount, plural } from "@core/text/words";

/** A bulk job's back-off (service-facts.md's formula): z = 1 s, zmin = 0.5 s, zmax = 30 s, 8 retries. */
export const BULK_BACKOFF: BackoffSettings = { baseMs: 1000, minMs: 500, maxMs: 30_000, maxRetries: 8 };

/** What a retry waits for, and why (the status and code of the answer). */
export interface RetryNotice {
  delayMs: number;
  status?: number;
  code: string;
  pace: PaceState;
}

export interface ThrottledOptions {
  /** The job's pace: adapts to the service's answers. */
  pace: AdaptivePace;
  backoff?: BackoffSettings;
  signal?: AbortSignal;
  onRetry?: (n: RetryNotice) => void;
}

/** How much a request costs the paces (entities): known before it is sent, or from its answer. */
export interface Cost<T> {
  /** Spent before the request (a batch's entities, a page's expected entities); default 1. */
  before?: number;
  /** What it cost in all, from its answer (a page's entities): the difference from `before` is spent after it. */
  after?: (result: T) => number;
  /** A worker's own pace (a partition's target), besides the job's. */
  own?: Pace;
}

/** The job's request path (module comment). */
export class ThrottledPath {
  readonly pace: AdaptivePace;
  private readonly backoff: BackoffSettings;
  /** Retries waited in all. */
  retries = 0;

  constructor(private readonly o: ThrottledOptions) {
    this.pace = o.pace;
    this.backoff = o.backoff ?? BULK_BACKOFF;
  }

  get signal(): AbortSignal | undefined {
    return this.o.signal;
  }

  /** Sends one request through the path; rethrows what the service refused (or the last throttling answer). */
  async send<T>(op: () => Promise<T>, cost: Cost<T> = {}): Promise<T> {
    const signal = this.o.signal;
    const before = cost.before ?? 1;
    const result = await withRetries(
      async () => {
        await this.pace.ready(signal, before);
        await cost.own?.ready(signal, before);
        if (signal?.aborted) throw new DOMException("cancelled", "AbortError");
        this.pace.spend(before);
        cost.own?.spend(before);
        try {
          const r = await op();
          this.pace.succeeded();
          return r;
        } catch (e) {
          const err = asErrorLike(e) as ErrorLike;
          if (retryDecision(err) === "backoff") this.pace.throttled(performance.now(), before);
          throw err;
        }
      },
      this.backoff,
      (delayMs, e) => {
        this.retries++;
        this.o.onRetry?.({ delayMs, status: e.statusCode, code: codeOf(e), pace: this.pace.state() });
      },
      signal,
    );
    // What the answer says it cost, less what was spent before (a page's expected entities are handed back when it holds fewer).
    const after = cost.after ? cost.after(result) - before : 0;
    if (after) {
      this.pace.spend(after);
      cost.own?.spend(after);
    }
    return result;
  }

  state(): PaceState {
    return this.pace.state();
  }
}

/** The session's errors carry the status as `status`; the retry policy reads `statusCode`. */
function asErrorLike(e: unknown): unknown {
  if (e && typeof e === "object" && "status" in e && !("statusCode" in e) && typeof (e as { status: unknown }).status === "number")
    return Object.assign(e, { statusCode: (e as { status: number }).status });
  return e;
}

function codeOf(e: ErrorLike): string {
  return e.details?.errorCode ?? e.code ?? e.name ?? "Error";
}

/** A job's request path at `ratePerSecond` (Infinity: measured as it goes). */
export function throttledPath(ratePerSecond: number, o: Omit<ThrottledOptions, "pace"> = {}): ThrottledPath {
  return new ThrottledPath({ ...o, pace: new AdaptivePace(ratePerSecond) });
}

/** A sentence for a progress line when the service throttles the job, or "" when it does not. */
export function throttleNote(s: PaceState): string {
  if (!s.throttled) return "";
  const rate = Number.isFinite(s.rate) ? `${formatCount(Math.round(s.rate))} entities/s` : "full speed";
  const answers = plural(s.throttles, "answer");
  return ` — throttled by the service (${answers} so far): pacing at ${rate}`;
}
