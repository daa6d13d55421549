/**
 * Properties of every offered fix on generated designs (issue #32), not on
 * the examples: for any design of the generator (test/helpers/
 * design-arbitraries.ts) and any finding with a checked fix,
 *
 * - the fixed design parses and keeps every declared query;
 * - no key repeats a property (a hash or bucket prefix of a property that
 *   the key then renders is the guide's pattern, not a repeat);
 * - no declared query gets worse (class rank, or requests beyond a fan-out);
 * - no fix puts a property an update changes (`sets`) into a key;
 * - the title names what the fix writes more: a fix that adds rows per
 *   logical write (an index row, a mirrored table) says so;
 * - the figures agree with each other after it (figures.test.ts says which);
 * - applying the first offered fix again and again ends within a bounded
 *   number of steps, never in a cycle.
 *
 * The checks are test/helpers/fix-properties.ts, which `npm run bench
 * fixes` runs over 10,000 designs. A fixed seed and a small budget in
 * `npm test`; `npm run fuzz` runs long.
 */
import { test } from "node:test";
import { fuzz } from "../../../helpers/fuzz";
import { designTextArb } from "../../../helpers/design-arbitraries";
import { checkConvergence, checkOfferedFixes } from "../../../helpers/fix-properties";

test("every offered fix of a generated design parses, repeats no property, worsens no query and names its write amplification", () => {
  fuzz("fix-properties", designTextArb, (text) => void checkOfferedFixes(text), 60);
});

test("the first offered fix, applied again and again, ends within a bounded number of steps and never comes back to a text", () => {
  fuzz("fix-convergence", designTextArb, (text) => void checkConvergence(text), 40);
});
