/**
 * How fast a job sends: a token bucket of entities per second whose rate
 * adapts to what the service answers. A throttling answer (503 Server Busy,
 * 500 Operation Timed Out, 504) halves the rate — at most once a second, so
 * the many requests in flight when the service starts refusing count as one
 * signal — and every second without one gives back a twentieth of the rate
 * the cut left: slow down at once, recover slowly (the guide's advice, and
 * the shape TCP's congestion control has). An unbounded pace (the emulator,
 * `--rate max`) is measured as it goes, so its first cut halves what it
 * actually sent.
 */
import { sleep } from "./deadline";

/** The slowest a throttled pace goes (entities/s): a job always moves. */
export const MIN_RATE = 50;
/** The share of the rate a throttling answer leaves (0.7, as CUBIC cuts a window: gentler than halving, for a service that refuses a burst early). */
const CUT = 0.7;
/** Between two cuts at least (ms): the requests in flight when the service began refusing are one signal. */
const CUT_EVERY_MS = 1000;
/** The share of the throttled rate (or of the ceiling) given back per second after a cut. */
const RECOVER_PER_SECOND = 0.05;
/** What recovery gives back per second at least (entities/s). */
const MIN_STEP = 50;
/** The window that measures what was actually sent (ms). */
const WINDOW_MS = 5000;
const BIN_MS = 100;

/**
 * A token bucket of entities per second that may go into debt: a page's
 * entities are known only once it is read, so they are spent after the fact
 * and the next call waits the debt off.
 */
export class Pace {
  private tokens: number;
  private last = performance.now();

  constructor(protected perSecondNow: number) {
    this.tokens = perSecondNow;
  }

  /** Entities per second the pace lets through now (Infinity: no pace). */
  get perSecond(): number {
    return this.perSecondNow;
  }

  spend(entities: number): void {
    this.refill();
    this.tokens -= entities;
  }

  /**
   * Waits until the bucket holds `cost` (at most a second's worth: a request
   * costlier than that waits for a full bucket), so requests sent at once
   * never burst past a second of the rate; returns at once when cancelled.
   */
  async ready(signal?: AbortSignal, cost = 0): Promise<void> {
    for (;;) {
      this.refill();
      if (!Number.isFinite(this.perSecondNow) || signal?.aborted) return;
      const want = Math.min(cost, this.perSecondNow);
      if (this.tokens >= want) return;
      // The rate may change while waiting (a cut): wait in short steps and look again.
      await sleep(Math.min(((want - this.tokens) / this.perSecondNow) * 1000, 250), signal);
    }
  }

  /** A new rate; a lower one also drops the burst the bucket held. */
  protected setRate(perSecond: number): void {
    this.refill();
    if (perSecond < this.perSecondNow) this.tokens = Math.min(this.tokens, 0);
    this.perSecondNow = perSecond;
    if (Number.isFinite(perSecond)) this.tokens = Math.min(this.tokens, perSecond);
    else this.tokens = 0;
  }

  private refill(): void {
    const now = performance.now();
    if (Number.isFinite(this.perSecondNow))
      this.tokens = Math.min(this.perSecondNow, this.tokens + ((now - this.last) / 1000) * this.perSecondNow);
    this.last = now;
  }
}

/** Where an adaptive pace stands: its rate, its ceiling, and whether the service throttled it lately. */
export interface PaceState {
  /** Entities per second it lets through now (Infinity: no pace). */
  rate: number;
  /** The rate it recovers to (the job's share of the targets, or Infinity). */
  ceiling: number;
  /** Throttling answers heard in all. */
  throttles: number;
  /** A throttling answer came within the last few seconds. */
  throttled: boolean;
}

/** A pace that slows down on throttling and recovers slowly (module comment). */
export class AdaptivePace extends Pace {
  private throttles = 0;
  private lastCut = -Infinity;
  private lastThrottle = -Infinity;
  /** The rate a cut left (Infinity: not cut, or recovered), and what recovery adds per second since the cut. */
  private cutTo = Infinity;
  private step = 0;
  private readonly bins = new Map<number, number>();

  constructor(readonly ceiling: number) {
    super(ceiling);
  }

  override spend(entities: number): void {
    super.spend(entities);
    const bin = Math.floor(performance.now() / BIN_MS);
    this.bins.set(bin, (this.bins.get(bin) ?? 0) + entities);
    if (this.bins.size > (2 * WINDOW_MS) / BIN_MS) for (const b of this.bins.keys()) if (b < bin - WINDOW_MS / BIN_MS) this.bins.delete(b);
  }

  /** Entities per second actually spent over the last window. */
  observed(now = performance.now()): number {
    const from = Math.floor((now - WINDOW_MS) / BIN_MS);
    let n = 0;
    for (const [b, v] of this.bins) if (b > from) n += v;
    return n / (WINDOW_MS / 1000);
  }

  /**
   * The service throttled a request: the rate drops to CUT of what was sent
   * (once per CUT_EVERY_MS): the pace, or twice the rate measured when the
   * pace was not what held the job back. Recovery gives back a share of it
   * per second.
   */
  throttled(now = performance.now()): void {
    this.throttles++;
    this.lastThrottle = now;
    if (now - this.lastCut < CUT_EVERY_MS) return;
    // What was sent comes in lumps (a page is spent when it is read): twice the measured rate bounds it.
    const basis = Math.min(this.perSecond, Math.max(2 * this.observed(now), 2 * MIN_RATE));
    const rate = Math.max(MIN_RATE, basis * CUT);
    this.lastCut = now;
    this.cutTo = rate;
    this.step = Math.max(basis * RECOVER_PER_SECOND, MIN_STEP);
    this.setRate(Math.min(rate, this.ceiling));
  }

  /** A request went through: the rate grows back towards the ceiling, `step` per second since the cut. */
  succeeded(now = performance.now()): void {
    if (!Number.isFinite(this.cutTo)) return;
    const rate = this.cutTo + (this.step * (now - this.lastCut)) / 1000;
    // Unbounded (no ceiling): back at ten times the cut's rate, the pace is off again.
    if (rate >= this.ceiling || (!Number.isFinite(this.ceiling) && rate >= this.cutTo * 10)) {
      this.cutTo = Infinity;
      this.setRate(this.ceiling);
    } else if (rate > this.perSecond) this.setRate(rate);
  }

  state(now = performance.now()): PaceState {
    return { rate: this.perSecond, ceiling: this.ceiling, throttles: this.throttles, throttled: now - this.lastThrottle < 5000 };
  }
}
