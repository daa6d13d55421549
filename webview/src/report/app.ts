/**
 * The stress report view: for each run (two side by side when comparing
 * designs), the verdict, the operations' figures, and three charts drawn
 * with Chart.js — throughput over time per operation, latency percentiles,
 * and the hottest partitions against the per-partition target.
 */
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip,
} from "chart.js";
import type { ReportState, StressReport } from "../protocol";
import { h } from "../dom";

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip);

const OPS = ["insert", "pointRead", "query"] as const;
const COLORS = { insert: "#3794ff", pointRead: "#89d185", query: "#cca700", total: "#c586c0", target: "#f14c4c" };

export function renderReports(root: HTMLElement, state: ReportState): void {
  const fg = getComputedStyle(document.body).getPropertyValue("--vscode-foreground").trim() || "#333";
  Chart.defaults.color = fg;
  Chart.defaults.animation = false;
  root.append(h("div", { class: `reports runs-${state.runs.length}` }, ...state.runs.map((run) => renderRun(run.label, run.report))));
}

function renderRun(label: string, r: StressReport): HTMLElement {
  const canvas = () => h("canvas", { width: 560, height: 220 });
  const timeline = canvas();
  const latency = canvas();
  const partitions = canvas();
  const ops = OPS.filter((op) => r.operations[op].count || Object.keys(r.operations[op].errors).length);
  const el = h("section", { class: "run" },
    h("h1", {}, label),
    h("p", { class: "meta" }, `${r.mode} · ${r.target} · ${(r.durationMs / 1000).toFixed(1)} s · concurrency ${r.concurrency} · table ${r.table}${r.stopped ? ` · stopped: ${r.stopped}` : ""}`),
    h("p", { class: `verdict ${r.verdict.exceedsTarget ? "hot" : "ok"}` },
      h("strong", {}, `Hottest partition: ${r.verdict.hottestPartitionEntitiesPerSecond.toLocaleString("en-US")} entities/s`),
      ` (target ${r.verdict.partitionTargetEntitiesPerSecond.toLocaleString("en-US")}). ${r.verdict.note}`),
    h("table", { class: "ops" },
      h("thead", {}, h("tr", {}, ...["operation", "entities/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors", "retries"].map((c) => h("th", {}, c)))),
      h("tbody", {}, ...ops.map((op) => {
        const o = r.operations[op];
        return h("tr", {}, h("td", {}, op), h("td", {}, o.entitiesPerSecond.toLocaleString("en-US")), h("td", {}, String(o.latencyMs.p50)), h("td", {}, String(o.latencyMs.p95)),
          h("td", {}, String(o.latencyMs.p99)), h("td", {}, String(o.latencyMs.max)), h("td", {}, JSON.stringify(o.errors)), h("td", {}, String(o.retries)));
      }))),
    h("h2", {}, "Throughput over time"), timeline,
    h("h2", {}, "Latency percentiles"), latency,
    h("h2", {}, `Hottest partitions (of ${r.partitions.length})`), partitions);
  queueMicrotask(() => {
    new Chart(timeline, {
      type: "line",
      data: {
        labels: r.timeline.map((t) => `${t.tMs / 1000}s`),
        datasets: [
          ...ops.map((op) => ({ label: op, data: r.timeline.map((t) => t.byOperation?.[op] ?? 0), borderColor: COLORS[op], backgroundColor: COLORS[op] })),
          { label: "total", data: r.timeline.map((t) => t.entitiesPerSecond), borderColor: COLORS.total, backgroundColor: COLORS.total },
        ],
      },
      options: { scales: { y: { title: { display: true, text: "entities/s" }, beginAtZero: true } } },
    });
    new Chart(latency, {
      type: "bar",
      data: {
        labels: ["p50", "p95", "p99", "max"],
        datasets: ops.map((op) => ({ label: op, data: [r.operations[op].latencyMs.p50, r.operations[op].latencyMs.p95, r.operations[op].latencyMs.p99, r.operations[op].latencyMs.max], backgroundColor: COLORS[op] })),
      },
      options: { scales: { y: { title: { display: true, text: "ms" }, beginAtZero: true } } },
    });
    const top = r.partitions.slice(0, 20);
    new Chart(partitions, {
      type: "bar",
      data: {
        labels: top.map((p) => p.partitionKey.length > 18 ? p.partitionKey.slice(0, 17) + "…" : p.partitionKey),
        datasets: [
          { type: "bar" as const, label: "entities/s", data: top.map((p) => p.entitiesPerSecond), backgroundColor: top.map((p) => (p.entitiesPerSecond > r.verdict.partitionTargetEntitiesPerSecond ? COLORS.target : COLORS.insert)) },
          { type: "line" as const, label: "target", data: top.map(() => r.verdict.partitionTargetEntitiesPerSecond), borderColor: COLORS.target, borderDash: [6, 4], pointRadius: 0 },
        ],
      },
      options: { scales: { y: { beginAtZero: true, title: { display: true, text: "entities/s" } } } },
    });
  });
  return el;
}
