import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { makeWorkspace, openFile, openVsCode, runCommand, VsCodeSession } from "../helpers/vscode";

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
  vscode = await openVsCode(makeWorkspace({ "broken.tdl": BROKEN }));
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
