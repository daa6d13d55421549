/**
 * The key-space heatmap in real Chromium, served by the panel's own view
 * spec: it fits a narrow panel with the newest second at the right edge,
 * labels keys and time, has a legend with units, zooms into a key range
 * and a time range and back, says "idle" when traffic stops, keeps its
 * text readable in every theme, and writes the README's screenshot.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { Harness, openHarness } from "../helpers/webview-harness";
import heatmap from "@client/pages/heatmap";
import type { Served } from "@client/pages/host-page";
import { servePage } from "../helpers/page-services";
import type { TrafficSecond } from "@protocol/traffic";
import { applyTheme, ThemeName } from "./themes";
import { lowContrast } from "./contrast";

/** Fixed data (no clock, no randomness): the screenshot changes only when the page does. */
const START = Date.UTC(2026, 0, 1, 12, 0, 0);
const SECONDS = 90;
function second(i: number): TrafficSecond {
  const partitions: TrafficSecond["partitions"] = {};
  for (let k = 0; k < 60; k++) {
    const rate = ((k * 7 + i * 3) % 11) + (k % 10 === 0 ? 40 : 0);
    partitions[`Orders/${String(k).padStart(3, "0")}`] = { reads: rate, writes: Math.floor(rate / 2), throttled: 0 };
  }
  // An append-only hot key that grows, throttled at its peak.
  partitions["Orders/999-latest"] = { reads: 0, writes: 200 + i * 20, throttled: i > 60 ? 50 + i : 0 };
  return { t: START + i * 1000, partitions };
}
const initial = Array.from({ length: SECONDS }, (_, i) => second(i));
const newest = START + (SECONDS - 1) * 1000;

let harness: Harness<"heatmap">;
let served: Served<"heatmap"> | undefined;
before(async () => {
  // The panel's own service, over an emulator that recorded `initial` and is quiet now.
  const emulator = {
    running: true,
    start: () => Promise.reject(new Error("running")),
    recentTraffic: () => initial,
    onTraffic: () => undefined,
    offTraffic: () => undefined,
  };
  const page = servePage(heatmap, { emulator }, { now: () => newest + 1200 });
  served = page.served;
  harness = await openHarness(page.spec, { viewport: { width: 560, height: 520 }, timezoneId: "UTC", locale: "en-GB" });
  await harness.page.locator(".heatmap-plot[data-rows]").waitFor();
});
after(async () => {
  served?.dispose?.();
  await harness?.close();
});

/** The colour of the canvas at CSS pixel (x, y) of the plot. */
async function pixel(x: number, y: number): Promise<number[]> {
  return harness.page.evaluate(
    ([px, py]) => {
      const c = document.querySelector("canvas.heatmap-canvas") as HTMLCanvasElement;
      const r = window.devicePixelRatio || 1;
      return [...c.getContext("2d")!.getImageData(Math.round(px * r), Math.round(py * r), 1, 1).data];
    },
    [x, y],
  );
}

const plotBox = async () => (await harness.page.locator(".heatmap-plot").boundingBox())!;

test("screenshot for the README (dark theme, fixed data)", async () => {
  const { page } = harness;
  await page.setViewportSize({ width: 900, height: 480 });
  await applyTheme(page, "dark");
  mkdirSync("docs/images", { recursive: true });
  await page.screenshot({ path: "docs/images/heatmap.png" });
  await page.setViewportSize({ width: 560, height: 520 });
  await applyTheme(page, "light");
});

test("the map fits a narrow panel, and the newest second is drawn at its right edge", async () => {
  const { page } = harness;
  const overflow = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    canvas: document.querySelector("canvas")!.getBoundingClientRect().right,
  }));
  assert.ok(overflow.scroll <= overflow.client, `no horizontal scrolling: ${JSON.stringify(overflow)}`);
  assert.ok(overflow.canvas <= overflow.client, "the canvas ends inside the panel");
  const box = await plotBox();
  // The hot key sorts last; the bottom row's rightmost cell is the newest second's.
  const rows = Number(await page.locator(".heatmap-plot").getAttribute("data-rows"));
  assert.ok(rows > 1 && rows <= 61, `${rows} rows`);
  await page.mouse.move(box.x + box.width - 7, box.y + 5);
  const tip = await page.locator(".heatmap-tip").innerText();
  assert.match(tip, /^Orders\/000 … Orders\/\d{3} \(\d+ keys\)\n12:01:29 · [\d,]+ entities\/s/);
  const right = await pixel(box.width - 7, 5);
  assert.ok(right[3] === 255, `a drawn cell at the right edge: ${right}`);
});

