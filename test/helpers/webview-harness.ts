/**
 * Runs the built webview in headless Chromium against the real host: a
 * loopback page with the panel's own HTML and CSP, whose `acquireVsCodeApi`
 * bridges to a `WebviewHost` in this process serving the same `ViewSpec`
 * the VS Code panel serves. Messages cross as JSON, as they do in VS Code.
 */
import { createServer, Server } from "node:http";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { Browser, chromium, Page } from "playwright-core";
import { webviewHtml } from "@client/webview-host/html";
import { ViewSpec, WebviewHost } from "@client/webview-host/host";
import type { EventOf, HostToWebview, ViewName } from "@protocol/pages";
import { CHROMIUM_ARGS } from "./vscode";

export interface Harness<V extends ViewName> {
  page: Page;
  url: string;
  host: WebviewHost<V>;
  /** Every message the webview received (to check that no secret ever crossed). */
  sent: HostToWebview[];
  /** What the host logged (refused messages, failed requests). */
  logs: string[];
  emit(e: EventOf<V>): void;
  /** Sends a raw message from inside the page, as a hostile page would, and waits for the host's answer to `id`. */
  sendRaw(message: unknown, id: number): Promise<HostToWebview>;
  close(): Promise<void>;
}

const BRIDGE = `window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__toHost(JSON.stringify(m)),
  getState: () => JSON.parse(sessionStorage.getItem("webview-state") || "null"),
  setState: (s) => sessionStorage.setItem("webview-state", JSON.stringify(s)),
});`;

const TYPES: Record<string, string> = { ".js": "text/javascript", ".css": "text/css", ".ttf": "font/ttf", ".map": "application/json" };

function serve(dist: string, origin: () => string): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin());
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        webviewHtml({
          cspSource: origin(),
          scriptUri: `${origin()}/dist/webview.js`,
          styleUri: `${origin()}/dist/webview.css`,
          title: "harness",
          preludeScripts: [BRIDGE],
        }),
      );
      return;
    }
    const file = path.join(dist, path.normalize(url.pathname.replace(/^\/dist\//, "")));
    if (!file.startsWith(dist)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
}

/** How the browser shows the page: its size, and the time zone and locale (fixed ones make screenshots repeatable). */
export interface HarnessOptions {
  viewport?: { width: number; height: number };
  timezoneId?: string;
  locale?: string;
}

export async function openHarness<V extends ViewName>(spec: ViewSpec<V>, options: HarnessOptions = {}): Promise<Harness<V>> {
  let origin = "";
  const server = serve(path.resolve("dist"), () => origin);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser: Browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  const page = await browser.newPage({
    viewport: options.viewport ?? { width: 1400, height: 900 },
    timezoneId: options.timezoneId,
    locale: options.locale,
  });
  const sent: HostToWebview[] = [];
  const logs: string[] = [];
  const waiting = new Map<number, (m: HostToWebview) => void>();
  let closed = false;
  let toHost: (message: unknown) => void = () => undefined;
  const host = new WebviewHost(
    spec,
    {
      post: async (msg) => {
        sent.push(msg);
        // Delivered to the page first, then reported: a test that awaits an answer ends only once nothing is in flight.
        if (!closed) await page.evaluate((m) => window.postMessage(m, "*"), msg as unknown as Record<string, unknown>);
        if (msg.type === "response") waiting.get(msg.id)?.(msg);
      },
      onMessage: (listener) => {
        toHost = listener;
        return {
          dispose: () => {
            toHost = () => undefined;
          },
        };
      },
    },
    (line) => logs.push(line),
  );
  // tsx compiles the tests with esbuild's keepNames, which wraps named inner functions in `__name(…)`:
  // functions a test passes to page.evaluate need that helper in the page too (an identity here).
  await page.addInitScript({ content: "globalThis.__name = (fn) => fn;" });
  await page.exposeFunction("__toHost", (json: string) => toHost(JSON.parse(json)));
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto(origin + "/");
  return {
    page,
    url: origin + "/",
    host,
    sent,
    logs,
    emit: (e) => host.emit(e),
    sendRaw: async (message, id) => {
      const answered = new Promise<HostToWebview>((resolve) => waiting.set(id, resolve));
      await page.evaluate(
        (m) => (window as unknown as { __toHost(json: string): void }).__toHost(JSON.stringify(m)),
        message as Record<string, unknown>,
      );
      return answered;
    },
    close: async () => {
      closed = true;
      host.dispose();
      await browser.close();
      await new Promise((r) => server.close(r));
      if (errors.some((e) => /Content Security Policy|Refused to/.test(e))) throw new Error(`CSP violations: ${errors.join("\n")}`);
    },
  };
}

/** Replaces the explorer's filter with `text`, typed as a user types it (Monaco: click, select all, delete, type). */
export async function typeIntoFilter(page: Page, text: string, delay = 2): Promise<void> {
  await page.locator(".filter-editor .monaco-editor").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  if (text) await page.keyboard.type(text, { delay });
}
