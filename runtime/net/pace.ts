/**
 * How fast a job sends: a token bucket of entities per second whose rate
 * adapts to what the service answers. A throttling answer (503 Server Busy,
 * 500 Operation Timed Out, 504) cuts the rate — at most once a second, so
 * the many requests in flight when the service starts refusing count as one
 * signal — to a share of what the service *admitted* lately (the entities of
 * the requests it answered: at a token-bucket service that is its rate, the
 * one figure a client can learn); the rate then climbs back to that figure
 * within a couple of seconds and probes past it by a twentieth per second:
 * slow down at once, recover slowly past the service's known rate (the
 * guide's advice, and the shape CUBIC gives TCP's window: fast back to the
 * last good rate, gently beyond). An unbounded pace (the emulator, `--rate
 * max`) is measured the same way.
 */
import { sleep } from "./deadline";

/** The slowest a throttled pace goes (entities/s): a job always moves. */
export const MIN_RATE = 50;
/**
 * The share of the admitted rate a throttling answer leaves: the admitted
 * rate is the service's own (measured, not guessed), so the cut only needs
 * to drain what the probe past it queued (CUBIC cuts by 0.7 a window it
 * cannot measure).
 */
const CUT = 0.85;
/** Between two cuts at least (ms): the requests in flight when the service began refusing are one signal. */
const CUT_EVERY_MS = 1000;
/** Seconds in which a cut's rate climbs back to the admitted rate it was cut from. */
const REGAIN_SECONDS = 2;
/** Past that rate, the share of it added per second: the probe for more. */
const PROBE_PER_SECOND = 0.05;
/** The window that measures what was sent and admitted (ms). */
const WINDOW_MS = 5000;
/** A rate is measured over at least this long (ms): the first requests' burst is no rate. */
const MIN_MEASURE_MS = 1000;
const BIN_MS = 100;
/** How long after the pace last held a request back it still counts as the job's limit (ms). */
const HOLDING_MS = 1000;

/**
 * A token bucket of entities per second that may go into debt: a page's
 * entities are known only once it is read, so they are spent after the fact
 * and the next call waits the debt off.
 */
export class Pace {
  private tokens: number;
  private last = performance.now();
  /** When the bucket last made a request wait. */
  private heldAt = -Infinity;

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
      this.heldAt = performance.now();
      // The rate may change while waiting (a cut): wait in short steps and look again.
      await sleep(Math.min(((want - this.tokens) / this.perSecondNow) * 1000, 250), signal);
    }
  }

  /**
   * Whether the pace made a request wait within the last second: then the
   * pace, not the requests' latency, is what limits the job, and more
   * requests at once (an export's range split) would add cost, not speed.
   */
  holding(now = performance.now()): boolean {
    return now - this.heldAt < HOLDING_MS;
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

/** Entities per time bin over a sliding window: a rate as it was lately. */
class Window {
  private readonly bins = new Map<number, number>();
  private first = Infinity;

  add(entities: number, now: number): void {
    if (!entities) return;
    this.first = Math.min(this.first, now);
    const bin = Math.floor(now / BIN_MS);
    this.bins.set(bin, (this.bins.get(bin) ?? 0) + entities);
    if (this.bins.size > (2 * WINDOW_MS) / BIN_MS) for (const b of this.bins.keys()) if (b < bin - WINDOW_MS / BIN_MS) this.bins.delete(b);
  }

  /** Entities per second over the window, or over the time since the first entity when that is shorter (at least MIN_MEASURE_MS). */
  rate(now: number): number {
    const from = Math.floor((now - WINDOW_MS) / BIN_MS);
    let n = 0;
    for (const [b, v] of this.bins) if (b > from) n += v;
    const span = Math.max(MIN_MEASURE_MS, Math.min(WINDOW_MS, now - this.first));
    return Math.max(0, n) / (span / 1000);
  }
}

/** A pace that slows down on throttling and recovers slowly (module comment). */
export class AdaptivePace extends Pace {
  private throttles = 0;
  private lastCut = -Infinity;
  private lastThrottle = -Infinity;
  /** The rate a cut left (Infinity: not cut, or recovered), and the admitted rate it was cut from. */
  private cutTo = Infinity;
  private cutFrom = 0;
  private readonly sent = new Window();
  /** What was sent less what the service refused: what it admitted (or is about to answer). */
  private readonly through = new Window();

  constructor(readonly ceiling: number) {
    super(ceiling);
  }

  override spend(entities: number): void {
    super.spend(entities);
    const now = performance.now();
    this.sent.add(entities, now);
    this.through.add(entities, now);
  }

  /** Entities per second sent lately (spent on the pace). */
  observed(now = performance.now()): number {
    return this.sent.rate(now);
  }

  /** Entities per second the service admitted lately: those sent, less those it refused. */
  admitted(now = performance.now()): number {
    return this.through.rate(now);
  }

  /**
   * The service throttled a request that cost `entities`: they were not
   * admitted; and the rate drops to CUT of what the service admitted lately
   * (no more than the pace itself), once per CUT_EVERY_MS.
   */
  throttled(now = performance.now(), entities = 0): void {
    this.through.add(-entities, now);
    this.throttles++;
    this.lastThrottle = now;
    if (now - this.lastCut < CUT_EVERY_MS) return;
    const basis = Math.min(this.perSecond, Math.max(this.admitted(now), 2 * MIN_RATE));
    this.lastCut = now;
    this.cutFrom = basis;
    this.cutTo = Math.max(MIN_RATE, basis * CUT);
    this.setRate(Math.min(this.cutTo, this.ceiling));
  }

  /**
   * A request went through: the rate climbs back — to the admitted rate it
   * was cut from within REGAIN_SECONDS, then past it by PROBE_PER_SECOND of
   * it per second, up to the ceiling.
   */
  succeeded(now = performance.now()): void {
    if (!Number.isFinite(this.cutTo)) return;
    const t = (now - this.lastCut) / 1000;
    const rate =
      this.cutTo +
      (Math.max(this.cutFrom, this.cutTo) - this.cutTo) * Math.min(1, t / REGAIN_SECONDS) +
      Math.max(0, t - REGAIN_SECONDS) * this.cutFrom * PROBE_PER_SECOND;
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
