/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  goTo,
  makeWorkspace,
  openFile,
  openVsCode,
  quickFix,
  runCommand,
  VsCodeSession,
  waitForLine,
  webviewWith,
} from "../helpers/vscode";

const BROKEN = `// A design with a syntax error on line 5.
table Orders {
  Customer: string(20)
  OrderId:  int(0..99999)
  partitionKey = Customer +
  rowKey       = pad(OrderId, 5)
}
`;

let vscode: VsCodeSession;
before(async () => {
  vscode = await openVsCode(await makeWorkspace({ "broken.tdl": BROKEN }));
});
after(async () => vscode?.close());

test("a syntax error shows as a squiggle and in the Problems panel", async () => {
  const { page } = vscode;
  await openFile(page, "broken.tdl");
  await page.locator(".squiggly-error").first().waitFor({ timeout: 30_000 });
  await page.keyboard.press("Control+Shift+M");
  const row = page.locator(".markers-panel .monaco-list-row", { hasText: "expected a key part" });
  await row.first().waitFor({ timeout: 15_000 });
  const text = await row.first().innerText();
  assert.match(text, /expected a key part: a property name, a "string" or a function such as pad\(P, 5\), found 'rowKey'/);
  assert.match(text, /\[Ln 6, Col 3\]/);
});

test("the outline shows the tables of a design", async () => {
  const { page } = vscode;
  await openFile(page, "ledger.tdl");
  await runCommand(page, "Explorer: Focus on Outline View");
  const pane = page.locator(".pane", { has: page.locator(".pane-header", { hasText: "Outline" }) });
  await pane.locator(".monaco-list-row", { hasText: "LedgerByAccount" }).first().waitFor({ timeout: 30_000 });
  // Collapse the tables so that both fit in the pane.
  await pane.locator(".pane-header").hover();
  await pane.locator(".action-label.codicon-collapse-all").click();
  await pane.locator(".monaco-list-row .label-name", { hasText: /^Ledger$/ }).waitFor({ timeout: 10_000 });
  const rows = await pane.locator(".monaco-list-row .label-name").allInnerTexts();
  assert.deepEqual(rows, ["LedgerByAccount", "Ledger"]);
});

test("a quick fix from Ctrl+. removes its diagnostic", async () => {
  const { page } = vscode;
  await openFile(page, "composite-colon.tdl");
  await page.locator(".squiggly-warning").first().waitFor({ timeout: 30_000 });
  // The separator ":" after SellerID is on line 20, column 54.
  await goTo(page, 20, 55);
  await quickFix(page, 'Use "," as the separator');
  // The preferred fix is the first, focused entry of the menu.
  await page.keyboard.press("Enter");
  const line = page.locator(".view-line", { hasText: "partitionKey" });
  await waitForLine(page, 'SellerID + "," + pad(CardID, 6)');
  await page.locator(".squiggly-warning").first().waitFor({ state: "detached", timeout: 15_000 });
  assert.match(
    (await line.first().innerText()).replace(/\u00a0/g, " "),
    /pad\(DeviceID, 5\) \+ ":" \+ SellerID \+ "," \+ pad\(CardID, 6\)/,
  );
});

test("a TypeScript key builder shows its diagnostic and its fix applies", async () => {
  const { page } = vscode;
  await openFile(page, "registrations.ts");
  // `r.bib` in `BIB:${r.bib}__…` is on line 29, column 20 (brought into view first: the Problems panel may be open).
  await goTo(page, 29, 22);
  await page.locator(".squiggly-warning").first().waitFor({ timeout: 60_000 });
  const action = await quickFix(page, "Pad to 5 digits");
  await action.click({ force: true });
  await waitForLine(page, 'rowKey: `BIB:${String(r.bib).padStart(5, "0")}__${r.name}__${r.gender}__${age}`');
});

test("the explorer connects to the embedded emulator, creates a table, classifies and runs a filter", async () => {
  const { page } = vscode;
  await runCommand(page, "Table Design: Open Table Explorer");
  const webview = await webviewWith(page, ".connections li.active");
  await webview.locator("input.new-table").fill("Registrations");
  await webview.locator("button.create").click();
  await webview.locator(".tables li.active", { hasText: "Registrations" }).waitFor({ timeout: 30_000 });
  await webview.locator(".filter-editor .monaco-editor").click();
  await page.keyboard.type("PartitionKey eq 'Berlin' and RowKey ge 'BIB:'", { delay: 5 });
  await webview.locator(".badge", { hasText: "row-range · 1 partition" }).waitFor();
  await webview.locator("button.run").click();
  await webview
    .locator(".cost", { hasText: /1 request · 1 page · 0 continuation tokens followed · 0 entities · \d+ ms · row-range · 1 partition/ })
    .waitFor({ timeout: 30_000 });
});

test("a short stress test from the command palette opens its report", async () => {
  const { page } = vscode;
  await openFile(page, "marathon.tdl");
  await runCommand(page, "Table Design: Run a Partition Stress Test…");
  const pick = async (text: string) => {
    await page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first().waitFor({ timeout: 15_000 });
    await page.locator(".quick-input-widget input").fill(text);
    await page.keyboard.press("Enter");
  };
  await pick("Registrations");
  await pick("spread");
  await page.locator(".quick-input-widget input").fill("2");
  await page.keyboard.press("Enter");
  const frame = await webviewWith(page, ".run .verdict");
  assert.match(
    await frame.locator(".run .verdict").first().innerText(),
    /Hottest partition: [\d,.]+ entit(?:y|ies)\/s \(target [\d,.]+ entities\/s\)/,
  );
  assert.equal(await frame.locator(".run canvas").count(), 3);
});

test("the key-space heatmap shows traffic from a running stress test", async () => {
  const { page } = vscode;
  await runCommand(page, "Table Design: Show the Emulator's Key-space Heatmap");
  const heatmap = await webviewWith(page, ".heatmap-summary");
  await openFile(page, "marathon.tdl");
  await runCommand(page, "Table Design: Run a Partition Stress Test…");
  for (const text of ["Registrations", "single-partition"]) {
    await page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first().waitFor({ timeout: 15_000 });
    await page.locator(".quick-input-widget input").fill(text);
    await page.keyboard.press("Enter");
  }
  await page.locator(".quick-input-widget input").fill("4");
  await page.keyboard.press("Enter");
  // While the test runs, the heatmap fills: the hot partition's row lights up.
  await heatmap.locator(".heatmap-summary", { hasText: /stress-hot|[1-9][\d,]* entities\/s/ }).waitFor({ timeout: 30_000 });
  assert.match(await heatmap.locator(".heatmap-summary").innerText(), /partition key.* · last second: [1-9][\d,]* entities\/s/);
});
