/** `tdl fix PATH…`, declared: the fixing itself is fix.ts. */
import { command } from "../command";
import { ANALYSIS, analysisOf } from "../options";
import { runFix } from "../fix";

export const fix = command({
  name: "fix",
  summary: "Apply every quick fix that is the only fix of its diagnostic; print a summary",
  description:
    "Designs are re-analysed after each round of fixes. Each file on its own: one that cannot be read or fixed is reported and left as it was (written whole, never half), and the others are fixed.",
  exits: "0; 2 a path cannot be read or written; 3 a file could not be fixed (it is left unchanged; the others are fixed)",
  positionals: { arg: "PATH...", count: "some" },
  options: { ...ANALYSIS.options },
  run({ positionals, options }) {
    return runFix([...positionals], analysisOf(options));
  },
});
