/**
 * WCAG contrast of what a page shows, measured in the browser: for every
 * visible element with text of its own, the text colour (faded by its own
 * and its ancestors' opacity) over the background it sits on (its own and
 * its ancestors' backgrounds, blended from the page down). Disabled
 * controls and decorative (aria-hidden) text are exempt, as WCAG exempts them.
 */
import type { Page } from "playwright-core";

export interface ContrastSample {
  /** The element, as a short CSS-like path. */
  where: string;
  text: string;
  ratio: number;
}

/** Every text of `selector`'s subtree (default: the whole page) with its contrast ratio. */
export function measureContrast(page: Page, selector = "body"): Promise<ContrastSample[]> {
  return page.evaluate((rootSelector) => {
    type RGBA = [number, number, number, number];
    const parse = (css: string): RGBA => {
      const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(css);
      return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : [0, 0, 0, 0];
    };
    const over = (top: RGBA, below: RGBA): RGBA => {
      const a = top[3] + below[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: number) => (top[i] * top[3] + below[i] * below[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const luminance = ([r, g, b]: RGBA) => {
      const lin = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const path = (el: Element) => {
      const parts: string[] = [];
      for (let e: Element | null = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
        parts.unshift(`${e.tagName.toLowerCase()}${e.classList.length ? `.${[...e.classList].join(".")}` : ""}`);
      }
      return parts.join(" > ");
    };
    const exempt = (el: Element) => !!el.closest("[aria-hidden='true'], :disabled, [hidden]");
    const samples: Array<{ where: string; text: string; ratio: number }> = [];
    const root = document.querySelector(rootSelector);
    if (!root) return samples;
    for (const el of [root, ...root.querySelectorAll("*")]) {
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? "")
        .join("")
        .trim();
      const isField = (el instanceof HTMLInputElement && el.type !== "checkbox" && el.value) || el instanceof HTMLSelectElement;
      if ((!own && !isField) || exempt(el)) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
      // Backgrounds from the page down to the element; opacity multiplies along the way.
      const chain: Element[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) chain.unshift(e);
      let background: RGBA = [255, 255, 255, 1];
      let opacity = 1;
      for (const e of chain) {
        const style = getComputedStyle(e);
        background = over(parse(style.backgroundColor), background);
        opacity *= Number(style.opacity);
      }
      const colour = parse(getComputedStyle(el).color);
      const text = over([colour[0], colour[1], colour[2], colour[3] * opacity], background);
      const [l1, l2] = [luminance(text), luminance(background)].sort((a, b) => b - a);
      samples.push({
        where: path(el),
        text: (own || (el as HTMLInputElement).value || "").slice(0, 40),
        ratio: Math.round(((l1 + 0.05) / (l2 + 0.05)) * 100) / 100,
      });
    }
    return samples;
  }, selector);
}

/** The samples below `min` (WCAG AA for normal text: 4.5). */
export async function lowContrast(page: Page, min = 4.5, selector = "body"): Promise<ContrastSample[]> {
  return (await measureContrast(page, selector)).filter((s) => s.ratio < min);
}
