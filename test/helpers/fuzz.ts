/**
 * Shared harness of the fuzzers: every property-based test runs through
 * `fuzz()`, so that `npm test` replays a fixed seed with a small budget and
 * `npm run fuzz` (FUZZ_SEED random, FUZZ_RUNS large, FUZZ_RECORD=1) runs long
 * and records each failing input as a regression case.
 *
 * Regression cases live in `test/fuzz-regressions/<name>.json` (an array of
 * inputs, in the shape the property takes) and are replayed before the
 * random runs, so a crash found once stays a test for good.
 */
import fc from "fast-check";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

const REGRESSIONS = path.resolve(__dirname, "..", "fuzz-regressions");

/** The seed of this run: fixed in `npm test`, random under `npm run fuzz`. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** Runs of one property: `FUZZ_RUNS` when set, else the test's own budget. */
export function fuzzRuns(budget: number): number {
  return process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : budget;
}

/** The recorded failing inputs of one fuzz target. */
export function regressions<T>(name: string): T[] {
  const file = path.join(REGRESSIONS, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T[]) : [];
}

function record<T>(name: string, input: T): void {
  mkdirSync(REGRESSIONS, { recursive: true });
  const cases = regressions<T>(name);
  cases.push(input);
  writeFileSync(path.join(REGRESSIONS, `${name}.json`), JSON.stringify(cases, null, 1) + "\n");
}

/**
 * Checks `predicate` (throws or returns false on failure) on every recorded
 * regression of `name`, then on `budget` random inputs from `arb` with the
 * run's seed. A failure throws fast-check's report, which names the seed and
 * the shrunk counterexample; under FUZZ_RECORD=1 the counterexample is also
 * appended to the target's regression file.
 */
export function fuzz<T>(name: string, arb: fc.Arbitrary<T>, predicate: (input: T) => boolean | void, budget: number): void {
  for (const input of regressions<T>(name)) {
    if (predicate(input) === false)
      throw new Error(`fuzz ${name}: recorded regression fails again: ${JSON.stringify(input).slice(0, 500)}`);
  }
  const result = fc.check(fc.property(arb, predicate), { seed: FUZZ_SEED, numRuns: fuzzRuns(budget), includeErrorInReport: true });
  if (result.failed) {
    if (process.env.FUZZ_RECORD && result.counterexample) record(name, result.counterexample[0]);
    throw new Error(`fuzz ${name}: ${fc.defaultReportMessage(result)}`);
  }
}

/** Async twin of `fuzz()` for properties that talk to a process (the language server). */
export async function fuzzAsync<T>(
  name: string,
  arb: fc.Arbitrary<T>,
  predicate: (input: T) => Promise<boolean | void>,
  budget: number,
): Promise<void> {
  for (const input of regressions<T>(name)) {
    if ((await predicate(input)) === false)
      throw new Error(`fuzz ${name}: recorded regression fails again: ${JSON.stringify(input).slice(0, 500)}`);
  }
  const result = await fc.check(fc.asyncProperty(arb, predicate), {
    seed: FUZZ_SEED,
    numRuns: fuzzRuns(budget),
    includeErrorInReport: true,
  });
  if (result.failed) {
    if (process.env.FUZZ_RECORD && result.counterexample) record(name, result.counterexample[0]);
    throw new Error(`fuzz ${name}: ${fc.defaultReportMessage(result)}`);
  }
}
