/**
 * Webview entry: announces itself to the host, then renders the view the
 * host asks for — the page `<view>/page.ts`, found by name (esbuild bundles
 * every page the pattern matches), with a client that can make only that
 * view's requests.
 */
import "./styles.css";
import type { InitMessage, ViewName } from "@protocol/pages";
import { HostConnection } from "./rpc";
import { renderPage, WebviewPage } from "./page";
import { showProblem, problemArea } from "./problem";

const connection = new HostConnection();
const root = document.getElementById("root")!;
connection.start((init: InitMessage) => {
  root.dataset.view = init.view;
  import(`./${init.view}/page.ts`)
    .then(({ default: page }: { default: WebviewPage<ViewName> }) => {
      if (page?.view !== init.view) throw new Error(`${init.view}/page.ts does not declare the ${init.view} page`);
      renderPage(page, init, root, connection.client(init.view));
    })
    .catch((e: unknown) => {
      // A page that cannot be shown says so, instead of leaving the panel blank.
      const area = problemArea();
      root.append(area);
      showProblem(area, {
        message: `the ${init.view} page could not be shown: ${e instanceof Error ? e.message : String(e)}`,
        kind: "internal",
      });
    });
});
