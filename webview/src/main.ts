/**
 * Webview entry: announces itself to the host, then renders the view the
 * host asks for.
 */
import "./styles.css";
import { HostConnection } from "./rpc";
import { ExplorerApp } from "./explorer/app";
import { renderReports, ReportState } from "./report/app";

const host = new HostConnection();
const root = document.getElementById("root")!;
host.ready((init) => {
  root.dataset.view = init.view;
  if (init.view === "explorer") new ExplorerApp(host, root);
  else if (init.view === "stress-report") renderReports(root, init.state as ReportState);
});
