/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * A command's failure in a real VS Code says what went wrong in a
 * notification of its own, by the failure's kind — never VS Code's generic
 * "Running the contributed command … failed" toast, which the heatmap,
 * start-emulator and connect commands used to reach. The embedded
 * emulator's port is taken (the workspace's settings name a port this test
 * holds), so starting it fails as `unavailable`.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, Server } from "node:net";
import * as path from "node:path";
import { makeWorkspace, openVsCode, runCommand, VsCodeSession } from "../helpers/vscode";

let vscode: VsCodeSession;
let taken: Server;
let port = 0;
before(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
  const workspace = await makeWorkspace();
  mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
  writeFileSync(path.join(workspace, ".vscode", "settings.json"), JSON.stringify({ "tableDesign.emulator.port": port }));
  vscode = await openVsCode(workspace);
});
after(async () => {
  await vscode?.close();
  taken?.close();
});

/** The toasts shown so far, as their text. */
async function toasts(): Promise<string[]> {
  return vscode.page.locator(".notification-toast").allInnerTexts();
}

for (const title of ["Start the Embedded Emulator", "Show the Emulator's Key-space Heatmap"]) {
  test(`'${title}' on a taken port: an error that says the emulator could not start, not VS Code's generic toast`, async () => {
    const { page } = vscode;
    await runCommand(page, `Table Design: ${title}`);
    const toast = page.locator(".notification-toast", { hasText: `${title}: Could not start the table emulator` });
    await toast.first().waitFor({ timeout: 60_000 });
    const text = await toast.first().innerText();
    assert.match(text, new RegExp(`EADDRINUSE.*127\\.0\\.0\\.1:${port}`));
    // The cause behind the sentence is one button away, in the output channel.
    assert.match(text, /Show Output/);
    assert.deepEqual(
      (await toasts()).filter((t) => /Running the contributed command|resulted in an error/.test(t)),
      [],
    );
    await page
      .locator(".notification-toast .codicon-notifications-clear")
      .first()
      .click()
      .catch(() => undefined);
  });
}
