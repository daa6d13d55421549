/**
 * Completion from what is known, in real Chromium against a real Azurite:
 * a table that was empty when it opened completes the columns inserted
 * since (written through the page) and those a query read back (written by
 * someone else), with their types; and the highlighted suggestion is
 * readable (4.5:1) in VS Code's light, dark and both high-contrast themes,
 * with a picture of each in test-results/.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { ExplorerController } from "@client/explorer/controller";
import { Harness, openHarness, typeIntoFilter } from "../helpers/webview-harness";
import { MemoryStore, ScriptedUi } from "../helpers/memory-store";
import { tableName } from "../helpers/azurite";
import { applyTheme, ThemeName } from "./themes";
import { measureContrast } from "./contrast";

let emu: EmbeddedEmulator;
let ui: ScriptedUi;
let controller: ExplorerController;
let harness: Harness<"explorer">;

before(async () => {
  emu = await EmbeddedEmulator.start();
  ui = new ScriptedUi(emu);
  ui.emulatorRunning = true;
  controller = new ExplorerController(new MemoryStore(), ui, (e) => harness?.emit(e));
  await controller.open();
  harness = await openHarness(controller.view(), { viewport: { width: 1000, height: 620 } });
});
after(async () => {
  await harness?.close();
  await emu?.stop();
});

const fresh = tableName("Fresh");

/** The labels the filter editor's completion offers at the start of an empty filter, in order. */
async function offered(): Promise<string[]> {
  const { page } = harness;
  await typeIntoFilter(page, "");
  await page.keyboard.press("Control+Space");
  const rows = page.locator(".suggest-widget .monaco-list-row .label-name");
  await rows.first().waitFor();
  const labels = await rows.allInnerTexts();
  await page.keyboard.press("Escape");
  return labels;
}

test("a table empty when opened completes the columns inserted through the page and those a query reads back", async () => {
  const { page } = harness;
  await controller.activeConnection!.createTable(fresh);
  await page.locator(".connections li", { hasText: "Emulator" }).locator("button.link").click();
  await page.locator(".tables li", { hasText: fresh }).locator("button.link").click();
  await page.locator(".title", { hasText: fresh }).waitFor();
  assert.deepEqual(await offered(), ["PartitionKey", "RowKey", "Timestamp", "not", "("], "nothing known of an empty table");

  // Written: an insert through the page, with a typed property.
  await page.locator("button.insert-new").click();
  await page.locator(".detail input.pk").fill("p1");
  await page.locator(".detail input.rk").fill("a");
  await page.locator(".detail button", { hasText: "Add property" }).click();
  await page.locator(".detail .prop-name").fill("Colour");
  await page.locator(".detail .prop-value").fill("red");
  await page.locator(".detail button.insert").click();
  await page.locator(".detail .status", { hasText: /^Inserted\.$/ }).waitFor();
  await page.locator(".detail button.close").click();
  assert.deepEqual(await offered(), ["PartitionKey", "RowKey", "Timestamp", "Colour", "not", "("]);

  // Read: someone else writes a column; the page's next query brings it.
  await controller.activeConnection!.insertEntity(fresh, {
    partitionKey: "p2",
    rowKey: "b",
    properties: { Size: { type: "Int32", value: "3" } },
  });
  await typeIntoFilter(page, "");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: /^2 entities$/ }).waitFor();
  assert.deepEqual(await offered(), ["PartitionKey", "RowKey", "Timestamp", "Colour", "Size", "not", "("]);

  // Size is an Int32 in everything seen: its literal comes first after an operator.
  await typeIntoFilter(page, "Size eq ");
  await page.keyboard.press("Control+Space");
  const rows = page.locator(".suggest-widget .monaco-list-row .label-name");
  await rows.first().waitFor();
  assert.deepEqual((await rows.allInnerTexts()).slice(0, 2), ["42", "'text'"]);
  await page.keyboard.press("Escape");
});

test("with a design open, an empty table completes the design's properties at once, with their declared types", async () => {
  const { page } = harness;
  const planned = tableName("Planned");
  await controller.activeConnection!.createTable(planned);
  // One table in the open design: the explorer's table is read as it (a table of the same name would be chosen first).
  ui.designs = [
    "table Ledger {\n  TransferId: guid\n  Amount: double\n  BookedAt: datetime\n\n  partitionKey = TransferId\n  rowKey = TransferId\n}\n",
  ];
  try {
    // Connecting again lists the new table.
    await page.locator(".connections li", { hasText: "Emulator" }).locator("button.link").click();
    await page.locator(".tables li", { hasText: planned }).locator("button.link").click();
    await page.locator(".title", { hasText: planned }).waitFor();
    assert.deepEqual(await offered(), ["PartitionKey", "RowKey", "Timestamp", "Amount", "BookedAt", "TransferId", "not", "("]);
    // Amount is declared a double: a number literal comes first after an operator; BookedAt a datetime literal.
    await typeIntoFilter(page, "BookedAt ge ");
    await page.keyboard.press("Control+Space");
    const rows = page.locator(".suggest-widget .monaco-list-row .label-name");
    await rows.first().waitFor();
    assert.match((await rows.allInnerTexts())[0], /^datetime'/);
    await page.keyboard.press("Escape");
  } finally {
    ui.designs = [];
  }
});

test("the highlighted suggestion is readable in light, dark and both high-contrast themes (a picture of each)", async () => {
  const { page } = harness;
  mkdirSync("test-results", { recursive: true });
  for (const theme of ["light", "dark", "hc-dark", "hc-light"] as ThemeName[]) {
    await applyTheme(page, theme);
    await typeIntoFilter(page, "");
    await page.keyboard.press("Control+Space");
    const focused = page.locator(".suggest-widget .monaco-list-row.focused");
    await focused.locator(".label-name").first().waitFor();
    const samples = await measureContrast(page, ".suggest-widget .monaco-list-row.focused");
    assert.ok(
      samples.some((s) => s.text === "PartitionKey"),
      `${theme}: the focused row is measured: ${JSON.stringify(samples)}`,
    );
    assert.deepEqual(
      samples.filter((s) => s.ratio < 4.5),
      [],
      `${theme}: every text of the highlighted suggestion at 4.5:1 or more`,
    );
    await page.screenshot({ path: `test-results/filter-suggestion-${theme}.png`, clip: { x: 0, y: 0, width: 1000, height: 400 } });
    await page.keyboard.press("Escape");
  }
});
