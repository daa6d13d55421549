/**
 * "Infer a design…" from the explorer's table list, in real Chromium
 * against a real Azurite: every table's row offers it as a button and in
 * its context menu (a right-click, or Shift+F10 on the table's name), both
 * reachable from the keyboard, and each sends the host the request for
 * that table — which the host hands to VS Code's command (here, a
 * scripted UI that records the table) on the explorer's connection. A
 * failure to start it shows as the page's error.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { ExplorerController } from "@client/explorer/controller";
import { Harness, openHarness } from "../helpers/webview-harness";
import { MemoryStore, ScriptedUi } from "../helpers/memory-store";
import { applyTheme, THEMES, ThemeName } from "./themes";
import { lowContrast } from "./contrast";

/** A scripted UI that records the tables it was asked to infer a design from, on which connection. */
class InferringUi extends ScriptedUi {
  inferred: Array<{ table: string; connection: string | undefined }> = [];
  failWith: string | undefined;
  controller: ExplorerController | undefined;
  private waiting: (() => void) | undefined;

  async inferDesign(table: string): Promise<void> {
    this.inferred.push({ table, connection: this.controller?.activeConnection?.connection.id });
    this.waiting?.();
    if (this.failWith) throw new Error(this.failWith);
  }

  /** Resolves at the next `inferDesign`. */
  next(): Promise<void> {
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

const TABLES = ["Invoices", "Orders", "Refunds"];
let emu: EmbeddedEmulator;
let ui: InferringUi;
let controller: ExplorerController;
let harness: Harness<"explorer">;

before(async () => {
  emu = await EmbeddedEmulator.start();
  ui = new InferringUi(emu);
  ui.emulatorRunning = true;
  controller = new ExplorerController(new MemoryStore(), ui, (e) => harness?.emit(e));
  ui.controller = controller;
  await controller.open();
  for (const t of TABLES) await controller.activeConnection!.createTable(t);
  harness = await openHarness(controller.view(), { viewport: { width: 1000, height: 620 } });
  await harness.page
    .locator(".tables li[data-table]")
    .nth(TABLES.length - 1)
    .waitFor();
});
after(async () => {
  await harness?.close();
  await emu?.stop();
});

/** Runs `act` and waits until the host was asked to infer; the table it was asked for. */
async function inferredBy(act: () => Promise<void>): Promise<string> {
  const asked = ui.next();
  await act();
  await asked;
  await harness.host.settled();
  return ui.inferred.at(-1)!.table;
}

test("each table's row has an Infer button that asks the host for that table, on the explorer's connection", async () => {
  const { page } = harness;
  const names = await page
    .locator(".tables li[data-table] button.infer-design")
    .evaluateAll((bs) => bs.map((b) => b.getAttribute("aria-label")));
  assert.deepEqual(
    names,
    TABLES.map((t) => `Infer a design from table ${t}…`),
  );
  for (const t of ["Orders", "Invoices"]) {
    const table = await inferredBy(() => page.locator(".tables li", { hasText: t }).locator("button.infer-design").click());
    assert.equal(table, t);
  }
  const active = controller.activeConnection!.connection.id;
  assert.deepEqual(ui.inferred, [
    { table: "Orders", connection: active },
    { table: "Invoices", connection: active },
  ]);
  assert.ok(
    harness.sent.filter((m) => m.type === "response").every((m) => m.ok),
    "every request was answered without an error",
  );
  assert.ok(await page.locator(".error").isHidden());
});

test("from the keyboard: Tab from a table's name reaches its Infer button; Shift+F10 opens its menu", async () => {
  const { page } = harness;
  const link = page.locator(".tables li", { hasText: "Refunds" }).locator("button.link");
  await link.focus();
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Infer a design from table Refunds…");
  assert.equal(await inferredBy(() => page.keyboard.press("Enter")), "Refunds");

  await link.focus();
  await page.keyboard.press("Shift+F10");
  const menu = page.locator(".table-menu");
  await menu.waitFor();
  assert.equal(await menu.getAttribute("aria-label"), "Table Refunds");
  assert.deepEqual(await menu.locator("[role=menuitem]").allInnerTexts(), [
    "Open",
    "Infer a design…",
    "Export to a folder…",
    "Clear table…",
    "Delete table…",
  ]);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Open", "the first item has the focus");
  await page.keyboard.press("ArrowDown");
  assert.equal(await inferredBy(() => page.keyboard.press("Enter")), "Refunds");
  assert.ok(await menu.isHidden(), "choosing closes the menu");

  // Escape closes it without choosing, and gives the focus back to the table's name.
  const before = ui.inferred.length;
  await link.focus();
  await page.keyboard.press("Shift+F10");
  await menu.waitFor();
  await page.keyboard.press("Escape");
  assert.ok(await menu.isHidden());
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Refunds");
  assert.equal(ui.inferred.length, before);
});

test("a right-click on a table opens its menu at the pointer, inside the window", async () => {
  const { page } = harness;
  const row = page.locator(".tables li", { hasText: "Invoices" });
  const box = (await row.boundingBox())!;
  await row.click({ button: "right", position: { x: 10, y: box.height / 2 } });
  const menu = page.locator(".table-menu");
  await menu.waitFor();
  assert.equal(await menu.getAttribute("aria-label"), "Table Invoices");
  const m = (await menu.boundingBox())!;
  assert.ok(Math.abs(m.x - (box.x + 10)) <= 1 && Math.abs(m.y - (box.y + box.height / 2)) <= 1, JSON.stringify({ m, box }));
  assert.equal(await inferredBy(() => menu.locator(".menu-item.infer-design").click()), "Invoices");
  // A right-click on another table moves the menu to it; a click elsewhere closes it.
  await page.locator(".tables li", { hasText: "Orders" }).click({ button: "right" });
  await page.locator(".table-menu[aria-label='Table Orders']").waitFor();
  await page.locator("main").click({ position: { x: 300, y: 200 } });
  assert.ok(await menu.isHidden());
});

test("when the command cannot start, the page says why", async () => {
  const { page } = harness;
  ui.failWith = "Could not list the tables of Emulator: connection refused";
  try {
    await inferredBy(() => page.locator(".tables li", { hasText: "Orders" }).locator("button.infer-design").click());
    await page.locator(".error .error-message", { hasText: "Could not list the tables of Emulator: connection refused." }).waitFor();
  } finally {
    ui.failWith = undefined;
  }
});

test("the menu reads at 4.5:1 or more in every theme, at 400 px, its focused item too", async () => {
  const { page } = harness;
  await page.setViewportSize({ width: 400, height: 700 });
  try {
    for (const theme of Object.keys(THEMES) as ThemeName[]) {
      await applyTheme(page, theme);
      const link = page.locator(".tables li", { hasText: "Orders" }).locator("button.link");
      await link.focus();
      await page.keyboard.press("Shift+F10");
      await page.locator(".table-menu").waitFor();
      await page.keyboard.press("ArrowDown");
      assert.deepEqual(await lowContrast(page, 4.5, ".table-menu"), [], `the menu in ${theme}`);
      const inside = await page.evaluate(() => {
        const b = document.querySelector(".table-menu")!.getBoundingClientRect();
        return b.left >= 0 && b.right <= window.innerWidth && b.bottom <= window.innerHeight;
      });
      assert.ok(inside, `the menu inside the 400 px window in ${theme}`);
      await page.keyboard.press("Escape");
    }
  } finally {
    await applyTheme(page, "light");
    await page.setViewportSize({ width: 1000, height: 620 });
  }
});
