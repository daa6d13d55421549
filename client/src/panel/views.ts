/**
 * The stress report's and the heatmap's view specs, free of `vscode` so the
 * browser tests serve exactly what the panels serve. (The explorer's spec
 * comes from its controller.)
 */
import type { ReportState, TrafficSecond } from "../../../webview/src/protocol";
import type { ViewSpec } from "./webview-host";

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

/** The key-space heatmap: the recent seconds at the handshake, then one `traffic` event a second. */
export function heatmapView(recent: () => TrafficSecond[]): ViewSpec<"heatmap"> {
  return { view: "heatmap", shapes: {}, handlers: {}, state: () => ({ seconds: recent() }) };
}
