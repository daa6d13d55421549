/**
 * The key-space heatmap, after Bigtable's Key Visualizer: time across (one
 * column a second), partition-key ranges down (keys in sorted order, grouped
 * into rows), colour for entities per second, throttled cells outlined.
 * Hovering a cell shows its key range, rate and throttled share.
 */
import type { TrafficSecond } from "../protocol";
import { h } from "../dom";

const SECONDS = 120;
const MAX_ROWS = 48;
const CELL_W = 8;
const ROW_H = 12;

interface Cell {
  entities: number;
  throttled: number;
}

export class Heatmap {
  private readonly seconds: TrafficSecond[] = [];
  private readonly canvas = h("canvas", { class: "heatmap-canvas", width: SECONDS * CELL_W, height: MAX_ROWS * ROW_H });
  private readonly tip = h("div", { class: "heatmap-tip", role: "tooltip" });
  private readonly summary = h("p", { class: "heatmap-summary" }, "Waiting for traffic on the emulator…");
  private layout: { rows: string[][]; grid: Cell[][]; max: number } = { rows: [], grid: [], max: 0 };

  constructor(root: HTMLElement, initial: TrafficSecond[] = []) {
    root.append(h("section", { class: "heatmap" },
      h("h1", {}, "Key-space heatmap"),
      h("p", { class: "legend" }, "Time across (one column a second, newest right), partition-key ranges down in key order; brighter is more entities/s; a red outline marks throttled requests."),
      this.summary, h("div", { class: "heatmap-wrap" }, this.canvas, this.tip)));
    this.canvas.addEventListener("mousemove", (e) => this.hover(e));
    this.canvas.addEventListener("mouseleave", () => { this.tip.hidden = true; });
    this.tip.hidden = true;
    for (const s of initial) this.add(s);
  }

  add(second: TrafficSecond): void {
    this.seconds.push(second);
    while (this.seconds.length > SECONDS) this.seconds.shift();
    this.draw();
  }

  private draw(): void {
    const keys = [...new Set(this.seconds.flatMap((s) => Object.keys(s.partitions)))].sort();
    const perRow = Math.max(1, Math.ceil(keys.length / MAX_ROWS));
    const rows: string[][] = [];
    for (let i = 0; i < keys.length; i += perRow) rows.push(keys.slice(i, i + perRow));
    const rowOf = new Map<string, number>();
    rows.forEach((r, i) => r.forEach((k) => rowOf.set(k, i)));
    const grid = this.seconds.map((s) => {
      const col: Cell[] = rows.map(() => ({ entities: 0, throttled: 0 }));
      for (const [k, p] of Object.entries(s.partitions)) {
        const c = col[rowOf.get(k)!];
        c.entities += p.reads + p.writes;
        c.throttled += p.throttled;
      }
      return col;
    });
    const max = Math.max(1, ...grid.flat().map((c) => c.entities));
    this.layout = { rows, grid, max };
    const ctx = this.canvas.getContext("2d")!;
    this.canvas.height = Math.max(1, rows.length) * ROW_H;
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    const offset = SECONDS - grid.length;
    grid.forEach((col, x) => col.forEach((cell, y) => {
      const v = cell.entities ? Math.log1p(cell.entities) / Math.log1p(max) : 0;
      ctx.fillStyle = `hsl(${220 - 180 * v}, 80%, ${10 + 55 * v}%)`;
      ctx.fillRect((offset + x) * CELL_W, y * ROW_H, CELL_W - 1, ROW_H - 1);
      if (cell.throttled) {
        ctx.strokeStyle = "#ff3b30";
        ctx.lineWidth = 2;
        ctx.strokeRect((offset + x) * CELL_W + 1, y * ROW_H + 1, CELL_W - 3, ROW_H - 3);
      }
    }));
    const last = this.seconds[this.seconds.length - 1];
    const total = last ? Object.values(last.partitions).reduce((s, p) => s + p.reads + p.writes, 0) : 0;
    const throttled = last ? Object.values(last.partitions).reduce((s, p) => s + p.throttled, 0) : 0;
    this.summary.textContent = `${keys.length} partition key${keys.length === 1 ? "" : "s"} in ${rows.length} row${rows.length === 1 ? "" : "s"} · last second: ${total.toLocaleString("en-US")} entities/s` +
      (throttled ? ` · ${throttled.toLocaleString("en-US")} throttled` : "");
  }

  private hover(e: MouseEvent): void {
    const { rows, grid } = this.layout;
    const x = Math.floor(e.offsetX / CELL_W) - (SECONDS - grid.length);
    const y = Math.floor(e.offsetY / ROW_H);
    const cell = grid[x]?.[y];
    if (!cell || !rows[y]) { this.tip.hidden = true; return; }
    const range = rows[y].length === 1 ? rows[y][0] : `${rows[y][0]} … ${rows[y][rows[y].length - 1]}`;
    const share = cell.entities + cell.throttled ? Math.round((100 * cell.throttled) / (cell.entities + cell.throttled)) : 0;
    this.tip.textContent = `${range}\n${new Date(this.seconds[x].t).toLocaleTimeString()} · ${cell.entities.toLocaleString("en-US")} entities/s · ${share}% throttled`;
    this.tip.style.left = `${e.offsetX + 12}px`;
    this.tip.style.top = `${e.offsetY + 12}px`;
    this.tip.hidden = false;
  }
}
