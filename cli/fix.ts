/**
 * `tdl fix PATH…`: applies every quick fix that is the only fix of its
 * diagnostic, re-analysing after each round, and prints what it changed.
 * Each file on its own: one that cannot be read or fixed is reported and
 * left as it was (written atomically, so it is never left half-written),
 * and the others are fixed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { AnalysisOptions, analyzeTdl, Fix, TextEdit } from "@core";
import { displayPath, isDesignFile } from "./check";
import { expandPaths, readInput, unreadable } from "./files";
import { EXIT, FailureLog } from "./failure";
import { describeError } from "@core/errors";

const MAX_ROUNDS = 10;

/** Applies single fixes until none is left; returns the new text and the codes fixed. */
export function fixText(text: string, options: AnalysisOptions = {}): { text: string; applied: string[] } {
  const applied: string[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const candidates = analyzeTdl(text, options).findings.filter((f) => f.fixes?.length === 1);
    const chosen: Array<{ code: string; fix: Fix }> = [];
    const taken = new TakenEdits();
    for (const f of candidates) {
      const fix = f.fixes![0];
      // One round applies fixes whose edits do not overlap; the rest wait for the next round.
      if (fix.edits.some((e) => taken.clashes(e))) continue;
      for (const e of fix.edits) taken.add(e);
      chosen.push({ code: f.code, fix });
    }
    if (!chosen.length) break;
    text = applyEdits(text, taken.edits);
    applied.push(...chosen.map((c) => c.code));
  }
  return { text, applied };
}

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

/** Applies non-overlapping edits in one pass (linear in the text, however many edits). */
function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  for (const e of sorted) {
    parts.push(text.slice(at, e.start), e.newText);
    at = Math.max(at, e.end);
  }
  parts.push(text.slice(at));
  return parts.join("");
}

export interface FixRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export function runFix(paths: string[], options: AnalysisOptions = {}): FixRun {
  const out: string[] = [];
  const problems: string[] = [];
  const failures = new FailureLog();
  let failed = 0;
  let total = 0;
  for (const file of expandPaths(paths, isDesignFile, problems)) {
    const text = readInput(file, displayPath(file), problems);
    if (text === undefined) continue;
    let result: ReturnType<typeof fixText>;
    try {
      result = fixText(text, options);
    } catch (e) {
      failed++;
      failures.add(displayPath(file), e);
      out.push(`${displayPath(file)}: not fixed, internal failure: ${describeError(e)} (the file is unchanged)`);
      continue;
    }
    const { text: fixed, applied } = result;
    if (!applied.length) continue;
    try {
      writeAtomically(file, fixed);
    } catch (e) {
      problems.push(unreadable(displayPath(file), e, "cannot write"));
      continue;
    }
    total += applied.length;
    const counts = new Map<string, number>();
    for (const c of applied) counts.set(c, (counts.get(c) ?? 0) + 1);
    out.push(
      `${displayPath(file)}: ${applied.length} fix${applied.length === 1 ? "" : "es"} (${[...counts].map(([c, n]) => (n > 1 ? `${c} ×${n}` : c)).join(", ")})`,
    );
  }
  out.push(`${total} fix${total === 1 ? "" : "es"} applied`);
  const exitCode = failed ? EXIT.internal : problems.length ? EXIT.usage : EXIT.clean;
  return { stdout: out.join("\n") + "\n", stderr: problems.map((p) => `tdl: ${p}\n`).join("") + failures.text(), exitCode };
}

/** Writes beside the file and renames over it: an interrupted write never leaves half a design. */
function writeAtomically(link: string, text: string): void {
  // Through a symbolic link to the design it points at: the rename must not replace the link with a copy.
  const file = fs.realpathSync(link);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { mode: fs.statSync(file).mode });
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}
