/**
 * The stress report's charts, drawn with Chart.js: throughput over time per
 * operation (the timeline's last point is already a rate over its real
 * length, so lines do not drop at the end), latency percentiles, and the
 * hottest partitions against the per-partition target. Partitions far below
 * the target would be invisible bars under a target line at the top, so
 * that chart switches to a logarithmic axis that still shows the target.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
} from "chart.js";
import type { StressReport } from "../protocol";
import type { OpType } from "../../../client/src/runtime/shapes";
import { entityRate, formatCount } from "../../../client/src/runtime/shapes";

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LogarithmicScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

export const OPS: OpType[] = ["insert", "update", "delete", "pointRead", "query", "scan", "transaction"];
const COLORS: Record<OpType | "total" | "target", string> = {
  insert: "#3794ff",
  update: "#4ec9b0",
  delete: "#d16969",
  pointRead: "#89d185",
  query: "#cca700",
  scan: "#ce9178",
  transaction: "#b180d7",
  total: "#c586c0",
  target: "#f14c4c",
};

/** The operations worth a row and a line: those that ran or failed. */
export function shownOps(r: StressReport): OpType[] {
  return OPS.filter((op) => r.operations[op] && (r.operations[op].count || Object.keys(r.operations[op].errors).length));
}

/** How the hottest-partitions axis is drawn, and the sentence under its heading. */
export interface PartitionScale {
  type: "linear" | "logarithmic";
  min: number;
  max: number;
  caption: string;
}

/**
 * A linear axis from 0 when the hottest partition reaches a tenth of the
 * target (bars and target line both readable); otherwise a logarithmic one
 * from the decade below the coolest bar to the decade above the target.
 */
export function hottestScale(r: StressReport): PartitionScale {
  const target = r.verdict.partitionTargetEntitiesPerSecond;
  const rates = r.partitions
    .slice(0, 20)
    .map((p) => p.entitiesPerSecond)
    .filter((v) => v > 0);
  const hottest = rates.length ? Math.max(...rates) : 0;
  const share = target > 0 ? (hottest / target) * 100 : 0;
  const of = `The hottest partition took ${entityRate(hottest)}, ${formatCount(share)} % of the ${entityRate(target)} partition target (dashed line)`;
  if (!rates.length || hottest >= target / 10) {
    return { type: "linear", min: 0, max: niceCeiling(Math.max(hottest, target) * 1.1), caption: `${of}.` };
  }
  const min = 10 ** Math.floor(Math.log10(Math.min(...rates)));
  const max = 10 ** Math.ceil(Math.log10(target * 1.01));
  return { type: "logarithmic", min, max, caption: `${of}; the axis is logarithmic so that partitions far below the target stay visible.` };
}

export function drawCharts(
  c: { timeline: HTMLCanvasElement; latency: HTMLCanvasElement; partitions: HTMLCanvasElement },
  r: StressReport,
  ops: OpType[],
  scale: PartitionScale,
): void {
  Chart.defaults.color = getComputedStyle(document.body).getPropertyValue("--vscode-foreground").trim() || "#333";
  Chart.defaults.animation = false;
  new Chart(c.timeline, {
    type: "line",
    data: {
      labels: r.timeline.map((t) => `${(t.tMs / 1000).toFixed(1)} s`),
      datasets: [
        ...ops.map((op) => ({
          label: op,
          data: r.timeline.map((t) => t.byOperation?.[op] ?? 0),
          borderColor: COLORS[op],
          backgroundColor: COLORS[op],
        })),
        { label: "total", data: r.timeline.map((t) => t.entitiesPerSecond), borderColor: COLORS.total, backgroundColor: COLORS.total },
      ],
    },
    options: { scales: { y: { title: { display: true, text: "entities/s" }, beginAtZero: true } } },
  });
  new Chart(c.latency, {
    type: "bar",
    data: {
      labels: ["p50", "p95", "p99", "max"],
      datasets: ops.map((op) => {
        const l = r.operations[op].latencyMs;
        return { label: op, data: [l.p50, l.p95, l.p99, l.max], backgroundColor: COLORS[op] };
      }),
    },
    options: { scales: { y: { title: { display: true, text: "ms" }, beginAtZero: true } } },
  });
  const top = r.partitions.slice(0, 20);
  const target = r.verdict.partitionTargetEntitiesPerSecond;
  c.partitions.dataset.scale = scale.type;
  c.partitions.dataset.min = String(scale.min);
  c.partitions.dataset.max = String(scale.max);
  new Chart(c.partitions, {
    type: "bar",
    data: {
      labels: top.map((p) => (p.partitionKey.length > 18 ? p.partitionKey.slice(0, 17) + "…" : p.partitionKey)),
      datasets: [
        // A zero rate has no place on a logarithmic axis: it is left out rather than drawn at the axis floor.
        {
          type: "bar" as const,
          label: "entities/s",
          data: top.map((p) => (scale.type === "logarithmic" && p.entitiesPerSecond <= 0 ? null : p.entitiesPerSecond)),
          backgroundColor: top.map((p) => (p.entitiesPerSecond > target || p.throttled > 0 ? COLORS.target : COLORS.insert)),
        },
        {
          type: "line" as const,
          label: `target ${entityRate(target)}`,
          data: top.map(() => target),
          borderColor: COLORS.target,
          borderDash: [6, 4],
          pointRadius: 0,
        },
      ],
    },
    options: {
      scales: {
        y: {
          type: scale.type,
          min: scale.min,
          max: scale.max,
          title: { display: true, text: scale.type === "logarithmic" ? "entities/s (log scale)" : "entities/s" },
        },
      },
    },
  });
}

/** 1, 2 or 5 times a power of ten, at or above `n`: an axis end that reads well. */
function niceCeiling(n: number): number {
  if (!(n > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 5, 10].find((m) => m * p >= n) ?? 10) * p;
}
