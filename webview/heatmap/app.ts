/**
 * The key-space heatmap, after Bigtable's Key Visualizer: time across (one
 * column a second, the newest at the right edge), partition keys down in
 * key order grouped into rows labelled with their first key, colour for
 * entities per second (legend with units), throttled cells outlined.
 * The map fits its panel and redraws when the panel or the theme changes.
 * Dragging across it zooms into that key range and time range (Zoom out
 * and Show all go back); hovering a cell shows its keys, second and rates.
 * The summary says what the newest second carried, or that the emulator
 * is idle (the host sends an empty second each second nothing happens).
 * Given a `Span` (a heatmap of a service's logs), it shows that span
 * whole instead — columns of the logs' bucket, times in UTC — and its own
 * title and summary.
 */
import "./heatmap.css";
import type { TrafficSecond } from "@protocol/traffic";
import { h } from "../dom";
import { rowLabel } from "@protocol/heatmap-grid";
import { clock, DEFAULT_SPAN, Layout, summary, TrafficLog, Zoom } from "./model";
import { Colours, draw, geometry, Geometry, rateAt, rowsThatFit, scaleColour } from "./draw";
import { formatCount, plural } from "@core/text/words";

/** A fixed span to show whole (a heatmap of logs): its buckets, first and last, and what the page says of it. */
export interface Span {
  bucketMs: number;
  /** "second", "minute"…: what one column is. */
  bucketName: string;
  first: number;
  last: number;
  title: string;
  summary: string;
}

/** A time in UTC as the logs write it: `13:05:03`, with the date when the span is longer than a day. */
function utc(span: Span): (t: number) => string {
  const long = span.last - span.first >= 86_400_000;
  return (t) => {
    const iso = new Date(t).toISOString();
    return long ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 19);
  };
}

const DRAG_MIN = 5;
const n = formatCount;

export class Heatmap {
  private readonly log: TrafficLog;
  private readonly label: (t: number) => string;
  private readonly canvas = h("canvas", { class: "heatmap-canvas", role: "img" });
  private readonly plot = h("div", { class: "heatmap-plot" });
  private readonly tip = h("div", { class: "heatmap-tip", role: "tooltip" });
  private readonly band = h("div", { class: "heatmap-band" });
  private readonly summaryEl = h("p", { class: "heatmap-summary", role: "status", "aria-live": "polite" });
  private readonly zoomText = h("span", { class: "heatmap-zoom-text" });
  private readonly legendMax = h("span", { class: "legend-max" });
  private readonly legendMid = h("span", { class: "legend-mid" });
  private readonly zoomOut = h("button", { class: "secondary zoom-out", onclick: () => this.setZoom(this.zooms.slice(0, -1)) }, "Zoom out");
  private readonly reset = h("button", { class: "secondary zoom-reset", onclick: () => this.setZoom([]) }, "Show all");
  private zooms: Zoom[] = [];
  private view: { layout: Layout; g: Geometry } | undefined;
  private drag: { x: number; y: number } | undefined;
  /** The keyboard's cell, and where a Shift+arrow selection started. */
  private cursor: Cell | undefined;
  private anchor: Cell | undefined;
  private queued = false;

