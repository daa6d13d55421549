/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The packaged extension as a user gets it: `npm run package` builds the
 * VSIX, code-server's own installer (`--install-extension`) puts it into a
 * fresh code-server, and the embedded emulator starts from what the VSIX
 * holds — no node_modules/ beside it, nothing from the repository.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { AccountSession } from "@runtime/account/session";
import { emulatorConnectionString } from "@runtime/account/connection-string";
import { makeWorkspace, openFile, openVsCode, runCommand, VsCodeSession, webviewWith } from "../helpers/vscode";

const ROOT = path.resolve(__dirname, "../..");
const VSIX = path.join(ROOT, "dist", "table-design-assistant.vsix");
/** The goal for the package (it was 49–80 MB with Azurite's node_modules/ inside). */
const MAX_VSIX_BYTES = 20 * 1024 * 1024;

let vscode: VsCodeSession;
let installed: string;

before(async () => {
  const packaged = spawnSync("npm", ["run", "package"], { cwd: ROOT, encoding: "utf8", timeout: 300_000 });
  assert.equal(packaged.status, 0, `npm run package failed:\n${packaged.stdout}\n${packaged.stderr}`);
  vscode = await openVsCode(await makeWorkspace({ "broken.tdl": "table T {\n  A: string(10)\n  partitionKey = A +\n  rowKey = A\n}\n" }), {
    vsix: VSIX,
  });
  const folders = readdirSync(vscode.extensionsDir).filter((f) => f.startsWith("table-design.table-design-assistant-"));
  assert.equal(folders.length, 1, `code-server installed: ${readdirSync(vscode.extensionsDir).join(", ")}`);
  installed = path.join(vscode.extensionsDir, folders[0]);
});
after(async () => vscode?.close());

test("the VSIX is under 20 MB and installs without node_modules, its bundles complete", () => {
  const size = statSync(VSIX).size;
  assert.ok(size <= MAX_VSIX_BYTES, `the VSIX is ${(size / 1048576).toFixed(1)} MB`);
  assert.ok(!existsSync(path.join(installed, "node_modules")), "the installed extension carries a node_modules/ folder");
  for (const f of [
    "extension.js",
    "server.js",
    "cli.js",
    "ts-analyzer.js",
    "azurite-table.js",
    "azure-identity.js",
    "webview.js",
    "THIRD-PARTY-NOTICES.txt",
  ]) {
    assert.ok(existsSync(path.join(installed, "dist", f)), `dist/${f} is missing from the installed extension`);
  }
  assert.match(readFileSync(path.join(installed, "dist", "THIRD-PARTY-NOTICES.txt"), "utf8"), /^azurite@3\.\d+\.\d+ \(MIT\)$/m);
});

/** PIDs of processes whose command line runs `file` (Linux: /proc). */
function processesRunning(file: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(file)) found.push(Number(pid));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

test("the packaged extension starts the embedded emulator from its own bundle, and tables made there are listed", async () => {
  const { page } = vscode;
  await runCommand(page, "Table Design: Start the Embedded Emulator");
  const toast = page.locator(".notification-toast", { hasText: "Table emulator running at" });
  await toast.first().waitFor({ timeout: 60_000 });
  const endpoint = /(http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1)/.exec(await toast.first().innerText())?.[1];
  assert.ok(endpoint, "the notification names the emulator's endpoint");
  const port = new URL(endpoint).port;
  await page
    .locator(".statusbar-item", { hasText: `Tables: emulator :${port}` })
    .first()
    .waitFor({ timeout: 15_000 });

  // Azurite runs from the VSIX's dist/azurite-table.js, not from any node_modules.
  assert.equal(processesRunning(path.join(installed, "dist", "azurite-table.js")).length, 1);

  // The emulator answers as Azure does: a table created through it is listed.
  const session = new AccountSession(
    { id: "emulator", name: "Emulator", kind: "emulator", endpoint },
    { connectionString: emulatorConnectionString(endpoint) },
  );
  await session.createTable("FromTheVsix");
  assert.ok((await session.listTables()).includes("FromTheVsix"));

  // And the explorer of the packaged extension lists it (its webview bundle loads from the VSIX too).
  await runCommand(page, "Table Design: Open Table Explorer");
  const explorer = await webviewWith(page, ".connections li");
  await explorer.locator(".connections li button.link", { hasText: "Emulator" }).first().click();
  await explorer.locator(".tables li", { hasText: "FromTheVsix" }).first().waitFor({ timeout: 30_000 });
});

test("the packaged language server checks .tdl designs and TypeScript key builders", async () => {
  const { page } = vscode;
  await openFile(page, "broken.tdl");
  await page.keyboard.press("Control+Shift+M");
  const problems = page.locator(".markers-panel .monaco-list-row");
  await problems.filter({ hasText: "expected a key part" }).first().waitFor({ timeout: 60_000 });
  // The TypeScript analysis (dist/ts-analyzer.js with dist/ts-lib) reports on the example's key builders.
  await openFile(page, "registrations.ts");
  // The panel lists the whole workspace's problems (every example design): its filter brings the row into view.
  await page.locator(".viewpane-filter input").first().fill("r.bib");
  await problems.filter({ hasText: "'r.bib' is a number entering the rowKey without padding" }).first().waitFor({ timeout: 60_000 });
});
