/**
 * Webview entry: announces itself to the host, then renders the view the
 * host asks for, with a client that can make only that view's requests.
 */
import "./styles.css";
import { HostConnection } from "./rpc";
import { ExplorerApp } from "./explorer/app";
import { renderReports } from "./report/app";
import { Heatmap } from "./heatmap/app";
import { h } from "./dom";

const connection = new HostConnection();
const root = document.getElementById("root")!;
connection.start((init) => {
  root.dataset.view = init.view;
  switch (init.view) {
    case "explorer":
      new ExplorerApp(connection.client(init.view), root, init.state);
      break;
    case "report": {
      const host = connection.client(init.view);
      if (init.state.runs.some((r) => r.report.target === "emulator")) {
        root.append(
          h(
            "button",
            { class: "secondary open-heatmap", onclick: () => void host.request("heatmap.open", {}) },
            "Open the key-space heatmap",
          ),
        );
      }
      renderReports(root, init.state);
      break;
    }
    case "heatmap": {
      const heatmap = new Heatmap(root, init.state.seconds, init.state.now);
      connection.client(init.view).onEvent((e) => heatmap.add(e.second));
      break;
    }
  }
});
