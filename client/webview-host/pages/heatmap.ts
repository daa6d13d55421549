/**
 * The key-space heatmap's host: the emulator's recent seconds and the
 * host's clock at the handshake, then one `traffic` event a second — the
 * recorder's seconds while the user's app, tests or a stress test run, an
 * empty second each second while nothing runs, so the map moves on and its
 * summary says the emulator is idle. Its command starts the emulator first.
 */
import type { TrafficSecond } from "@protocol/traffic";
import { hostPage } from "../page";

/** Opening the heatmap takes nothing; a test gives it a fixed clock. */
type HeatmapArgs = { now?: () => number } | undefined;

export default hostPage<"heatmap", HeatmapArgs>({
  view: "heatmap",
  column: "beside",
  retain: true,
  single: true,
  shapes: {},
  serve(services, emit, args) {
    const now = args?.now ?? Date.now;
    const { emulator } = services;
    const idle = new IdleSeconds();
    for (const s of emulator.recentTraffic()) idle.sent(s.t);
    // The host drops events until the page is ready; the page's start state carries the seconds before that.
    const onSecond = (second: TrafficSecond) => {
      idle.sent(second.t);
      emit({ type: "traffic", second });
    };
    emulator.onTraffic(onSecond);
    const clock = setInterval(() => {
      const empty = idle.tick(now());
      if (empty) emit({ type: "traffic", second: empty });
    }, 1000);
    return {
      handlers: {},
      state: () => ({ seconds: emulator.recentTraffic(), now: now() }),
      dispose: () => {
        clearInterval(clock);
        emulator.offTraffic(onSecond);
      },
    };
  },
  async command(services, open) {
    if (!services.emulator.running) await services.emulator.start();
    open();
  },
});

/**
 * Fills the silence between traffic seconds: `tick(now)` returns the empty
 * second to send for the second that ended more than a second ago, when
 * no traffic was sent for it (the recorder writes a second out up to a
 * quarter of a second after it ends; one more second of margin keeps an
 * empty second from overtaking it — and the page adds up duplicates anyway).
 */
export class IdleSeconds {
  private last = 0;

  /** Notes a second of traffic that was sent. */
  sent(t: number): void {
    if (t > this.last) this.last = t;
  }

  tick(now: number): TrafficSecond | undefined {
    const t = now - (now % 1000) - 2000;
    if (t <= this.last) return undefined;
    this.last = t;
    return { t, partitions: {} };
  }
}
