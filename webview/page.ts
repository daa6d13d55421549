/**
 * A page of the webview, declared once: `<view>/page.ts` exports
 * `definePage(view, render)`, and the entry (main.ts) finds it by the view
 * the host names — nothing lists the pages. `render` gets the page's root,
 * a client that can make only its own view's requests, its start state,
 * and `showProblem`, which shows a failure as every page does (problem.ts).
 */
import type { InitOf, StateOf, ViewName } from "@protocol/pages";
import type { ViewClient } from "./rpc";
import { problemArea, problemOf, showProblem } from "./problem";

/** What a page's `render` gets. */
export interface PageContext<V extends ViewName> {
  root: HTMLElement;
  client: ViewClient<V>;
  state: StateOf<V>;
  /** Shows a failure at the top of the page (a request the page does not handle otherwise). */
  showProblem(e: unknown): void;
}

export interface WebviewPage<V extends ViewName> {
  view: V;
  render(page: PageContext<V>): void;
}

/** Declares the page of `view`. */
export function definePage<V extends ViewName>(view: V, render: (page: PageContext<V>) => void): WebviewPage<V> {
  return { view, render };
}

/** Renders `page` for the host's `init`; its first problem opens an area at the top of `root`. */
export function renderPage<V extends ViewName>(page: WebviewPage<V>, init: InitOf<V>, root: HTMLElement, client: ViewClient<V>): void {
  let area: HTMLElement | undefined;
  const show = (e: unknown) => {
    if (!area) root.prepend((area = problemArea("page-problem")));
    showProblem(area, problemOf(e));
  };
  page.render({ root, client, state: init.state, showProblem: show });
}
