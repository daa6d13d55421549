import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Harness, openHarness } from "../helpers/webview-harness";
import { heatmapView } from "../../client/src/panel/views";
import type { TrafficSecond } from "../../webview/src/protocol";

let harness: Harness<"heatmap">;
const now = Date.now() - (Date.now() % 1000);
const second = (i: number, hot: number, throttled: number): TrafficSecond => ({
  t: now + i * 1000,
  partitions: {
    "Orders/hot": { reads: 0, writes: hot, throttled },
    ...Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`Orders/p${String(k).padStart(3, "0")}`, { reads: 2, writes: 3, throttled: 0 }])),
  },
});

before(async () => {
  harness = await openHarness(heatmapView(() => [second(0, 150, 0), second(1, 200, 40)]));
});
after(async () => harness?.close());

test("the heatmap draws partitions down and seconds across, and marks throttling", async () => {
  const { page } = harness;
  await page.locator(".heatmap-summary", { hasText: "101 partition keys in 34 rows · last second: 700 entities/s · 40 throttled" }).waitFor();
  harness.emit({ type: "traffic", second: second(2, 2500, 900) });
  await page.locator(".heatmap-summary", { hasText: "last second: 3,000 entities/s · 900 throttled" }).waitFor();
  // The newest column is at the right edge; the hot key sorts first ("Orders/hot" < "Orders/p000"), so row 0 holds it.
  const pixel = await page.evaluate(() => {
    const c = document.querySelector("canvas.heatmap-canvas") as HTMLCanvasElement;
    const d = c.getContext("2d")!.getImageData(c.width - 6, 6, 1, 1).data;
    return [...d];
  });
  assert.ok(pixel[3] === 255 && pixel[0] + pixel[1] + pixel[2] > 0, `a drawn cell: ${pixel}`);
  const box = (await page.locator("canvas.heatmap-canvas").boundingBox())!;
  await page.mouse.move(box.x + box.width - 4, box.y + 5);
  const tip = await page.locator(".heatmap-tip").innerText();
  assert.match(tip, /^Orders\/hot … Orders\/p001\n.* · 2,510 entities\/s · 26% throttled$/);
});
