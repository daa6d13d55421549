/**
 * The page registry (`PAGES`, protocol/pages.ts) is the one list of pages:
 * each view has its page in the webview (`webview/<view>/page.ts`, found by
 * name by the webview's entry) and its host (`client/pages/<view>.ts`,
 * found by name by the extension's panels, beside `host-page.ts` which
 * declares what a host is), each declaring that view; no page or host
 * exists without its entry. The compiler checks the
 * rest: `PAGES` has exactly the views of `Views`, and each host has a shape
 * and a handler for every request of its view.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { PAGES, VIEW_NAMES } from "@protocol/pages";
import type { HostPage } from "@client/pages/host-page";

test("every view of the registry has its webview page and its host, each declaring that view", async () => {
  for (const view of VIEW_NAMES) {
    const page = `webview/${view}/page.ts`;
    assert.ok(existsSync(page), `${page} is missing`);
    assert.match(readFileSync(page, "utf8"), new RegExp(`definePage\\("${view}"`), `${page} declares the ${view} page`);
    const host = (await import(`../../../client/pages/${view}.ts`)) as { default: HostPage<typeof view, unknown> };
    assert.equal(host.default.view, view, `client/pages/${view}.ts declares the ${view} page`);
    // Every request has its declared shape (the compiler demands the handler).
    assert.equal(typeof host.default.serve, "function");
    assert.equal(typeof host.default.shapes, "object");
  }
});

test("no webview page or host module exists without its entry in the registry", () => {
  const pages = readdirSync("webview", { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`webview/${d.name}/page.ts`))
    .map((d) => d.name);
  const hosts = readdirSync("client/pages")
    .filter((f) => f.endsWith(".ts") && f !== "host-page.ts")
    .map((f) => f.replace(/\.ts$/, ""));
  assert.deepEqual(pages.sort(), [...VIEW_NAMES].sort());
  assert.deepEqual(hosts.sort(), [...VIEW_NAMES].sort());
});

test("panel ids are unique and a page's command is named as the registry says", () => {
  const panels = VIEW_NAMES.map((v) => PAGES[v].panel);
  assert.equal(new Set(panels).size, panels.length);
  for (const view of VIEW_NAMES) {
    const command = (PAGES[view] as { command?: { name: string; id: string } }).command;
    if (command) assert.equal(command.id, `tableDesign.${command.name}`, view);
  }
});
