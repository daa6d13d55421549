/**
 * A run's figures side by side, one row per access pattern, in the
 * vocabulary of core/text/figures.ts (planned, offered, sent, served,
 * throttled): the one table `tdl stress`'s text and the report page both
 * print. A figure a report does not carry (a report written before the
 * vocabulary, a Locust run that did not count 503s per pattern) is
 * undefined, shown as "–".
 */
import { FIGURE_NAMES, type FigureName } from "@core/text/figures";
import type { PatternReport, StressReport } from "./stress-report";

/** One pattern's row: its name, the call it ran as, and each figure in calls (answers) per second. */
export interface FigureRow {
  name: string;
  pattern: PatternReport;
  figures: Record<FigureName, number | undefined>;
}

/** The rows of a design run's patterns (none for the peak modes). */
export function figureRows(r: StressReport): FigureRow[] {
  return (r.patterns ?? []).map((p) => ({
    name: p.name,
    pattern: p,
    figures: {
      planned: p.plannedPerSecond,
      offered: p.callsPerSecond,
      sent: p.sentPerSecond,
      served: p.servedPerSecond,
      throttled: p.throttledPerSecond,
    },
  }));
}

export { FIGURE_NAMES };