test("key labels, a time axis and a legend with units", async () => {
  const { page } = harness;
  const box = await plotBox();
  // Text drawn in the key gutter (left of the cells) and along the time axis (below them).
  const gutter = Math.min(160, Math.max(64, box.width * 0.28));
  const inked = await page.evaluate(
    ({ w, h, left }) => {
      const c = document.querySelector("canvas.heatmap-canvas") as HTMLCanvasElement;
      const r = window.devicePixelRatio || 1;
      const count = (x: number, y: number, cw: number, ch: number) => {
        const d = c.getContext("2d")!.getImageData(x * r, y * r, cw * r, ch * r).data;
        let n = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
        return n;
      };
      return { gutter: count(0, 0, left - 2, h - 30), axis: count(left, h - 20, w - left, 18) };
    },
    { w: box.width, h: box.height, left: Math.floor(gutter) },
  );
  assert.ok(inked.gutter > 200 && inked.axis > 200, `labels drawn: ${JSON.stringify(inked)}`);
  assert.match(
    await page.locator(".heatmap-legend").innerText(),
    /^0\s+[\d,]+\s+[\d,]+ entities\/s\s+entities\/s per key range and second \(log scale\)\s+outlined: throttled requests$/,
  );
  assert.match(
    (await page.locator(".heatmap-canvas").getAttribute("aria-label")) ?? "",
    /^Heatmap of 61 partition keys in \d+ rows over 120 seconds\./,
  );
});

test("dragging zooms into a key range and a time range; Zoom out and Show all go back", async () => {
  const { page } = harness;
  const box = await plotBox();
  const before = Number(await page.locator(".heatmap-plot").getAttribute("data-keys"));
  // From the middle of the map down and right to the newest second: the time range keeps following it.
  const gutter = Math.min(160, Math.max(64, box.width * 0.28));
  await page.mouse.move(box.x + gutter + (box.width - gutter) / 2, box.y + 30);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 6, box.y + 90, { steps: 4 });
  await page.mouse.up();
  await page.locator(".heatmap-zoom-text", { hasText: /^Showing keys Orders\/\d{3} … Orders\/\d{3}, the last \d+ seconds\.$/ }).waitFor();
  const zoomed = Number(await page.locator(".heatmap-plot").getAttribute("data-keys"));
  assert.ok(zoomed < before && zoomed > 1, `${zoomed} of ${before} keys in view`);
  assert.ok(Number(await page.locator(".heatmap-plot").getAttribute("data-seconds")) < 120);
  // Across only: a fixed time range (it ends before the newest second).
  await page.mouse.move(box.x + gutter + 20, box.y + 50);
  await page.mouse.down();
  await page.mouse.move(box.x + gutter + 80, box.y + 52, { steps: 4 });
  await page.mouse.up();
  await page.locator(".heatmap-zoom-text", { hasText: /^Showing keys .*, 12:\d\d:\d\d–12:\d\d:\d\d\.$/ }).waitFor();
  assert.equal(Number(await page.locator(".heatmap-plot").getAttribute("data-keys")), zoomed, "a drag across keeps the keys");
  await page.locator("button.zoom-out").click();
  await page.locator(".heatmap-zoom-text", { hasText: /the last \d+ seconds\.$/ }).waitFor();
  await page.locator("button.zoom-reset").click();
  await page.locator(".heatmap-zoom-text", { hasText: "Showing every key, the last 120 seconds. Drag across" }).waitFor();
  assert.equal(Number(await page.locator(".heatmap-plot").getAttribute("data-keys")), before);
  assert.ok(await page.locator("button.zoom-out").isDisabled());
});

