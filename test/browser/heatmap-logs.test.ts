/**
 * The heatmap page opened with a service's logs ("Open a Heatmap from
 * Storage Logs…"), in real Chromium, served as the panel serves it: the
 * logs' span shown whole in UTC, the hot partition's cells in entities
 * with their throttled share, the hottest partitions and the design
 * beside them listed below, and a hostile partition key shown as text.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Harness, openHarness } from "../helpers/webview-harness";
import heatmap from "@client/pages/heatmap";
import { servePage } from "../helpers/page-services";
import { compareWithDesign, readLogHeatmap } from "@runtime";
import { shopsDesign } from "../helpers/shops-design";

const DESIGN = shopsDesign("  insert Place 100/s");
const HOSTILE = `<img src=x onerror="document.title='pwned'">`;

/** 90 seconds of StorageTableLogs rows: `hot` writes 40 a second and is throttled from second 60; two quiet shops; one hostile key. */
function rows(): string[] {
  const out: string[] = [];
  const row = (s: number, pk: string, status = 204, n = 1) => {
    const time = new Date(Date.UTC(2026, 10, 24, 13, 0, s)).toISOString();
    for (let i = 0; i < n; i++)
      out.push(
        JSON.stringify({
          TimeGenerated: time,
          OperationName: "InsertOrReplaceEntity",
          StatusCode: status,
          StatusText: status === 503 ? "ThrottlingError" : "Success",
          Uri: `https://acct.table.core.windows.net/Orders(PartitionKey='${encodeURIComponent(pk.replace(/'/g, "''"))}',RowKey='${s}-${i}')`,
        }),
      );
  };
  for (let s = 0; s < 90; s++) {
    row(s, "hot", 204, 40);
    if (s >= 60) row(s, "hot", 503, 10);
    if (s % 3 === 0) row(s, "quiet", 204);
    if (s % 5 === 0) row(s, "calm", 204);
  }
  row(45, HOSTILE);
  return out;
}

let harness: Harness<"heatmap">;
let dir: string;
before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "tdl-heatmap-page-"));
  const file = path.join(dir, "StorageTableLogs.json");
  writeFileSync(file, rows().join("\n") + "\n");
  const logs = await readLogHeatmap(file);
  logs.design = compareWithDesign(logs, DESIGN, "orders.tdl");
  const page = servePage(heatmap, {}, { logs, title: "Heatmap: StorageTableLogs.json" });
  harness = await openHarness(page.spec, { viewport: { width: 900, height: 700 }, timezoneId: "America/New_York", locale: "en-GB" });
  await harness.page.locator(".heatmap-plot[data-rows]").waitFor();
});
after(async () => {
  await harness?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the logs' span whole, in UTC, in columns of a second, with the logs' title and summary", async () => {
  const { page } = harness;
  assert.equal(await page.locator(".heatmap h1").innerText(), "Heatmap: StorageTableLogs.json");
  assert.match(
    await page.locator(".heatmap-summary").innerText(),
    /^3,949 log entries read \(0 skipped as malformed\), 2026-11-24T13:00:00\.000Z – 2026-11-24T13:01:29\.000Z; cells of a second; 4 partitions\.$/,
  );
  assert.equal(
    await page.locator(".heatmap-zoom-text").innerText(),
    "Showing every key, 13:00:00–13:01:29 UTC. Drag across the map to zoom into a key range and a time range.",
  );
  assert.equal(await page.locator(".heatmap-plot").getAttribute("data-seconds"), "90");
  assert.equal(await page.locator(".heatmap-plot").getAttribute("data-keys"), "4");
  assert.match(await page.locator(".heatmap-legend").innerText(), /entities per key range and second \(log scale\)/);
});

test("a cell of the hot partition: its entities in the second, and the share throttled", async () => {
  const { page } = harness;
  const box = (await page.locator(".heatmap-plot").boundingBox())!;
  // Keys in key order: <img…, Orders/calm, Orders/hot, Orders/quiet — four rows; the hot one is the third.
  const rows = Number(await page.locator(".heatmap-plot").getAttribute("data-rows"));
  assert.equal(rows, 4);
  // Rows are at most 28 px high (webview/heatmap/draw.ts), from the top of the plot.
  const rowHeight = Math.min(28, (box.height - 22) / 4);
  await page.mouse.move(box.x + box.width - 7, box.y + rowHeight * 2.5);
  assert.equal(await page.locator(".heatmap-tip").innerText(), "Orders/hot\n13:01:29 · 40 entities (0 read, 40 written) · 20% throttled");
});

test("below the map: the hottest partitions, the design beside them, and a hostile key as text", async () => {
  const { page } = harness;
  const first = await page.locator(".heatmap-lists table").first().locator("tbody tr").first().innerText();
  assert.deepEqual(first.split("\t"), ["Orders", "hot", "0", "3,600", "300", "3,900", "0", "40", "Orders: Shop"]);
  assert.match(await page.locator(".heatmap-design h3").innerText(), /^Orders as Orders: partitionKey = Shop \(3 of 4 keys match\)$/);
  assert.match(
    await page.locator(".heatmap-design p").innerText(),
    /^Predicted hottest partition: [\d.,]+ entities\/s, [\d.]+ % of the load \(Place [\d.,]+\/s\)\. Observed hottest against it: \+220\.0 % in rate, \+86\.2 points in share\.$/,
  );
  assert.ok(await page.getByText(HOSTILE).first().isVisible(), "the key is shown as text");
  assert.equal(await page.locator("img").count(), 0);
  assert.notEqual(await page.title(), "pwned");
});
