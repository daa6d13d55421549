/**
 * The budget of one answer. The analysis bounds what the rules check
 * (core/analysis/budget.ts); these bound what each request builds from it,
 * so that no request on a large design — a 10 MB one took 3–4 s and 1.4 GB
 * for its outline, 2 s for formatting — costs more than its share. Sizes,
 * not clocks, as in the core: an answer never depends on the machine's
 * speed. Past a bound the request answers with what fits and says what it
 * left out (`RequestScope.skipped`), once per document version.
 */
export const REQUEST_BUDGET = {
  /** Outline entries (tables and their members) of one design. */
  outlineSymbols: 5_000,
  /** Characters of a design the formatter takes on (a quarter of a second's work). */
  formatChars: 1_000_000,
  /** Code lenses of one document. */
  lenses: 1_000,
  /** Characters of the table around the caret that completion reads. */
  completionChars: 1_000_000,
  /** Locations of one references answer, and edits of one rename. */
  locations: 5_000,
} as const;

/** How long an answer may take before the log says so (a bound missing somewhere, or a busy machine). */
export const SLOW_ANSWER_MS = 1000;
