/**
 * The fixes section of `npm run bench` (`node scripts/bench.mjs fixes`
 * alone): the properties of every offered fix (test/helpers/
 * fix-properties.ts — parses, repeats no property, worsens no query, names
 * its write amplification, keeps the figures consistent, converges) over
 * 10,000 designs of the generator (BENCH_DESIGNS overrides the count,
 * BENCH_SEED the seed). Prints the count, the fixes checked and the
 * failures, with the first few failing designs; exits 1 on any failure.
 */
import fc from "fast-check";
import { performance } from "node:perf_hooks";
import { designTextArb } from "../test/helpers/design-arbitraries";
import { checkConvergence, checkOfferedFixes } from "../test/helpers/fix-properties";
import { formatCount } from "@core/text/words";

const DESIGNS = Number(process.env.BENCH_DESIGNS ?? 10_000);
const SEED = Number(process.env.BENCH_SEED ?? 20261128);
const SHOWN = 3;

const t0 = performance.now();
let fixes = 0;
let steps = 0;
const failures: string[] = [];
for (const text of fc.sample(designTextArb, { seed: SEED, numRuns: DESIGNS })) {
  try {
    fixes += checkOfferedFixes(text);
    steps += checkConvergence(text);
  } catch (e) {
    failures.push(e instanceof Error ? e.message : String(e));
  }
}
const seconds = (performance.now() - t0) / 1000;
console.log(
  `${formatCount(DESIGNS)} generated designs (seed ${SEED}): ${formatCount(fixes)} offered fixes checked, ` +
    `${formatCount(steps)} convergence steps, ${formatCount(failures.length)} failures, in ${seconds.toFixed(0)} s`,
);
for (const f of failures.slice(0, SHOWN)) console.log(`\n--- failure ---\n${f.slice(0, 2000)}`);
if (failures.length) process.exitCode = 1;
