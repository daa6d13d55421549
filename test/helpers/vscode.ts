/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * End-to-end harness: a real VS Code (code-server) with the built extension,
 * driven by Debian's Chromium through playwright-core. Everything waits on
 * what the page shows; nothing sleeps a fixed time.
 */
import { writeFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { Browser, chromium, Page } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface VsCodeSession {
  page: Page;
  workspace: string;
  /** The fresh extensions folder this code-server loads extensions from. */
  extensionsDir: string;
  close(): Promise<void>;
}

/** A workspace folder holding a copy of examples/ plus extra files, inside the repository's ignored .vscode-test/ so the SDK resolves. */
export async function makeWorkspace(extra: Record<string, string> = {}): Promise<string> {
  const { scratchExamples } = await import("../../scripts/code-server.mjs");
  const dir = scratchExamples();
  for (const [name, text] of Object.entries(extra)) writeFileSync(path.join(dir, name), text);
  return dir;
}

/**
 * Opens `workspace` in a fresh code-server with the built extension, or with `options.vsix` installed by code-server's own
 * installer; `options.extensions` are unpacked extension folders installed beside it.
 */
export async function openVsCode(workspace: string, options: { vsix?: string; extensions?: string[] } = {}): Promise<VsCodeSession> {
  const { startCodeServer } = await import("../../scripts/code-server.mjs");
  const server = await startCodeServer({ workspace, vsix: options.vsix, extraExtensions: options.extensions });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.openUrl);
    await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
    return {
      page,
      workspace,
      extensionsDir: server.extensionsDir,
      close: async () => {
        await browser?.close();
        await server.stop();
        rmSync(workspace, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await browser?.close();
    await server.stop();
    throw e;
  }
}

/** Quick Open (Ctrl+P) a file by name and wait for its editor tab (asking again while a new file is not yet in the index). */
export async function openFile(page: Page, name: string): Promise<void> {
  await page
    .locator(".monaco-workbench")
    .click({ position: { x: 700, y: 10 } })
    .catch(() => undefined);
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press("Control+P");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(name);
    try {
      await page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor({ timeout: 5000 });
      break;
    } catch (e) {
      await page.keyboard.press("Escape");
      if (attempt === 6) throw e;
    }
  }
  await page.keyboard.press("Enter");
  await page.locator(`.tab[data-resource-name="${name}"]`).first().waitFor();
  await page.locator(".monaco-editor .view-lines").first().waitFor();
}

/** Runs a command from the palette by its title (retrying once: contributions can arrive after the workbench). */
export async function runCommand(page: Page, title: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press("Control+Shift+P");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(`>${title}`);
    try {
      await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor({ timeout: 15_000 });
      await page.keyboard.press("Enter");
      return;
    } catch (e) {
      await page.keyboard.press("Escape");
      if (attempt === 2) {
        await page.screenshot({ path: "test-results/command-palette.png" }).catch(() => undefined);
        throw e;
      }
    }
  }
}

/** The webview frame (of however many are open) that shows `selector`, waiting until one does. */
export async function webviewWith(page: Page, selector: string, timeoutMs = 60_000): Promise<import("playwright-core").Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame.name() !== "active-frame" && !frame.url().includes("fake.html")) continue;
      if (
        await frame
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`no webview shows ${selector} within ${timeoutMs} ms`);
}

/** Opens the quick-fix menu at the caret and waits for an action, retrying while diagnostics arrive. */
export async function quickFix(page: Page, title: string): Promise<import("playwright-core").Locator> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press("Control+.");
    const action = page.locator(".action-widget .monaco-list-row", { hasText: title }).first();
    try {
      await action.waitFor({ timeout: 5000 });
      return action;
    } catch (e) {
      await page.keyboard.press("Escape");
      if (attempt === 4) throw e;
      await page.waitForTimeout(1000);
    }
  }
}

/** Moves the caret to a 1-based line and column (Quick Open's `:line:column`). */
export async function goTo(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press("Control+P");
  await page.locator(".quick-input-widget input").fill(`:${line}:${column}`);
  await page.keyboard.press("Enter");
}

/** Waits until an editor line shows `text` (editors render spaces as no-break spaces). */
export async function waitForLine(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (expected) => [...document.querySelectorAll(".view-line")].some((l) => l.textContent?.replace(/\u00a0/g, " ").includes(expected)),
    text,
    { timeout: 15_000 },
  );
}
