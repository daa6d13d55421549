/**
 * The stress report's and the heatmap's view specs, free of `vscode` so the
 * browser tests serve exactly what the panels serve. (The explorer's spec
 * comes from its controller.)
 */
import type { ReportState } from "@protocol/pages";
import type { TrafficSecond } from "@protocol/traffic";
import type { ViewSpec } from "./host";

/** One stress run or two side by side; the page may ask to open the heatmap. */
export function reportView(runs: ReportState["runs"], openHeatmap: () => Promise<void>): ViewSpec<"report"> {
  return {
    view: "report",
    shapes: { "heatmap.open": {} },
    handlers: {
      "heatmap.open": async () => {
        await openHeatmap();
        return null;
      },
    },
    state: () => ({ runs }),
  };
}

/**
 * The key-space heatmap: the recent seconds and the host's clock at the
 * handshake, then one `traffic` event a second (empty ones while idle).
 */
export function heatmapView(recent: () => TrafficSecond[], now: () => number = Date.now): ViewSpec<"heatmap"> {
  return { view: "heatmap", shapes: {}, handlers: {}, state: () => ({ seconds: recent(), now: now() }) };
}

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
