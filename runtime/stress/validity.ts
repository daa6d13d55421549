/**
 * Whether a run measured enough to be judged at all. A run whose service
 * stalled (seconds in which nothing was served and nothing failed, while
 * the load should have kept it busy) or whose engine lost a worker did not
 * send the design's load: its figures are low for a reason that is not the
 * design's, and "OK" would be a verdict on nothing. Such a run is invalid —
 * its own verdict, and exit code 1 in the CLI — with the reason in words.
 */
import { plural } from "@core/text/words";
import type { StressMode, TimelinePoint } from "@protocol/stress-report";

/** A stall this long (seconds in a row with nothing served or failed) makes a run invalid… */
const STALL_SECONDS = 5;
/** …and so do empty seconds making up this share of the run (at least MIN_EMPTY of them). */
const EMPTY_SHARE = 0.25;
const MIN_EMPTY = 3;
/** A paced run slower than this may leave seconds empty by design. */
const BUSY_CALLS_PER_SECOND = 2;

/**
 * Why the timeline cannot be judged, or undefined. A closed load (the peak
 * modes) keeps every second busy; a paced one only from a few calls a second.
 */
export function stallOf(
  timeline: readonly TimelinePoint[],
  durationMs: number,
  mode: StressMode,
  paceCallsPerSecond?: number,
): string | undefined {
  if (mode === "design" && (paceCallsPerSecond ?? 0) < BUSY_CALLS_PER_SECOND) return undefined;
  // Whole seconds of the run: the timeline ends at its last second with an answer, so a stall to the end has no points.
  const total = Math.max(timeline.length, Math.floor(durationMs / 1000));
  let empty = 0;
  let run = 0;
  let longest = 0;
  for (let i = 0; i < total; i++) {
    const p = timeline[i];
    if (!p || (p.entities === 0 && p.errors === 0)) {
      empty++;
      longest = Math.max(longest, ++run);
    } else run = 0;
  }
  if (longest < STALL_SECONDS && (empty < MIN_EMPTY || empty < EMPTY_SHARE * total)) return undefined;
  return `the service served nothing in ${empty} of the run's ${plural(total, "second")} (the longest stall ${longest} s), so the run did not carry the design's load`;
}

/** The verdict's headline for an invalid run: what made it so, and what to do. */
export function invalidHeadline(reasons: readonly string[]): string {
  return `INVALID: ${reasons[0]}${reasons.length > 1 ? ` (and ${plural(reasons.length - 1, "more reason")})` : ""}; nothing to judge the design by: run it again`;
}
