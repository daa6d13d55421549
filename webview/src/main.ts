/**
 * Webview entry: announces itself to the host, then renders the view the
 * host asks for.
 */
import "./styles.css";
import { HostConnection } from "./rpc";
import { ExplorerApp } from "./explorer/app";
import { renderReports, ReportState } from "./report/app";
import { Heatmap } from "./heatmap/app";
import { h } from "./dom";
import type { TrafficSecond } from "./protocol";

const host = new HostConnection();
const root = document.getElementById("root")!;
host.ready((init) => {
  root.dataset.view = init.view;
  if (init.view === "explorer") new ExplorerApp(host, root);
  else if (init.view === "stress-report") {
    const state = init.state as ReportState;
    if (state.runs.some((r) => r.report.target === "emulator")) {
      root.append(h("button", { class: "secondary open-heatmap", onclick: () => void host.request("heatmap.open", {}) }, "Open the key-space heatmap"));
    }
    renderReports(root, state);
  } else if (init.view === "heatmap") {
    const heatmap = new Heatmap(root, (init.state as { seconds?: TrafficSecond[] } | undefined)?.seconds ?? []);
    host.onEvent((e) => { if (e.type === "traffic") heatmap.add(e.second); });
  }
});
