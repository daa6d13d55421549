/**
 * The heatmap as one self-contained HTML page: an inline SVG drawn as the
 * emulator's key-space heatmap is (time across, partition keys down in key
 * order grouped into rows labelled with their first key, colour for
 * requests on a log scale, throttled cells outlined), the hottest
 * partitions, the design beside them, and what was skipped. No script and
 * no network: a strict Content-Security-Policy, tooltips from SVG titles,
 * and every text from the logs escaped (a partition key is hostile input).
 */
import type { DesignComparison } from "./design";
import type { LogHeatmap } from "./model";

const MAX_ROWS = 64;
const MAX_COLUMNS = 400;
const LABEL_WIDTH = 240;
const PALETTE = ["#ffffcc", "#fed976", "#fd8d3c", "#e31a1c", "#800026"];
const n = (v: number) => v.toLocaleString("en-US");

interface Grid {
  rows: string[][];
  times: number[];
  columnMs: number;
  cells: Map<number, { v: number; x: number }>;
  max: number;
}

/** The page for `h` (its `seconds` drawn, its lists and notes below). */
export function heatmapHtml(h: LogHeatmap, title = "Key-space heatmap from logs"): string {
  const g = grid(h);
  const css = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1b1b;background:#fff}h1{font-size:20px;margin:0 0 4px}
h2{font-size:16px;margin:28px 0 8px}table{border-collapse:collapse}td,th{padding:2px 10px 2px 0;text-align:left;vertical-align:top}
td.num,th.num{text-align:right}code{font-size:12px;word-break:break-all}.legend{display:flex;gap:12px;align-items:center;margin:10px 0}
.bar{display:inline-block;width:160px;height:10px;background:linear-gradient(to right,${PALETTE.join(",")})}
.swatch{display:inline-block;width:10px;height:10px;border:2px solid #0b57d0}svg text{font:11px system-ui,sans-serif;fill:#444}
@media (prefers-color-scheme:dark){body{background:#1e1e1e;color:#ddd}svg text{fill:#bbb}}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${css}</style></head>
<body>
<h1>${esc(title)}</h1>
<p class="summary">${esc(summary(h))}</p>
<div class="legend"><span>0</span><span class="bar"></span><span>${n(g.max)} requests per cell (log scale)</span><span><span class="swatch"></span> outlined: throttled requests</span></div>
${svg(g, h)}
${hottest(h)}
${h.design ? design(h.design) : ""}
${unattributed(h)}
${notes(h)}
</body></html>
`;
}

function summary(h: LogHeatmap): string {
  const span = h.from && h.to ? `from ${h.from} to ${h.to}` : "no request in the window";
  return `${n(h.lines)} log entries read (${n(h.skipped)} skipped as malformed), ${span}; cells of a ${h.bucketName}; ${n(h.partitionCount)} partitions.`;
}

/** Keys in key order grouped into rows; buckets grouped into columns. */
function grid(h: LogHeatmap): Grid {
  const keySet = new Set<string>();
  for (const s of h.seconds) for (const k of Object.keys(s.partitions)) keySet.add(k);
  const keys = [...keySet].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const perRow = Math.max(1, Math.ceil(keys.length / MAX_ROWS));
  const rows: string[][] = [];
  for (let i = 0; i < keys.length; i += perRow) rows.push(keys.slice(i, i + perRow));
  const rowOf = new Map<string, number>();
  rows.forEach((r, i) => r.forEach((k) => rowOf.set(k, i)));
  const first = h.seconds[0]?.t ?? 0;
  const last = h.seconds[h.seconds.length - 1]?.t ?? 0;
  const buckets = Math.round((last - first) / h.bucketMs) + 1;
  const perColumn = Math.max(1, Math.ceil(buckets / MAX_COLUMNS));
  const columnMs = perColumn * h.bucketMs;
  const times = Array.from({ length: Math.ceil(buckets / perColumn) }, (_, i) => first + i * columnMs);
  const cells = new Map<number, { v: number; x: number }>();
  let max = 1;
  for (const s of h.seconds) {
    const col = Math.floor((s.t - first) / columnMs);
    for (const [k, c] of Object.entries(s.partitions)) {
      const at = col * rows.length + rowOf.get(k)!;
      const cell = cells.get(at) ?? { v: 0, x: 0 };
      cell.v += c.reads + c.writes + c.throttled;
      cell.x += c.throttled;
      cells.set(at, cell);
      max = Math.max(max, cell.v);
    }
  }
  return { rows, times, columnMs, cells, max };
}

function svg(g: Grid, h: LogHeatmap): string {
  if (!g.rows.length) return "<p>No request to draw.</p>";
  const cw = Math.max(2, Math.min(24, Math.floor(900 / g.times.length)));
  const ch = Math.max(8, Math.min(22, Math.floor(560 / g.rows.length)));
  const width = LABEL_WIDTH + cw * g.times.length;
  const height = ch * g.rows.length + 24;
  const out: string[] = [];
  g.rows.forEach((r, i) => {
    const label = r[0].length > 36 ? `${r[0].slice(0, 35)}…` : r[0];
    out.push(`<text x="${LABEL_WIDTH - 6}" y="${i * ch + ch * 0.75}" text-anchor="end">${esc(label)}</text>`);
  });
  for (const [at, c] of g.cells) {
    const col = Math.floor(at / g.rows.length);
    const row = at % g.rows.length;
    const keys = g.rows[row];
    const what = keys.length === 1 ? keys[0] : `${keys[0]} … ${keys[keys.length - 1]} (${keys.length} keys)`;
    const when = `${iso(g.times[col])} + ${duration(g.columnMs)}`;
    const tip = `${what}\n${when}\n${n(c.v)} requests${c.x ? `, ${n(c.x)} throttled` : ""}`;
    const stroke = c.x ? ` stroke="#0b57d0" stroke-width="1.5"` : "";
    out.push(
      `<rect x="${LABEL_WIDTH + col * cw}" y="${row * ch}" width="${cw}" height="${ch}" fill="${colour(c.v, g.max)}"${stroke} data-row="${row}" data-col="${col}"><title>${esc(tip)}</title></rect>`,
    );
  }
  const step = Math.max(1, Math.ceil(g.times.length / 6));
  for (let i = 0; i < g.times.length; i += step)
    out.push(`<text x="${LABEL_WIDTH + i * cw}" y="${height - 6}">${esc(iso(g.times[i]).slice(11, 19))}</text>`);
  const label = `Heatmap of ${n(h.partitionCount)} partitions in ${n(g.rows.length)} rows over ${n(g.times.length)} columns of ${duration(g.columnMs)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(label)}">${out.join("")}</svg>`;
}

function hottest(h: LogHeatmap): string {
  if (!h.partitions.length) return "";
  const withDesign = h.partitions.some((p) => p.design !== undefined);
  const rows = h.partitions.slice(0, 20).map(
    (p) =>
      `<tr><td>${esc(p.table)}</td><td><code>${esc(p.partitionKey)}</code></td><td class="num">${n(p.operations)}</td><td class="num">${n(p.reads)}</td><td class="num">${n(p.writes)}</td><td class="num">${n(p.throttled)}</td><td class="num">${n(p.failed)}</td><td class="num">${n(p.peakPerSecond)}</td>${withDesign ? `<td>${p.design ? `${esc(p.design.table)}: <code>${esc(p.design.partitionKey)}</code>` : "no design key"}</td>` : ""}</tr>`,
  );
  return `<h2>Hottest partitions</h2><table><tr><th>table</th><th>partition key</th><th class="num">requests</th><th class="num">reads</th><th class="num">writes</th><th class="num">throttled</th><th class="num">failed</th><th class="num">peak/s</th>${withDesign ? "<th>design</th>" : ""}</tr>${rows.join("")}</table>`;
}

function design(d: DesignComparison): string {
  const pct = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)} %`);
  const rows = d.tables.map(
    (t) =>
      `<tr><td>${esc(t.logTable)} → ${esc(t.designTable)}<br><code>${esc(t.partitionKey)}</code></td><td class="num">${n(t.predicted.hottestPerSecond)}/s, ${pct(t.predicted.hottestShare)}</td><td><code>${esc(t.observed.hottest[0]?.partitionKey ?? "")}</code> ${n(t.observed.hottest[0]?.peakPerSecond ?? 0)}/s, ${pct(t.observed.hottest[0]?.share ?? null)}</td><td class="num">${pct(t.error.hottestPerSecond)} · ${pct(t.error.hottestShare)}</td><td class="num">${n(t.matched)} / ${n(t.matched + t.unmatched)}</td></tr>`,
  );
  const none = d.unmatchedTables.length ? `<p>No design table matches: ${d.unmatchedTables.map(esc).join(", ")}.</p>` : "";
  return `<h2>Against the design (${esc(d.file)})</h2><table><tr><th>table and key</th><th class="num">predicted hottest</th><th>observed hottest</th><th class="num">error (rate · share)</th><th class="num">keys matched</th></tr>${rows.join("")}</table>${none}<p>${esc(d.note)}</p>`;
}

function unattributed(h: LogHeatmap): string {
  if (!h.unattributed.length) return "";
  const rows = h.unattributed.map(
    (u) =>
      `<tr><td>${esc(u.table)}</td><td class="num">${n(u.operations)}</td><td class="num">${n(u.throttled)}</td><td>${esc(
        Object.entries(u.byClass)
          .map(([k, v]) => `${k} ${n(v)}`)
          .join(", "),
      )}</td></tr>`,
  );
  return `<h2>Requests over several partitions</h2><table><tr><th>table</th><th class="num">requests</th><th class="num">throttled</th><th>by class</th></tr>${rows.join("")}</table>`;
}

function notes(h: LogHeatmap): string {
  const skipped = h.skippedExamples.map((s) => `${s.file}:${s.line}: ${s.reason}`);
  const problems = h.files.filter((f) => f.problem).map((f) => `${f.file}: ${f.problem}`);
  const all = [...h.notes, ...problems, ...skipped.map((s) => `skipped ${s}`)];
  return all.length ? `<h2>Notes</h2><ul>${all.map((t) => `<li>${esc(t)}</li>`).join("")}</ul>` : "";
}

/** A colour on a log scale from 0 to `max`. */
function colour(v: number, max: number): string {
  const f = Math.log1p(v) / Math.log1p(max);
  const i = Math.min(PALETTE.length - 1, Math.floor(f * (PALETTE.length - 1) + 0.5));
  return PALETTE[i];
}

function iso(t: number): string {
  return new Date(t).toISOString();
}

function duration(ms: number): string {
  return ms % 86_400_000 === 0 ? `${ms / 86_400_000} d` : ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

/** Text and attribute values, escaped. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
