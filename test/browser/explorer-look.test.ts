/**
 * How the explorer looks, in real Chromium against a real Azurite: in
 * VS Code's light, dark and both high-contrast themes, switched live as
 * VS Code switches them (the Monaco filter editor follows), and at 400 px
 * wide: every text at 4.5:1 or more (the table-scan badge measured on its
 * own), a filter box that keeps its width, buttons that wrap, a grid that
 * keeps its columns with one horizontal scrollbar, and headers set alike.
 * Writes the README's screenshots from fixed data.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { ExplorerController } from "@client/explorer/controller";
import { Harness, openHarness, typeIntoFilter } from "../helpers/webview-harness";
import { MemoryStore, ScriptedUi } from "../helpers/memory-store";
import { applyTheme, THEMES, ThemeName } from "./themes";
import { lowContrast, measureContrast } from "./contrast";

let emu: EmbeddedEmulator;
let controller: ExplorerController;
let harness: Harness<"explorer">;

/** Fixed data: the screenshots change only when the page does. */
const TABLE = "Orders";
const CITIES = ["Lagos", "Oslo", "Seattle"];
const NAMES = ["Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances"];

before(async () => {
  emu = await EmbeddedEmulator.start();
  const ui = new ScriptedUi(emu);
  ui.emulatorRunning = true;
  controller = new ExplorerController(new MemoryStore(), ui, (e) => harness?.emit(e));
  await controller.open();
  const session = controller.activeConnection!;
  await session.createTable(TABLE);
  await session.upsertRows(
    TABLE,
    Array.from({ length: 60 }, (_, i) => ({
      partitionKey: CITIES[i % 3],
      rowKey: `order-${String(1000 + i)}`,
      properties: {
        Customer: { type: "String" as const, value: NAMES[i % NAMES.length] },
        Quantity: { type: "Int32" as const, value: String(((i * 7) % 12) + 1) },
        Total: { type: "Double" as const, value: (((i * 37) % 500) + 0.5).toFixed(2) },
        Shipped: { type: "Boolean" as const, value: String(i % 4 === 0) },
      },
    })),
    () => undefined,
    new AbortController().signal,
  );
  harness = await openHarness(controller.view(), { viewport: { width: 1000, height: 620 }, timezoneId: "UTC", locale: "en-GB" });
  const { page } = harness;
  await page.locator(".tables li", { hasText: TABLE }).locator("button.link").click();
  await page.locator(".count", { hasText: "60 entities" }).waitFor();
});
after(async () => {
  await harness?.close();
  await emu?.stop();
});

/** Replaces the filter with `text`, typed. */
const typeFilter = (text: string) => typeIntoFilter(harness.page, text);

/** `#RRGGBB` as the browser writes a computed colour. */
function rgb(hex: string): string {
  const v = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return `rgb(${v(1)}, ${v(3)}, ${v(5)})`;
}

test("screenshots for the README (light and dark, fixed data)", async () => {
  const { page } = harness;
  await typeFilter("PartitionKey eq 'Oslo' and RowKey ge 'order-1010'");
  await page.locator("input.select").fill("Customer, Quantity, Total, Shipped");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: /^17 entities$/ }).waitFor();
  // A $select still brings the keys: rows stay distinct, and can be opened and deleted.
  assert.equal(await page.locator(".grid-row").first().getAttribute("data-key"), JSON.stringify(["Oslo", "order-1010"]));
  assert.match(await page.locator(".grid-header").innerText(), /^PartitionKey\s*key\s+RowKey\s*key\s+Customer\s*String\s+Quantity\s*Int32/);
  await page.locator(".title").click();
  mkdirSync("docs/images", { recursive: true });
  for (const theme of ["light", "dark"] as const) {
    await applyTheme(page, theme);
    // Monaco redraws its lines a frame after the theme changes: wait until the filter's tokens are coloured again.
    await page.waitForFunction(
      () => new Set([...document.querySelectorAll(".filter-editor .view-line span span")].map((t) => getComputedStyle(t).color)).size >= 3,
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // The elapsed milliseconds differ from run to run: left out of the picture.
    await page.screenshot({ path: `docs/images/explorer-${theme}.png`, animations: "disabled", style: ".elapsed { display: none; }" });
  }
});

for (const theme of Object.keys(THEMES) as ThemeName[]) {
  test(`at 400 px in the ${theme} theme: readable, the filter keeps its width, the grid keeps its columns`, async () => {
    const { page } = harness;
    await page.setViewportSize({ width: 400, height: 800 });
    await typeFilter("");
    await page.locator("input.select").fill("");
    await page.locator("button.run").click();
    await page.locator(".badge", { hasText: "table-scan · every partition" }).waitFor();
    await page.locator(".count", { hasText: "60 entities" }).waitFor();
    await applyTheme(page, theme);
    // Monaco follows the switch without a reload: its surface is the theme's input background.
    const expected = rgb(THEMES[theme].colours["input-background"]);
    await page.waitForFunction(
      (want) => getComputedStyle(document.querySelector(".filter-editor .monaco-editor-background")!).backgroundColor === want,
      expected,
    );
    const badge = await measureContrast(page, ".badge");
    assert.ok(badge.length && badge.every((s) => s.ratio >= 4.5), `badge contrast in ${theme}: ${JSON.stringify(badge)}`);
    const low = await lowContrast(page);
    assert.deepEqual(low, [], `texts below 4.5:1 in ${theme}`);
    const layout = await page.evaluate(() => {
      const box = (s: string) => document.querySelector(s)!.getBoundingClientRect();
      const grid = document.querySelector(".grid") as HTMLElement;
      // Elements that scroll sideways, outside Monaco (whose own scrollbars are hidden).
      const sideways = [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((el) => {
          if (el.closest(".monaco-editor")) return false;
          const style = getComputedStyle(el);
          return /auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1 && el.getBoundingClientRect().height > 0;
        })
        .map((el) => el.className);
      const buttons = [...document.querySelectorAll<HTMLElement>(".toolbar > button, .toolbar .menu-button")].map((b) =>
        b.getBoundingClientRect(),
      );
      return {
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        filter: box(".filter-editor").width,
        headerCells: [...document.querySelectorAll(".grid-header .cell:not(.check)")].map((c) => ({
          width: c.getBoundingClientRect().width,
          weight: getComputedStyle(c).fontWeight,
        })),
        gridScrolls: grid.scrollWidth > grid.clientWidth,
        sideways,
        buttonsInside: buttons.every((b) => b.left >= 0 && b.right <= window.innerWidth),
        buttonRows: new Set(buttons.map((b) => Math.round(b.top))).size,
        buttons: buttons.length,
      };
    });
    assert.equal(layout.page, 0, "the page itself does not scroll sideways");
    assert.ok(layout.filter >= 200, `the filter box keeps its width: ${layout.filter}px`);
    assert.ok(
      layout.headerCells.length >= 6 && layout.headerCells.every((c) => c.width >= 160),
      `the columns keep their width: ${JSON.stringify(layout.headerCells)}`,
    );
    assert.equal(new Set(layout.headerCells.map((c) => c.weight)).size, 1, "every column header is set alike");
    assert.ok(layout.gridScrolls);
    assert.deepEqual(layout.sideways, ["grid"], "one horizontal scrollbar: the grid's");
    assert.ok(layout.buttonsInside, "every toolbar button inside the panel");
    assert.ok(
      layout.buttonRows < layout.buttons,
      `the buttons wrap in rows, not one per line (${layout.buttonRows} rows for ${layout.buttons})`,
    );
  });
}