test("from the keyboard: arrows move, Shift+arrows select, Enter zooms into the selection, minus zooms out", async () => {
  const { page } = harness;
  const plot = page.locator(".heatmap-plot");
  const before = Number(await plot.getAttribute("data-keys"));
  await plot.focus();
  // The first arrow places the cursor on the newest second of the first row.
  await page.keyboard.press("ArrowDown");
  for (let i = 0; i < 3; i++) await page.keyboard.press("Shift+ArrowDown");
  for (let i = 0; i < 9; i++) await page.keyboard.press("Shift+ArrowLeft");
  assert.ok(await page.locator(".heatmap-band").isVisible(), "the selection is drawn");
  assert.match(await page.locator(".heatmap-tip").innerText(), /entities\/s/);
  await page.keyboard.press("Enter");
  await page.locator(".heatmap-zoom-text", { hasText: /^Showing keys Orders\/\d{3} … Orders\/\d{3}, the last 10 seconds\.$/ }).waitFor();
  assert.equal(await plot.getAttribute("data-seconds"), "10");
  assert.ok(Number(await plot.getAttribute("data-keys")) < before);
  await page.keyboard.press("-");
  await page.locator(".heatmap-zoom-text", { hasText: "Showing every key, the last 120 seconds." }).waitFor();
  assert.equal(Number(await plot.getAttribute("data-keys")), before);
});

test("the summary follows the newest second, adds up a second sent twice, and returns to idle when traffic stops", async () => {
  const { page } = harness;
  await page
    .locator(".heatmap-summary", {
      hasText:
        /^61 partition keys in view · last second: [\d,]+ entities\/s at 12:01:29 \([\d,]+ read, [\d,]+ written, over 61 partitions\) · 139 throttled$/,
    })
    .waitFor();
  const t = newest + 2000;
  harness.emit({ type: "traffic", second: { t, partitions: { "Orders/hot": { reads: 100, writes: 50, throttled: 0 } } } });
  harness.emit({
    type: "traffic",
    second: { t, partitions: { "Orders/hot": { reads: 0, writes: 30, throttled: 7 }, "Orders/x": { reads: 1, writes: 0, throttled: 0 } } },
  });
  await page
    .locator(".heatmap-summary", {
      hasText:
        /^63 partition keys in view · last second: 181 entities\/s at 12:01:31 \(101 read, 80 written, over 2 partitions\) · 7 throttled$/,
    })
    .waitFor();
  for (let i = 1; i <= 3; i++) harness.emit({ type: "traffic", second: { t: t + i * 1000, partitions: {} } });
  await page
    .locator(".heatmap-summary.idle", {
      hasText: /^Idle: no traffic since 12:01:31 \(3 seconds before 12:01:34\) · 63 partition keys in view\.$/,
    })
    .waitFor();
  assert.equal(await page.locator(".heatmap-plot").getAttribute("data-newest"), String(t + 3000), "time moved on while idle");
});

for (const theme of ["light", "dark", "hc-dark", "hc-light"] as ThemeName[]) {
  test(`heatmap text is readable in the ${theme} theme at 400 px`, async () => {
    const { page } = harness;
    await page.setViewportSize({ width: 400, height: 520 });
    await applyTheme(page, theme);
    const low = await lowContrast(page);
    assert.deepEqual(low, [], `contrast below 4.5:1 in ${theme}`);
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    assert.ok(fits, "no horizontal scrolling at 400 px");
    // The key labels drawn on the canvas took the new theme's text colour: light text on dark themes, dark on light.
    const ink = await page.evaluate(() => {
      const c = document.querySelector("canvas.heatmap-canvas") as HTMLCanvasElement;
      const r = window.devicePixelRatio || 1;
      const d = c.getContext("2d")!.getImageData(0, 0, Math.floor(60 * r), Math.floor(c.height / 2)).data;
      let sum = 0;
      let weight = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] < 200) continue;
        sum += (0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]) / 255;
        weight++;
      }
      return weight ? sum / weight : -1;
    });
    const dark = theme === "dark" || theme === "hc-dark";
    assert.ok(ink >= 0 && (dark ? ink > 0.6 : ink < 0.4), `label ink ${ink} in ${theme}`);
  });
}
