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
import type { StressReport } from "@protocol/stress-report";
import type { OpType } from "@protocol";
import { clip, entityRate, formatCount } from "@core/text/words";

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

/** What each line or bar is drawn in: one of the report's colour variables (styles.css). */
type Ink = OpType | "total" | "target" | "ink" | "grid";
const INK_VARIABLE: Record<Ink, string> = {
  insert: "--report-insert",
  update: "--report-update",
  delete: "--report-delete",
  pointRead: "--report-point-read",
  query: "--report-query",
  scan: "--report-scan",
  transaction: "--report-transaction",
  total: "--report-total",
  target: "--report-target",
  ink: "--report-ink",
  grid: "--report-grid",
};
/** Used only when the stylesheet did not load: Light Modern's text colour for everything. */
const FALLBACK = "#3b3b3b";

/**
 * The theme's colours as they are now: read from the CSS variables (VS
 * Code's chart palette, see styles.css), so a chart drawn again after a
 * theme switch takes the new theme's colours.
 */
function palette(from: Element): Record<Ink, string> {
  const style = getComputedStyle(from);
  const colours = {} as Record<Ink, string>;
  for (const [ink, variable] of Object.entries(INK_VARIABLE)) colours[ink as Ink] = style.getPropertyValue(variable).trim() || FALLBACK;
  return colours;
}

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

/** The charts of one run, which can be drawn again in the theme's current colours. */
export interface RunCharts {
  recolour(): void;
}

/**
 * Draws the three charts of one run. Every colour (lines, bars, labels,
 * grid) comes from the theme; `recolour` applies the current theme's
 * colours without rebuilding the charts.
 */
export function drawCharts(
  c: { timeline: HTMLCanvasElement; latency: HTMLCanvasElement; partitions: HTMLCanvasElement },
  r: StressReport,
  ops: OpType[],
  scale: PartitionScale,
): RunCharts {
  Chart.defaults.animation = false;
  // Colours are functions of `paint`, read at every update: Chart.js caches plain colour values per dataset and would keep the old theme's.
  const paint = palette(c.timeline);
  const colour = (ink: Ink) => () => paint[ink];
  const top = r.partitions.slice(0, 20);
  const target = r.verdict.partitionTargetEntitiesPerSecond;
  const hot = top.map((p) => p.entitiesPerSecond > target || p.throttled > 0);
  const timeline = new Chart(c.timeline, {
    type: "line",
    data: {
      labels: r.timeline.map((t) => `${(t.tMs / 1000).toFixed(1)} s`),
      datasets: [
        ...ops.map((op) => ({
          label: op,
          data: r.timeline.map((t) => t.byOperation?.[op] ?? 0),
          borderColor: colour(op),
          backgroundColor: colour(op),
        })),
        {
          label: "total",
          data: r.timeline.map((t) => t.entitiesPerSecond),
          borderColor: colour("total"),
          backgroundColor: colour("total"),
        },
      ],
    },
    options: { scales: { y: { title: { display: true, text: "entities/s" }, beginAtZero: true } } },
  });
  const latency = new Chart(c.latency, {
    type: "bar",
    data: {
      labels: ["p50", "p95", "p99", "max"],
      datasets: ops.map((op) => {
        const l = r.operations[op].latencyMs;
        return { label: op, data: [l.p50, l.p95, l.p99, l.max], backgroundColor: colour(op) };
      }),
    },
    options: { scales: { y: { title: { display: true, text: "ms" }, beginAtZero: true } } },
  });
  c.partitions.dataset.scale = scale.type;
  c.partitions.dataset.min = String(scale.min);
  c.partitions.dataset.max = String(scale.max);
  const partitions = new Chart(c.partitions, {
    type: "bar",
    data: {
      labels: top.map((p) => clip(p.partitionKey, 18)),
      datasets: [
        // A zero rate has no place on a logarithmic axis: it is left out rather than drawn at the axis floor.
        {
          type: "bar" as const,
          label: "entities/s",
          data: top.map((p) => (scale.type === "logarithmic" && p.entitiesPerSecond <= 0 ? null : p.entitiesPerSecond)),
          // Red where the partition went over the target or was throttled.
          backgroundColor: (ctx: { dataIndex: number }) => (hot[ctx.dataIndex] ? paint.target : paint.insert),
        },
        {
          type: "line" as const,
          label: `target ${entityRate(target)}`,
          data: top.map(() => target),
          borderColor: colour("target"),
          backgroundColor: colour("target"),
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
  const recolour = () => {
    Object.assign(paint, palette(c.timeline));
    for (const chart of [timeline, latency, partitions] as Chart[]) {
      themeText(chart, paint);
      chart.update("none");
    }
  };
  recolour();
  return { recolour };
}

/** A chart's own options as plain objects (Chart.js keeps them after merging in every axis the chart draws). */
type Loose = Record<string, Record<string, unknown> | undefined>;

/**
 * Axis labels, titles, grid lines and the legend in the theme's text and
 * line colours. Written into the chart's own options (not the resolved
 * view of them), which the next `update` reads again.
 */
function themeText(chart: Chart, p: Record<Ink, string>): void {
  const options = chart.config.options as unknown as Record<string, unknown>;
  const part = (owner: Record<string, unknown>, key: string) => (owner[key] ??= {}) as Record<string, unknown>;
  for (const axis of Object.values(part(options, "scales") as Loose)) {
    if (!axis) continue;
    part(axis, "ticks").color = p.ink;
    part(axis, "title").color = p.ink;
    part(axis, "grid").color = p.grid;
    part(axis, "border").color = p.grid;
  }
  part(part(part(options, "plugins"), "legend"), "labels").color = p.ink;
  options.color = p.ink;
}

/** 1, 2 or 5 times a power of ten, at or above `n`: an axis end that reads well. */
function niceCeiling(n: number): number {
  if (!(n > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 5, 10].find((m) => m * p >= n) ?? 10) * p;
}
