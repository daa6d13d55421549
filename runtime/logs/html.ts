/**
 * The heatmap as one self-contained HTML page, drawn as the emulator's
 * key-space heatmap is — the same grid and colour scale
 * (protocol/heatmap-grid.ts): time across, partition keys down in key
 * order grouped into rows labelled with their first key, colour for
 * entities on a log scale, throttled cells outlined — then the hottest
 * partitions, the design beside them, and what was skipped. No script and
 * no network: a strict Content-Security-Policy, tooltips from SVG titles,
 * and every text from the logs escaped (a partition key is hostile input).
 */
import type { DesignComparison, LogHeatmap } from "@protocol/log-heatmap";
import type { TrafficSecond } from "@protocol/traffic";
import { type Cell, type Grid, keyGrid, rowLabel, scaleColour, scalePosition } from "@protocol/heatmap-grid";
import { formatCount as n, plural } from "@core/text/words";

const MAX_ROWS = 64;
const MAX_COLUMNS = 400;
const LABEL_WIDTH = 240;
const LISTED = 20;

interface Columns {
  grid: Grid;
  times: number[];
  columnMs: number;
}

/** The page for `h` (its `seconds` drawn, its lists and notes below). */
export function heatmapHtml(h: LogHeatmap, title = "Key-space heatmap from logs"): string {
  const g = columns(h);
  const gradient = [0, 0.25, 0.5, 0.75, 1].map(scaleColour).join(",");
  const css = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1b1b;background:#fff}h1{font-size:20px;margin:0 0 4px}
h2{font-size:16px;margin:28px 0 8px}table{border-collapse:collapse}td,th{padding:2px 10px 2px 0;text-align:left;vertical-align:top}
td.num,th.num{text-align:right}code{font-size:12px;word-break:break-all}.legend{display:flex;gap:12px;align-items:center;margin:10px 0}
.bar{display:inline-block;width:160px;height:10px;background:linear-gradient(to right,${gradient})}
.swatch{display:inline-block;width:10px;height:10px;border:2px solid #e51400}svg text{font:11px system-ui,sans-serif;fill:#444}
@media (prefers-color-scheme:dark){body{background:#1e1e1e;color:#ddd}svg text{fill:#bbb}}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${css}</style></head>
<body>
<h1>${esc(title)}</h1>
<p class="summary">${esc(headline(h))}</p>
<div class="legend"><span>0</span><span class="bar"></span><span>${n(g.grid.max)} entities per cell of ${duration(g.columnMs)} (log scale)</span><span><span class="swatch"></span> outlined: throttled entities</span></div>
${svg(g, h)}
${hottest(h)}
${h.design ? design(h.design) : ""}
${unattributed(h)}
${notes(h)}
</body></html>
`;
}

/** The one-line summary the CLI prints and the page shows. */
export function headline(h: LogHeatmap): string {
  const span = h.from && h.to ? `${h.from} – ${h.to}` : "no request in the window";
  return `${n(h.lines)} log entries read (${n(h.skipped)} skipped as malformed), ${span}; cells of a ${h.bucketName}; ${n(h.partitionCount)} partitions`;
}

/** The log's buckets grouped into at most MAX_COLUMNS columns, and the grid over them. */
function columns(h: LogHeatmap): Columns {
  const first = h.seconds[0]?.t ?? 0;
  const last = h.seconds[h.seconds.length - 1]?.t ?? 0;
  const buckets = Math.round((last - first) / h.bucketMs) + 1;
  const perColumn = Math.max(1, Math.ceil(buckets / MAX_COLUMNS));
  const columnMs = perColumn * h.bucketMs;
  const times = Array.from({ length: Math.ceil(buckets / perColumn) }, (_, i) => first + i * columnMs);
  const into: TrafficSecond[][] = times.map(() => []);
  for (const s of h.seconds) into[Math.floor((s.t - first) / columnMs)].push(s);
  const grid = keyGrid(
    into.map((seconds) => seconds.flatMap((s) => Object.entries(s.partitions) as Array<[string, Cell]>)),
    MAX_ROWS,
  );
  return { grid, times, columnMs };
}

function svg({ grid, times, columnMs }: Columns, h: LogHeatmap): string {
  if (!grid.rows.length) return "<p>No request to draw.</p>";
  const cw = Math.max(2, Math.min(24, Math.floor(900 / times.length)));
  const ch = Math.max(8, Math.min(22, Math.floor(560 / grid.rows.length)));
  const width = LABEL_WIDTH + cw * times.length;
  const height = ch * grid.rows.length + 24;
  const out: string[] = [];
  grid.rows.forEach((r, i) => {
    const label = r[0].length > 36 ? `${r[0].slice(0, 35)}…` : r[0];
    out.push(`<text x="${LABEL_WIDTH - 6}" y="${i * ch + ch * 0.75}" text-anchor="end">${esc(label)}</text>`);
  });
  grid.cells.forEach((column, col) =>
    column.forEach((c, row) => {
      if (!c) return;
      const served = c.reads + c.writes;
      const tip = `${rowLabel(grid.rows[row])}\n${iso(times[col])} + ${duration(columnMs)}\n${plural(served, "entity", "entities")} (${n(c.reads)} read, ${n(c.writes)} written)${c.throttled ? `, ${n(c.throttled)} throttled` : ""}`;
      const stroke = c.throttled ? ` stroke="#e51400" stroke-width="1.5"` : "";
      out.push(
        `<rect x="${LABEL_WIDTH + col * cw}" y="${row * ch}" width="${cw}" height="${ch}" fill="${scaleColour(scalePosition(served, grid.max))}"${stroke} data-row="${row}" data-col="${col}"><title>${esc(tip)}</title></rect>`,
      );
    }),
  );
  const step = Math.max(1, Math.ceil(times.length / 6));
  for (let i = 0; i < times.length; i += step)
    out.push(`<text x="${LABEL_WIDTH + i * cw}" y="${height - 6}">${esc(iso(times[i]).slice(11, 19))}</text>`);
  const label = `Heatmap of ${n(h.partitionCount)} partitions in ${n(grid.rows.length)} rows over ${n(times.length)} columns of ${duration(columnMs)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(label)}">${out.join("")}</svg>`;
}

function hottest(h: LogHeatmap): string {
  if (!h.partitions.length) return "";
  const withDesign = h.partitions.some((p) => p.design !== undefined);
  const num = (v: number) => `<td class="num">${n(v)}</td>`;
  const rows = h.partitions.slice(0, LISTED).map((p) => {
    const design = withDesign
      ? `<td>${p.design ? `${esc(p.design.table)}: <code>${esc(p.design.partitionKey)}</code>` : "no design key"}</td>`
      : "";
    const e = p.entities;
    return `<tr><td>${esc(p.table)}</td><td><code>${esc(p.partitionKey)}</code></td>${num(e.read)}${num(e.written)}${num(e.throttled)}${num(p.operations)}${num(p.failed)}${num(p.peakPerSecond)}${design}</tr>`;
  });
  const head = ["read", "written", "throttled", "requests", "failed", "peak/s"].map((t) => `<th class="num">${t}</th>`).join("");
  return `<h2>Hottest partitions (entities)</h2><table><tr><th>table</th><th>partition key</th>${head}${withDesign ? "<th>design</th>" : ""}</tr>${rows.join("")}</table>`;
}

function design(d: DesignComparison): string {
  const pct = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)} %`);
  const rows = d.tables.map((t) => {
    const by = t.predicted.patterns.map((p) => `${esc(p.name)} ${n(p.hottestPerSecond)}/s`).join(", ");
    const observed = t.observed.hottest
      .map((o) => `<code>${esc(o.partitionKey)}</code> ${n(o.peakPerSecond)}/s, ${pct(o.share)}`)
      .join("<br>");
    return `<tr><td>${esc(t.logTable)} → ${esc(t.designTable)}<br><code>${esc(t.partitionKey)}</code></td><td class="num">${n(t.predicted.hottestPerSecond)}/s, ${pct(t.predicted.hottestShare)}${by ? `<br>${by}` : ""}</td><td>${observed}</td><td class="num">${pct(t.error.hottestPerSecond)} · ${pct(t.error.hottestShare)}</td><td class="num">${n(t.matched)} / ${n(t.matched + t.unmatched)}</td></tr>`;
  });
  const none = d.unmatchedTables.length ? `<p>No design table matches: ${d.unmatchedTables.map(esc).join(", ")}.</p>` : "";
  return `<h2>Against the design (${esc(d.file)})</h2><table><tr><th>table and key</th><th>predicted</th><th>observed hottest</th><th>error</th><th class="num">keys matched</th></tr>${rows.join("")}</table>${none}<p>${esc(d.note)}</p>`;
}

function unattributed(h: LogHeatmap): string {
  if (!h.unattributed.length) return "";
  const rows = h.unattributed.map((u) => {
    const classes = Object.entries(u.byClass)
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(", ");
    const ranges = u.ranges.map((r) => `${r.from ?? "…"} – ${r.to ?? "…"}: ${n(r.pages)}`).join("; ");
    return `<tr><td>${esc(u.table)}</td><td class="num">${n(u.operations)}</td><td class="num">${n(u.throttled)}</td><td>${esc(classes)}</td><td><code>${esc(ranges)}</code></td></tr>`;
  });
  return `<h2>Requests over several partitions</h2><table><tr><th>table</th><th class="num">requests</th><th class="num">throttled</th><th>by class</th><th>PartitionKey ranges queried (pages)</th></tr>${rows.join("")}</table>`;
}

function notes(h: LogHeatmap): string {
  const skipped = h.skippedExamples.map((s) => `${s.file}:${s.line}: ${s.reason}`);
  const problems = h.files.filter((f) => f.problem).map((f) => `${f.file}: ${f.problem}`);
  const all = [...h.notes, ...problems, ...skipped.map((s) => `skipped ${s}`)];
  return all.length ? `<h2>Notes</h2><ul>${all.map((t) => `<li>${esc(t)}</li>`).join("")}</ul>` : "";
}

function iso(t: number): string {
  return new Date(t).toISOString();
}

/** A cell's length in words: `1 s`, `1 min`, `2 h`, `1 d`. */
export function duration(ms: number): string {
  return ms % 86_400_000 === 0
    ? `${ms / 86_400_000} d`
    : ms % 3_600_000 === 0
      ? `${ms / 3_600_000} h`
      : ms % 60_000 === 0
        ? `${ms / 60_000} min`
        : `${ms / 1000} s`;
}

/** Text and attribute values, escaped. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
