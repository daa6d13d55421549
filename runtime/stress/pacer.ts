/**
 * Arrivals at a set rate, shared by every worker of a run: the design's
 * rates are an open load (requests arrive whether or not earlier ones have
 * finished), so the hottest partition gets its share of the design's
 * rate, not of whatever this client happens to manage. Slots missed by
 * more than `maxLagMs` (the workers were all busy, the process paused)
 * are dropped rather than sent in a burst the design never declared.
 */
import { sleep } from "../net/deadline";

export class Pacer {
  private next: number;
  /** Slots handed out; slots dropped because every worker was late. */
  readonly counts = { sent: 0, dropped: 0 };

  constructor(
    readonly perSecond: number,
    start = performance.now(),
    private readonly maxLagMs = 200,
  ) {
    this.next = start;
  }

  /** Waits for this worker's next slot; false when that slot falls after `deadline` or the run is cancelled. */
  async slot(deadline: number, signal: AbortSignal): Promise<boolean> {
    const now = performance.now();
    const interval = 1000 / this.perSecond;
    if (this.next < now - this.maxLagMs) {
      const missed = Math.floor((now - this.maxLagMs - this.next) / interval);
      this.counts.dropped += missed;
      this.next += missed * interval;
    }
    const at = this.next;
    if (at >= deadline) return false;
    this.next += interval;
    this.counts.sent++;
    if (at > now) await sleep(at - now, signal);
    return !signal.aborted && performance.now() < deadline;
  }
}
