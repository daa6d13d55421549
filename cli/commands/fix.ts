/**
 * `tdl fix PATH…`, declared and run: applies checked fixes (`core/fixes/`):
 * in each table the best fix of its most severe finding, one whose check on
 * a copy of the design found that it removes its finding without making a
 * declared query or another finding worse; then the design is analysed again, until no
 * finding has such a fix (or a text comes back). `--unchecked` keeps the old
 * way: every fix that is the only one of its diagnostic, unchecked. Prints
 * each fix applied with what it leaves. Each file on its own: one that
 * cannot be read or fixed is reported and left as it was (written
 * atomically, so it is never left half-written), and the others are fixed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { AnalysisOptions, analyzeTdl, applyCheckedFixes, applyFixEdits, Fix, FixStep, LeftFinding, TakenEdits } from "@core";
import { command } from "../command";
import { ANALYSIS, analysisOf, flag } from "../options";
import { displayPath, expandPaths, isDesignFile, readInput, unreadable } from "../files";
import { EXIT, FailureLog } from "../failure";
import { describeError } from "@core/errors";
import { existingPaths } from "../validate";

export { TakenEdits } from "@core";

export const fix = command({
  name: "fix",
  summary:
    "Apply the checked quick fixes (the best one of each table's most severe finding, again until none is left); print each, then each warning or error left and why",
  description:
    "A fix is applied only when checking it on a copy of the design found that it removes its finding without making a declared query or another finding worse; the design is re-analysed after each round, and a text that comes back stops it. --unchecked applies every fix that is the only fix of its diagnostic, as before. Each file on its own: one that cannot be read or fixed is reported and left as it was (written whole, never half), and the others are fixed.",
  exits: "0; 2 a path cannot be read or written; 3 a file could not be fixed (it is left unchanged; the others are fixed)",
  positionals: { arg: "PATH...", count: "some" },
  options: {
    ...ANALYSIS.options,
    unchecked: flag(
      "apply every fix that is the only fix of its diagnostic, without checking it (the behaviour before fixes were checked)",
    ),
  },
  run({ positionals, options }) {
    // A PATH that is not there is a mistake on the command line: named alone, before anything is fixed.
    existingPaths(positionals);
    return runFix([...positionals], analysisOf(options), { unchecked: !!options.unchecked });
  },
});

const MAX_ROUNDS = 10;

export interface FixedText {
  text: string;
  /** The code of each finding fixed, in order. */
  applied: string[];
  /** Checked fixes: each one with its title (what it leaves). */
  steps?: FixStep[];
  /** Why a checked run stopped early. */
  stopped?: "cycle" | "rounds" | "budget";
  /** Checked runs: the warnings and errors no checked fix removed, and why. */
  left?: LeftFinding[];
}

/** Fixes a design: checked fixes (the default), or with `unchecked` every fix that is the only one of its diagnostic. */
export function fixText(text: string, options: AnalysisOptions = {}, how: { unchecked?: boolean } = {}): FixedText {
  if (!how.unchecked) {
    const run = applyCheckedFixes(text, options);
    return {
      text: run.text,
      applied: run.steps.map((s) => s.code),
      steps: run.steps,
      ...(run.stopped ? { stopped: run.stopped } : {}),
      ...(run.left?.length ? { left: run.left } : {}),
    };
  }
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
    text = applyFixEdits(text, taken.edits);
    applied.push(...chosen.map((c) => c.code));
  }
  return { text, applied };
}

/** The lines `tdl fix` prints under a file for each checked fix, and why it stopped early. */
function stepLines(result: FixedText): string[] {
  const lines = (result.steps ?? []).map((s) => `  ${s.code} at ${s.anchor}: ${s.title}`);
  if (result.stopped === "cycle") lines.push("  stopped: a fix brought back an earlier version of the design");
  if (result.stopped === "rounds") lines.push("  stopped: fixes still offered after the last round; run tdl fix again to go on");
  if (result.stopped === "budget")
    lines.push(
      "  stopped: the design is too large to check every fix in one run (its checking budget ran out); run tdl fix again to go on",
    );
  if (result.left?.length) {
    lines.push(`  left (${result.left.length}), not fixed automatically:`);
    for (const l of result.left) lines.push(`    ${l.severity} ${l.code} at ${l.anchor}: ${l.why}`);
  }
  return lines;
}

export interface FixRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export function runFix(paths: string[], options: AnalysisOptions = {}, how: { unchecked?: boolean } = {}): FixRun {
  const out: string[] = [];
  const problems: string[] = [];
  const failures = new FailureLog();
  let failed = 0;
  let total = 0;
  for (const file of expandPaths(paths, isDesignFile, problems)) {
    const text = readInput(file, displayPath(file), problems);
    if (text === undefined) continue;
    let result: FixedText;
    try {
      result = fixText(text, options, how);
    } catch (e) {
      failed++;
      failures.add(displayPath(file), e);
      out.push(`${displayPath(file)}: not fixed, internal failure: ${describeError(e)} (the file is unchanged)`);
      continue;
    }
    const { text: fixed, applied } = result;
    if (!applied.length) {
      // Nothing to write; what is left still says why it stays.
      if (result.left?.length) out.push(`${displayPath(file)}: no fix applied`, ...stepLines(result));
      continue;
    }
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
      ...stepLines(result),
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
