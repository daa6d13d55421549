/**
 * Draws a heatmap layout on a canvas: key labels in a gutter on the left
 * (the first key of each row), cells coloured by entities per second on a
 * log scale, throttled cells outlined, and a time axis below. Text takes
 * the theme's colours (read from the page's CSS), so it reads in every
 * theme; the cell colours are the heatmaps' one scale (protocol/heatmap-grid.ts).
 */
import { scaleColour, scalePosition } from "@protocol/heatmap-grid";
import { clock, Layout, tickStep } from "./model";

export { rateAt, scaleColour } from "@protocol/heatmap-grid";

/** The plot's geometry in CSS pixels. */
export interface Geometry {
  width: number;
  height: number;
  gutter: number;
  axis: number;
  /** Plot area: left, top, width, height. */
  plot: { x: number; y: number; w: number; h: number };
  colW: number;
  rowH: number;
}

const AXIS = 22;
const MIN_ROW = 10;
const MAX_ROW = 28;

/** The largest number of rows that fit `height` (each at least `MIN_ROW` px). */
export function rowsThatFit(height: number): number {
  return Math.max(1, Math.floor((height - AXIS) / MIN_ROW));
}

export function geometry(width: number, height: number, layout: Layout): Geometry {
  const gutter = Math.round(Math.min(160, Math.max(64, width * 0.28)));
  const rows = Math.max(1, layout.rows.length);
  const rowH = Math.max(MIN_ROW / 2, Math.min(MAX_ROW, (height - AXIS) / rows));
  const plot = { x: gutter, y: 0, w: Math.max(10, width - gutter - 4), h: rowH * rows };
  return { width, height, gutter, axis: AXIS, plot, colW: plot.w / Math.max(1, layout.times.length), rowH };
}

/** Shortens `text` with "…" to fit `max` px (binary search over its length). */
function fit(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  if (ctx.measureText(text).width <= max) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= max) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}

export interface Colours {
  foreground: string;
  muted: string;
  grid: string;
  throttled: string;
  font: string;
}

/** Draws `layout`; `label` names a column's time on the axis (the local clock live, UTC for logs). */
export function draw(canvas: HTMLCanvasElement, layout: Layout, g: Geometry, colours: Colours, label: (t: number) => string = clock): void {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(g.width * ratio);
  canvas.height = Math.round(g.height * ratio);
  const ctx = canvas.getContext("2d")!;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, g.width, g.height);
  const { plot, colW, rowH } = g;
  ctx.strokeStyle = colours.grid;
  ctx.lineWidth = 1;
  ctx.strokeRect(plot.x - 0.5, plot.y + 0.5, plot.w + 1, plot.h);
  layout.cells.forEach((column, x) =>
    column.forEach((cell, y) => {
      if (!cell) return;
      const rate = cell.reads + cell.writes;
      const cx = plot.x + x * colW;
      const cy = plot.y + y * rowH;
      ctx.fillStyle = scaleColour(scalePosition(rate, layout.max));
      ctx.fillRect(cx, cy, Math.max(1, colW - (colW > 3 ? 1 : 0)), Math.max(1, rowH - 1));
      if (cell.throttled) {
        ctx.strokeStyle = colours.throttled;
        ctx.lineWidth = 2;
        ctx.strokeRect(cx + 1, cy + 1, Math.max(1, colW - 3), Math.max(1, rowH - 3));
      }
    }),
  );
  ctx.font = colours.font;
  ctx.fillStyle = colours.foreground;
  ctx.textBaseline = "middle";
  ctx.textAlign = "right";
  // A label for every row that has room for one, else for every n-th row.
  const every = Math.max(1, Math.ceil(12 / rowH));
  layout.rows.forEach((keys, y) => {
    if (y % every) return;
    ctx.fillText(fit(ctx, keys[0], g.gutter - 8), plot.x - 6, plot.y + y * rowH + rowH / 2);
  });
  // The time axis: a tick every few columns, the newest always labelled at the right.
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  const step = tickStep(colW);
  const axisY = plot.y + plot.h + 4;
  const labelled: number[] = [];
  const tick = (i: number, align: CanvasTextAlign) => {
    const x = plot.x + i * colW + colW / 2;
    ctx.fillStyle = colours.grid;
    ctx.fillRect(Math.round(x), plot.y + plot.h, 1, 3);
    ctx.fillStyle = colours.foreground;
    ctx.textAlign = align;
    ctx.fillText(label(layout.times[i]), align === "right" ? plot.x + plot.w : x, axisY);
    labelled.push(x);
  };
  const last = layout.times.length - 1;
  if (last >= 0) tick(last, "right");
  for (let i = last - 1; i >= 0; i--) {
    // Ticks on whole multiples of the step (12:00:30, 12:01:00), clear of the labels beside them.
    if ((layout.times[i] / layout.bucketMs) % step) continue;
    const x = plot.x + i * colW + colW / 2;
    if (labelled[labelled.length - 1] - x < 64 || x - 32 < plot.x) continue;
    tick(i, "center");
  }
}