  constructor(
    root: HTMLElement,
    initial: TrafficSecond[] = [],
    now?: number,
    private readonly span?: Span,
  ) {
    this.log = span ? new TrafficLog(span.bucketMs, Infinity) : new TrafficLog();
    this.label = span ? utc(span) : clock;
    this.plot.append(this.canvas, this.band, this.tip);
    this.tip.hidden = this.band.hidden = true;
    const gradient = `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map(scaleColour).join(", ")})`;
    root.append(
      h(
        "section",
        { class: span ? "heatmap logs" : "heatmap" },
        h("header", { class: "heatmap-head" }, h("h1", {}, span?.title ?? "Key-space heatmap"), this.summaryEl),
        h(
          "div",
          { class: "heatmap-legend", "aria-label": "Colour legend" },
          h(
            "span",
            { class: "legend-scale" },
            h("span", { class: "legend-bar", style: `background: ${gradient}` }),
            h("span", { class: "legend-labels" }, h("span", {}, "0"), this.legendMid, this.legendMax),
          ),
          h("span", { class: "legend-unit" }, `${this.unit} per key range and ${span?.bucketName ?? "second"} (log scale)`),
          h("span", { class: "legend-throttled" }, h("span", { class: "swatch", "aria-hidden": "true" }), "outlined: throttled requests"),
        ),
        h("div", { class: "heatmap-zoom" }, this.zoomOut, this.reset, this.zoomText),
        this.plot,
      ),
    );
    for (const s of initial) this.log.add(s);
    // The host's clock at the handshake: seconds since the last traffic have passed without any.
    if (now !== undefined) this.log.add({ t: now - (now % 1000) - 2000, partitions: {} });
    this.plot.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.plot.addEventListener("pointerleave", () => {
      this.tip.hidden = true;
    });
    this.plot.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.plot.addEventListener("pointerup", (e) => this.pointerUp(e));
    // From the keyboard: arrows move over the cells, Shift+arrows select, Enter zooms into the selection, minus zooms out.
    this.plot.tabIndex = 0;
    this.plot.setAttribute(
      "aria-label",
      "Key-space heatmap: arrow keys move over the cells, Shift+arrows select a range, Enter zooms into it, minus zooms out, Escape clears",
    );
    this.plot.addEventListener("keydown", (e) => this.key(e));
    this.plot.addEventListener("blur", () => {
      this.band.hidden = this.tip.hidden = true;
    });
    new ResizeObserver(() => this.schedule()).observe(this.plot);
    // VS Code changes the body's classes and the root's variables when the theme changes.
    const themed = new MutationObserver(() => this.schedule());
    themed.observe(document.body, { attributes: true, attributeFilter: ["class"] });
    themed.observe(document.documentElement, { attributes: true, attributeFilter: ["style", "class"] });
    this.setZoom([]);
  }

  /** One second from the host (traffic, or an empty one while idle). */
  add(second: TrafficSecond): void {
    this.log.add(second);
    this.schedule();
  }

  /** What a cell counts: entities a second live, entities in a bucket of logs. */
  private get unit(): string {
    return this.span ? "entities" : "entities/s";
  }

  private get zoom(): Zoom {
    const whole = this.span && { span: Math.round((this.span.last - this.span.first) / this.span.bucketMs) + 1, end: this.span.last };
    return this.zooms[this.zooms.length - 1] ?? whole ?? { span: DEFAULT_SPAN };
  }

  private setZoom(zooms: Zoom[]): void {
    this.zooms = zooms;
    this.zoomOut.disabled = this.reset.disabled = !zooms.length;
    this.schedule();
  }

