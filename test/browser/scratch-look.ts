import { FidelityEmulator } from "../../client/src/emulator/fidelity-emulator";
import { ExplorerController } from "../../client/src/panel/explorer-controller";
import { openHarness, Harness } from "../helpers/webview-harness";
import { MemoryStore, ScriptedUi } from "../helpers/memory-store";
import { toJson } from "../../client/src/account/transfer";

async function main() {
  const emu = await FidelityEmulator.start();
  const ui = new ScriptedUi(emu);
  let harness: Harness<"explorer"> | undefined;
  const controller = new ExplorerController(new MemoryStore(), ui, (e) => harness?.emit(e));
  harness = await openHarness(controller.view());
  const { page } = harness;
  try {
    await page.screenshot({ path: "/tmp/wv/0-start.png" });
    await page.locator("button.emulator").click();
    await page.locator(".connections li.active").waitFor();
    await page.screenshot({ path: "/tmp/wv/1-connected.png" });
    await page.locator("input.new-table").fill("Orders");
    await page.locator("button.create").click();
    await page.locator(".tables li.active").waitFor();
    ui.importText.json = toJson(Array.from({ length: 30 }, (_, i) => ({ partitionKey: `p${i % 3}`, rowKey: String(i).padStart(5, "0"), properties: { Age: { type: "Int32" as const, value: String(i) }, Name: { type: "String" as const, value: `name ${i}` } } })));
    await page.locator("button.import").click();
    await page.locator("button.import-json").click();
    await page.waitForTimeout(3000);
    console.log("error:", await page.locator(".error").innerText(), "cost:", await page.locator(".cost").innerText(), "count:", await page.locator(".count").innerText());
    console.log(harness.logs.join("\n")); console.log(JSON.stringify(harness.sent.filter((m) => m.type === "response" && !m.ok)));
    await page.screenshot({ path: "/tmp/wv/1b.png" });
    await page.locator(".count", { hasText: "30 entities" }).waitFor();
    await page.screenshot({ path: "/tmp/wv/2-rows.png" });
    await page.setViewportSize({ width: 400, height: 800 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: "/tmp/wv/3-narrow.png" });
    await page.evaluate(() => { document.body.className = "vscode-dark"; });
    await page.waitForTimeout(300);
    await page.screenshot({ path: "/tmp/wv/4-dark-narrow.png" });
  } finally {
    await harness.close();
    await emu.stop();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
