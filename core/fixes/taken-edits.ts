/**
 * Edits applied together must not overlap: a set of taken edits that
 * answers "does this one clash?" in logarithmic time.
 */
import { TextEdit } from "../findings";

/**
 * The edits of one round, kept sorted by start and end so that checking a
 * new edit against them is a binary search (a design with thousands of
 * fixes would otherwise take a quadratic number of comparisons). Taken edits
 * never overlap, so sorted this way their ends never decrease either.
 */
export class TakenEdits {
  readonly edits: TextEdit[] = [];

  /** Index of the first edit that starts (and ends) at or after `e`. */
  private lowerBound(e: TextEdit): number {
    let lo = 0;
    let hi = this.edits.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = this.edits[mid];
      if (t.start < e.start || (t.start === e.start && t.end < e.end)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Whether `e` overlaps a taken edit, or replaces the same range (two insertions at one point). */
  clashes(e: TextEdit): boolean {
    const i = this.lowerBound(e);
    // Only the last edit before `e` can reach into it; after it, if the first does not overlap, the next is the last that might.
    for (const t of [this.edits[i - 1], this.edits[i], this.edits[i + 1]]) {
      if (t && ((e.start < t.end && t.start < e.end) || (e.start === t.start && e.end === t.end))) return true;
    }
    return false;
  }

  add(e: TextEdit): void {
    this.edits.splice(this.lowerBound(e), 0, e);
  }
}
