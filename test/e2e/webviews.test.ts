/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Issue 12's flows in a real VS Code: the explorer opens on the running
 * emulator and keeps it when another connection fails; a stress test of a
 * design the analyzer flags append-only is judged hot, its quick fix is not;
 * the heatmap shows that traffic and returns to idle when it stops.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { makeWorkspace, openFile, openVsCode, runCommand, VsCodeSession, webviewWith } from "../helpers/vscode";

let vscode: VsCodeSession;
before(async () => {
  vscode = await openVsCode(await makeWorkspace());
});
after(async () => vscode?.close());

/** Picks `text` in the open quick pick. */
async function pick(text: string): Promise<void> {
  const { page } = vscode;
  await page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first().waitFor({ timeout: 30_000 });
  await page.locator(".quick-input-widget input").fill(text);
  await page.keyboard.press("Enter");
}

/** Answers the open input box with `text`. */
async function answer(text: string): Promise<void> {
  const { page } = vscode;
  const input = page.locator(".quick-input-widget input");
  await input.waitFor();
  await input.fill(text);
  await page.keyboard.press("Enter");
}

test("the explorer opens on the running emulator, and a connection that fails does not replace it", async () => {
  const { page } = vscode;
  await runCommand(page, "Table Design: Start the Embedded Emulator");
  await page.locator(".notification-toast", { hasText: "Table emulator running at" }).first().waitFor({ timeout: 60_000 });

  // Opened after the emulator started: connected at once, no click.
  await runCommand(page, "Table Design: Open Table Explorer");
  const explorer = await webviewWith(page, ".connections li.active");
  assert.match(await explorer.locator(".connections li.active").innerText(), /Emulator/);
  await explorer.locator("input.new-table").fill("Kept");
  await explorer.locator("button.create").click();
  await explorer.locator(".tables li", { hasText: "Kept" }).first().waitFor({ timeout: 30_000 });

  // An account that does not answer (nothing listens on port 9), connected from the explorer.
  await explorer.locator("button.connect").click();
  await pick("Connection string");
  await answer("DefaultEndpointsProtocol=http;AccountName=nobody;AccountKey=bm9ib2R5;TableEndpoint=http://127.0.0.1:9/nobody");
  // Its name: the suggested one.
  await page.locator(".quick-input-widget .quick-input-title", { hasText: "Name this connection" }).waitFor();
  await page.keyboard.press("Enter");

  // The error says what failed, quoting no key; the emulator stays active with its tables.
  const error = explorer.locator(".error .error-message");
  await error.first().waitFor({ timeout: 60_000 });
  const message = await error.first().innerText();
  assert.doesNotMatch(message, /bm9ib2R5/);
  assert.match(await explorer.locator(".connections li.active").innerText(), /Emulator/);
  assert.equal(await explorer.locator(".tables li", { hasText: "Kept" }).count(), 1);
});

test("a stress test of an append-only design is judged hot, its quick fix is not, and the heatmap shows the traffic then idles", async () => {
  const { page } = vscode;
  await runCommand(page, "Table Design: Show the Emulator's Key-space Heatmap");
  const heatmap = await webviewWith(page, ".heatmap-summary");

  await openFile(page, "by-order-number.tdl");
  await runCommand(page, "Table Design: Run a Partition Stress Test…");
  await pick("PurchasesByOrderNumber");
  await pick("design");
  await answer("3");
  await pick("Compare with the quick fix");

  // While it runs, the heatmap fills.
  await heatmap.locator(".heatmap-summary", { hasText: /last second: [1-9][\d,]* entities\/s/ }).waitFor({ timeout: 60_000 });

  const report = await webviewWith(page, ".run + .run .verdict", 180_000);
  const verdicts = await report.locator(".run .verdict").allInnerTexts();
  assert.equal(verdicts.length, 2);
  assert.match(verdicts[0], /Hot:/, `as designed: ${verdicts[0]}`);
  assert.doesNotMatch(verdicts[1], /Hot:/, `with the fix: ${verdicts[1]}`);
  assert.match(verdicts[0], /scaled to this machine|calibrated/);

  // Traffic stopped: the heatmap's summary returns to idle.
  await heatmap.locator(".heatmap-summary", { hasText: /^Idle: no traffic since/ }).waitFor({ timeout: 60_000 });
});
