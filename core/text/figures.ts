/**
 * The five rates a stress run is told in, each defined once. The report
 * page's legend, `tdl stress`'s text, its JSON (the pattern rows' field
 * names) and docs/stress-figures.md all read this record, so a figure means the same
 * on every surface: a design's pattern is *planned* at a rate, *offered* at
 * that rate times the run's scale, *sent* as fast as the machine could start
 * its calls, and each call it sent was *served* or failed — *throttled* when
 * the service answered 503 Server Busy.
 */

/** A figure of the vocabulary: its word, its unit and its one-sentence definition. */
export interface Figure {
  word: string;
  unit: string;
  definition: string;
}

/** The names of the figures, in the order every table shows them. */
export type FigureName = "planned" | "offered" | "sent" | "served" | "throttled";

export const FIGURE_NAMES: readonly FigureName[] = ["planned", "offered", "sent", "served", "throttled"];

/** The vocabulary. The definitions are the ones docs/stress-figures.md prints (a unit test compares them). */
export const FIGURES: Readonly<Record<FigureName, Figure>> = {
  planned: {
    word: "planned",
    unit: "calls/s",
    definition: "the rate the design declares for the pattern, as on Azure: what `tdl cost` prices.",
  },
  offered: {
    word: "offered",
    unit: "calls/s",
    definition: "the rate the run paced the pattern at: planned × the run's scale (--scale, times the emulator's calibration).",
  },
  sent: {
    word: "sent",
    unit: "calls/s",
    definition: "the calls the run started, per second of the run: less than offered when every worker was busy.",
  },
  served: {
    word: "served",
    unit: "calls/s",
    definition: "the calls the service answered with success, per second of the run.",
  },
  throttled: {
    word: "throttled",
    unit: "answers/s",
    definition: "the 503 Server Busy answers per second of the run, retries included (a call retried twice is throttled twice).",
  },
};

/** "planned: the rate …" — one line of a legend. */
export function figureLegendLine(name: FigureName): string {
  const f = FIGURES[name];
  return `${f.word} (${f.unit}): ${f.definition}`;
}
