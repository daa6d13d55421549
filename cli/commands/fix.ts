/** `tdl fix PATH…`, declared: the fixing itself is fix.ts. */
import { command } from "../command";
import { ANALYSIS, analysisOf, flag } from "../options";
import { runFix } from "../fix";
import { existingPaths } from "../validate";

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
