/**
 * The stress report's host: one run, or two side by side when designs are
 * compared; the page may ask to open the emulator's heatmap. Opened by the
 * stress command with its runs, in a tab named after them.
 */
import type { ReportState } from "@protocol/pages";
import { hostPage } from "./host-page";

/** What opening a report takes: its tab's title and its runs. */
export interface ReportArgs {
  title: string;
  runs: ReportState["runs"];
}

export default hostPage<"report", ReportArgs>({
  view: "report",
  shapes: { "heatmap.open": {} },
  title: (args) => args.title,
  serve: (services, _emit, args) => ({
    handlers: {
      "heatmap.open": async () => {
        await services.execute("showHeatmap");
        return null;
      },
    },
    state: () => ({ runs: args.runs }),
  }),
});
