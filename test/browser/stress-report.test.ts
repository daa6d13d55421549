import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { EmbeddedEmulator } from "../../client/src/emulator/azurite";
import { runStress } from "../../client/src/stress/engine";
import { proposedAlternative } from "../../client/src/stress/compare";
import { StressReport } from "../../client/src/stress/report";
import { Harness, openHarness } from "../helpers/webview-harness";

let emu: EmbeddedEmulator;
let harness: Harness;
const runs: Array<{ label: string; report: StressReport }> = [];

before(async () => {
  emu = await EmbeddedEmulator.start();
  const text = readFileSync("examples/student-cards/by-order-number.tdl", "utf8");
  const alt = proposedAlternative(text, "PurchasesByOrderNumber")!;
  assert.match(alt.text, /partitionKey = hash\(OrderNumber, 4\) \+ "_" \+ pad\(OrderNumber, 10\)/);
  for (const [label, t] of [["as designed", text], ["with the fix", alt.text]] as const) {
    const report = await runStress({
      connection: { id: "e", name: "e", kind: "emulator", endpoint: emu.endpoint }, secret: { connectionString: emu.connectionString },
      design: { text: t, file: "by-order-number.tdl", table: "PurchasesByOrderNumber" }, mode: "design", scale: 0.05, durationMs: 1200, concurrency: 8, preload: 20,
    });
    runs.push({ label, report });
  }
  harness = await openHarness(async () => undefined, "stress-report", { runs });
});
after(async () => {
  await harness?.close();
  await emu?.stop();
});

test("two designs side by side: verdicts, figures and three charts each", async () => {
  const { page } = harness;
  await page.locator(".run").nth(1).waitFor();
  assert.deepEqual(await page.locator(".run h1").allInnerTexts(), ["as designed", "with the fix"]);
  assert.equal(await page.locator(".run canvas").count(), 6);
  const verdicts = await page.locator(".run .verdict").allInnerTexts();
  assert.match(verdicts[0], new RegExp(`Hottest partition: ${runs[0].report.verdict.hottestPartitionEntitiesPerSecond.toLocaleString("en-US")} entities/s \\(target 2,000\\)`));
  assert.match(await page.locator(".run .ops").first().innerText(), /insert\s+[\d,.]+/);
  // The charts drew something: a canvas with non-blank pixels.
  const drawn = await page.evaluate(() => [...document.querySelectorAll("canvas")].map((c) => {
    const d = (c as HTMLCanvasElement).getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  }));
  assert.ok(drawn.every((n) => n > 500), JSON.stringify(drawn));
  // Append-only keys pile onto few partitions; the hash prefix spreads them.
  assert.ok(runs[1].report.partitions.length > runs[0].report.partitions.length);
});
