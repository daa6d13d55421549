/**
 * How the stress report looks, in real Chromium: two runs (a design and its
 * quick fix, fixed data) in VS Code's light, dark and both high-contrast
 * themes, switched live as VS Code switches them, at 400 px wide. Every
 * text reads at 4.5:1 or more; the charts' labels are drawn in the new
 * theme's text colour and their bars in the theme's chart palette (pixels
 * read back from the canvases); the runs stack and nothing scrolls
 * sideways. Writes the README's screenshot from the fixed runs.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import report from "@client/pages/report";
import { servePage } from "../helpers/page-services";
import { Harness, openHarness } from "../helpers/webview-harness";
import { applyTheme, THEMES, ThemeName } from "./themes";
import { lowContrast } from "./contrast";
import { designAndFix } from "./report-runs";

let harness: Harness<"report">;

before(async () => {
  harness = await openHarness(servePage(report, { execute: async () => undefined }, { title: "Stress test", runs: designAndFix() }).spec, {
    viewport: { width: 1400, height: 900 },
    timezoneId: "UTC",
    locale: "en-GB",
  });
  await harness.page.locator(".run").nth(1).waitFor();
});
after(async () => harness?.close());

/** `#RRGGBB` as [r, g, b]. */
function rgb(hex: string): number[] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

/** What each chart's canvas holds: the colour of most of its opaque label pixels, and how many pixels have each of `colours`. */
function inks(colours: number[][]): Promise<Array<{ canvas: string; label: number[]; counts: number[] }>> {
  return harness.page.evaluate((wanted) => {
    return [...document.querySelectorAll<HTMLCanvasElement>(".run canvas")].map((c) => {
      const ctx = c.getContext("2d")!;
      const all = ctx.getImageData(0, 0, c.width, c.height).data;
      const counts = wanted.map(() => 0);
      for (let i = 0; i < all.length; i += 4) {
        if (all[i + 3] !== 255) continue;
        wanted.forEach(([r, g, b], k) => {
          if (all[i] === r && all[i + 1] === g && all[i + 2] === b) counts[k]++;
        });
      }
      // The y axis's numbers and title sit in the left strip; anti-aliased edges are not fully opaque and are left out.
      const strip = ctx.getImageData(0, 0, Math.min(40, c.width), c.height).data;
      const seen = new Map<string, number>();
      for (let i = 0; i < strip.length; i += 4) {
        if (strip[i + 3] !== 255) continue;
        const key = `${strip[i]},${strip[i + 1]},${strip[i + 2]}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
      const top = [...seen].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
      return { canvas: c.className, label: top ? top.split(",").map(Number) : [], counts };
    });
  }, colours);
}

/** WCAG contrast of two opaque colours. */
function contrast(a: number[], b: number[]): number {
  const lum = ([r, g, b]: number[]) => {
    const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test("screenshot for the README (dark theme, the design and its fix, fixed data)", async () => {
  const { page } = harness;
  await applyTheme(page, "dark");
  mkdirSync("docs/images", { recursive: true });
  await page.screenshot({ path: "docs/images/stress-report.png", fullPage: true, animations: "disabled" });
});

// One page, switched from theme to theme without a reload, as VS Code does.
for (const theme of ["light", "dark", "hc-dark", "hc-light"] as ThemeName[]) {
  test(`at 400 px in the ${theme} theme: readable text and chart labels, charts in the theme's colours, runs stacked`, async () => {
    const { page } = harness;
    await page.setViewportSize({ width: 400, height: 900 });
    await applyTheme(page, theme);
    assert.deepEqual(await lowContrast(page), [], `texts below 4.5:1 in ${theme}`);
    const c = THEMES[theme].colours;
    const background = rgb(c["editor-background"]);
    const [ink, red, blue] = [c["charts-foreground"], c["charts-red"], c["charts-blue"]].map(rgb);
    const canvases = await inks([red, blue]);
    assert.equal(canvases.length, 6);
    for (const { canvas, label } of canvases) {
      assert.deepEqual(label, ink, `the ${canvas} chart's labels in ${theme}'s text colour`);
      const ratio = contrast(label, background);
      assert.ok(ratio >= 4.5, `the ${canvas} chart's labels at ${ratio.toFixed(2)}:1 in ${theme}`);
    }
    // The latency bars of the inserts are the theme's blue: drawn again after the switch, not kept from the first theme
    // (their legend swatch alone is under 600 pixels; the bars are thousands).
    for (const x of canvases.filter((k) => k.canvas === "latency")) {
      assert.ok(x.counts[1] >= 2000, `the latency chart's inserts in ${theme}'s blue: ${JSON.stringify(x.counts)}`);
    }
    // The hot design's partitions above the target are drawn in the theme's red; the fix's, all below it, in its blue.
    const [hot, fixed] = canvases.filter((x) => x.canvas === "partitions");
    assert.ok(hot.counts[0] > 500, `red bars as designed in ${theme}: ${JSON.stringify(hot.counts)}`);
    assert.ok(
      fixed.counts[1] > 500 && fixed.counts[0] < hot.counts[0],
      `blue bars with the fix in ${theme}: ${JSON.stringify(fixed.counts)}`,
    );
    const layout = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      runs: [...document.querySelectorAll(".run")]
        .map((e) => e.getBoundingClientRect())
        .map((b) => ({ left: b.left, top: b.top, right: b.right })),
    }));
    assert.ok(layout.overflow <= 0, `the page is ${layout.overflow} px wider than the window in ${theme}`);
    const [a, b] = layout.runs;
    assert.ok(a.left === b.left && b.top > a.top && a.right <= 400 && b.right <= 400, JSON.stringify(layout.runs));
  });
}
