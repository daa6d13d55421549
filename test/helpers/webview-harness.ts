/**
 * Runs the built webview in headless Chromium against the real host-side
 * controller: a loopback page with the panel's own HTML and CSP, whose
 * `acquireVsCodeApi` bridges the protocol to the controller in this process.
 */
import { createServer, Server } from "node:http";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { Browser, chromium, Page } from "playwright-core";
import { webviewHtml } from "../../client/src/panel/webview-html";
import type { HostEvent, HostToWebview, WebviewToHost } from "../../webview/src/protocol";
import { CHROMIUM_ARGS } from "./vscode";

export interface Harness {
  page: Page;
  url: string;
  /** Every message the webview received (to check that no secret ever crossed). */
  sent: HostToWebview[];
  emit(e: HostEvent): Promise<void>;
  close(): Promise<void>;
}

const BRIDGE = `window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__toHost(JSON.stringify(m)),
  getState: () => JSON.parse(sessionStorage.getItem("webview-state") || "null"),
  setState: (s) => sessionStorage.setItem("webview-state", JSON.stringify(s)),
});`;

const TYPES: Record<string, string> = { ".js": "text/javascript", ".css": "text/css", ".ttf": "font/ttf", ".map": "application/json" };

export async function openHarness(handle: (method: string, params: unknown) => Promise<unknown>, view: "explorer" | "stress-report" | "heatmap" = "explorer", init?: unknown): Promise<Harness> {
  const dist = path.resolve("dist");
  let origin = "";
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(webviewHtml({ cspSource: origin, scriptUri: `${origin}/dist/webview.js`, styleUri: `${origin}/dist/webview.css`, title: "harness", preludeScripts: [BRIDGE] }));
      return;
    }
    const file = path.join(dist, path.normalize(url.pathname.replace(/^\/dist\//, "")));
    if (!file.startsWith(dist)) { res.writeHead(403).end(); return; }
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser: Browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const sent: HostToWebview[] = [];
  const post = async (msg: HostToWebview) => {
    sent.push(msg);
    await page.evaluate((m) => window.postMessage(m, "*"), msg as unknown as Record<string, unknown>);
  };
  await page.exposeFunction("__toHost", async (json: string) => {
    const msg = JSON.parse(json) as WebviewToHost;
    if (msg.type === "ready") await post({ type: "init", view, state: init });
    else if (msg.type === "request") {
      try {
        await post({ type: "response", id: msg.id, ok: true, result: await handle(msg.method, msg.params) });
      } catch (e) {
        await post({ type: "response", id: msg.id, ok: false, error: (e as Error).message });
      }
    }
  });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(origin + "/");
  return {
    page, url: origin + "/", sent,
    emit: (e) => post({ type: "event", event: e }),
    close: async () => {
      await browser.close();
      await new Promise((r) => server.close(r));
      if (errors.some((e) => /Content Security Policy|Refused to/.test(e))) throw new Error(`CSP violations: ${errors.join("\n")}`);
    },
  };
}