  private schedule(): void {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.render();
    });
  }

  private render(): void {
    const { width, height } = this.plot.getBoundingClientRect();
    const layout = this.log.layout(this.zoom, rowsThatFit(height));
    const g = geometry(Math.max(1, width), Math.max(1, height), layout);
    this.view = { layout, g };
    // Said in the same frame as the map is drawn, so what the text says is what the map shows.
    const z = this.zoom;
    const step = this.log.bucketMs;
    const time =
      z.end === undefined
        ? `the last ${n(z.span)} seconds`
        : `${this.label(z.end - (z.span - 1) * step)}–${this.label(z.end)}${this.span ? " UTC" : ""}`;
    const keys = z.keys ? (z.keys.first === z.keys.last ? `key ${z.keys.first}` : `keys ${z.keys.first} … ${z.keys.last}`) : "every key";
    this.zoomText.textContent = `Showing ${keys}, ${time}.${this.zooms.length ? "" : " Drag across the map to zoom into a key range and a time range."}`;
    draw(this.canvas, layout, g, this.colours(), this.label);
    this.legendMid.textContent = n(rateAt(0.5, layout.max));
    this.legendMax.textContent = `${n(layout.max)} ${this.unit}`;
    const said = this.span ? { idle: false, text: this.span.summary } : summary(this.log, layout.keys);
    this.summaryEl.textContent = said.text;
    this.summaryEl.classList.toggle("idle", said.idle);
    this.canvas.setAttribute(
      "aria-label",
      `Heatmap of ${plural(layout.keys, "partition key")} in ${plural(layout.rows.length, "row")} over ${n(layout.times.length)} ${this.span ? `${this.span.bucketName}s` : "seconds"}. ${said.text}`,
    );
    Object.assign(this.plot.dataset, {
      rows: String(layout.rows.length),
      keys: String(layout.keys),
      seconds: String(layout.times.length),
      first: layout.rows[0]?.[0] ?? "",
      newest: String(layout.times.at(-1) ?? ""),
    });
  }

  private colours(): Colours {
    const style = getComputedStyle(document.body);
    const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    return {
      foreground: style.color,
      muted: v("--vscode-descriptionForeground", style.color),
      grid: v("--vscode-panel-border", "#8888"),
      throttled: v("--vscode-editorError-foreground", "#e51400"),
      font: `11px ${v("--vscode-font-family", "system-ui, sans-serif")}`,
    };
  }

  /** The column and row under a point of the plot (clamped when `clamp`), or undefined outside the cells. */
  private cellAt(x: number, y: number, clamp = false): Cell | undefined {
    if (!this.view) return undefined;
    const { layout, g } = this.view;
    let col = Math.floor((x - g.plot.x) / g.colW);
    let row = Math.floor((y - g.plot.y) / g.rowH);
    if (clamp) {
      col = Math.max(0, Math.min(layout.times.length - 1, col));
      row = Math.max(0, Math.min(layout.rows.length - 1, row));
    }
    return col >= 0 && col < layout.times.length && row >= 0 && row < layout.rows.length ? { col, row } : undefined;
  }

  private pointerMove(e: PointerEvent): void {
    if (this.drag) {
      const [x0, x1] = [Math.min(this.drag.x, e.offsetX), Math.max(this.drag.x, e.offsetX)];
      const [y0, y1] = [Math.min(this.drag.y, e.offsetY), Math.max(this.drag.y, e.offsetY)];
      Object.assign(this.band.style, { left: `${x0}px`, top: `${y0}px`, width: `${x1 - x0}px`, height: `${y1 - y0}px` });
      this.band.hidden = false;
      this.tip.hidden = true;
      return;
    }
    const at = this.cellAt(e.offsetX, e.offsetY);
    if (!at || !this.view) {
      this.tip.hidden = true;
      return;
    }
    this.showTip(at, e.offsetX, e.offsetY);
  }

  /** The tooltip of a cell (its keys, second and rates), near the point `x`, `y` of the plot. */
  private showTip(at: Cell, x: number, y: number): void {
    if (!this.view) return;
    const keys = this.view.layout.rows[at.row];
    const cell = this.view.layout.cells[at.col][at.row];
    const range = rowLabel(keys);
    const rate = cell ? cell.reads + cell.writes : 0;
    const share = cell && rate + cell.throttled ? Math.round((100 * cell.throttled) / (rate + cell.throttled)) : 0;
    this.tip.textContent =
      `${range}\n${this.label(this.view.layout.times[at.col])} · ${n(rate)} ${this.unit}` +
      (cell ? ` (${n(cell.reads)} read, ${n(cell.writes)} written) · ${share}% throttled` : "");
    const left = Math.min(x + 12, this.view.g.width - 220);
    Object.assign(this.tip.style, { left: `${Math.max(0, left)}px`, top: `${y + 14}px` });
    this.tip.hidden = false;
  }

  private pointerDown(e: PointerEvent): void {
    if (e.button !== 0 || !this.cellAt(e.offsetX, e.offsetY)) return;
    this.drag = { x: e.offsetX, y: e.offsetY };
    this.plot.setPointerCapture(e.pointerId);
  }

  /** A drag zooms: across only, into its time range; down only, into its keys; both, into both. */
  private pointerUp(e: PointerEvent): void {
    const start = this.drag;
    this.drag = undefined;
    this.band.hidden = true;
    if (!start || !this.view) return;
    const across = Math.abs(e.offsetX - start.x) >= DRAG_MIN;
    const down = Math.abs(e.offsetY - start.y) >= DRAG_MIN;
    if (!across && !down) return;
    this.zoomInto(this.cellAt(start.x, start.y, true)!, this.cellAt(e.offsetX, e.offsetY, true)!, across, down);
  }

  /** Zooms into the cells between `a` and `b`: their seconds when `across`, their keys when `down`. */
  private zoomInto(a: Cell, b: Cell, across: boolean, down: boolean): void {
    if (!this.view) return;
    const { layout } = this.view;
    const zoom: Zoom = { ...this.zoom };
    if (across) {
      const [c0, c1] = [Math.min(a.col, b.col), Math.max(a.col, b.col)];
      zoom.span = c1 - c0 + 1;
      // A range that reaches the newest second keeps following it.
      zoom.end = c1 === layout.times.length - 1 && this.zoom.end === undefined ? undefined : layout.times[c1];
    }
    if (down && layout.rows.length) {
      const [r0, r1] = [Math.min(a.row, b.row), Math.max(a.row, b.row)];
      const last = layout.rows[r1];
      zoom.keys = { first: layout.rows[r0][0], last: last[last.length - 1] };
    }
    this.setZoom([...this.zooms, zoom]);
  }

  private key(e: KeyboardEvent): void {
    const layout = this.view?.layout;
    if (!layout?.rows.length || !layout.times.length) return;
    const last = { col: layout.times.length - 1, row: layout.rows.length - 1 };
    // The cursor starts on the newest second of the first row, and stays inside a map that changed size.
    const at = this.cursor
      ? { col: Math.min(this.cursor.col, last.col), row: Math.min(this.cursor.row, last.row) }
      : { col: last.col, row: 0 };
    const step = MOVES[e.key];
    if (step) {
      if (e.shiftKey) this.anchor ??= at;
      else this.anchor = undefined;
      this.cursor = {
        col: Math.max(0, Math.min(last.col, at.col + (this.cursor ? step[0] : 0))),
        row: Math.max(0, Math.min(last.row, at.row + (this.cursor ? step[1] : 0))),
      };
      this.showSelection();
    } else if (e.key === "Enter") {
      const from = this.anchor ?? at;
      this.zoomInto(from, at, true, true);
      this.anchor = this.cursor = undefined;
      this.band.hidden = this.tip.hidden = true;
    } else if (e.key === "-" || e.key === "Backspace") {
      if (this.zooms.length) this.setZoom(this.zooms.slice(0, -1));
    } else if (e.key === "Escape") {
      this.anchor = undefined;
      this.band.hidden = this.tip.hidden = true;
    } else return;
    e.preventDefault();
  }

  /** The keyboard's selection drawn as the drag band, with the cursor cell's tooltip. */
  private showSelection(): void {
    if (!this.view || !this.cursor) return;
    const { g } = this.view;
    const from = this.anchor ?? this.cursor;
    const [c0, c1] = [Math.min(from.col, this.cursor.col), Math.max(from.col, this.cursor.col)];
    const [r0, r1] = [Math.min(from.row, this.cursor.row), Math.max(from.row, this.cursor.row)];
    const x = g.plot.x + c0 * g.colW;
    const y = g.plot.y + r0 * g.rowH;
    Object.assign(this.band.style, {
      left: `${x}px`,
      top: `${y}px`,
      width: `${(c1 - c0 + 1) * g.colW}px`,
      height: `${(r1 - r0 + 1) * g.rowH}px`,
    });
    this.band.hidden = false;
    this.showTip(this.cursor, g.plot.x + (this.cursor.col + 1) * g.colW, g.plot.y + this.cursor.row * g.rowH);
  }
}

interface Cell {
  col: number;
  row: number;
}

/** Arrow keys: a step in columns (seconds) and rows (key ranges). */
const MOVES: Record<string, [number, number] | undefined> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
