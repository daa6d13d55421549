/** The stress report page: its runs (app.ts), and a button to the heatmap when a run used the embedded emulator. */
import { h } from "../dom";
import { definePage } from "../page";
import { renderReports } from "./app";

export default definePage("report", ({ client, root, state, showProblem }) => {
  if (state.runs.some((r) => r.report.target === "emulator")) {
    root.append(
      h(
        "button",
        { class: "secondary open-heatmap", onclick: () => client.request("heatmap.open", {}).catch(showProblem) },
        "Open the key-space heatmap",
      ),
    );
  }
  renderReports(root, state);
});
