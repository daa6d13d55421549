// `npm run fuzz`: the property-based fuzzers (every `test/*/fuzz-*.test.ts`,
// and the property suites over generated designs of PROPERTY_SUITES) run
// long with a random seed; each failing input is written to
// `test/fuzz-regressions/<target>.json`, which `npm test` replays for good.
// FUZZ_SEED and FUZZ_RUNS override the seed and the runs per property.
import { spawnSync } from "node:child_process";
import { readdirSync, existsSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seed = process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
const runs = process.env.FUZZ_RUNS ?? "20000";
/** Property suites over generated designs (issue #32) that run with the fuzzers. */
const PROPERTY_SUITES = [
  "test/unit/core/fixes/properties.test.ts",
  "test/unit/core/fixes/figures.test.ts",
  "test/unit/core/model/sample-keys.test.ts",
];
const fuzzers = ["unit", "lsp", "cli", "integration"].flatMap((tier) => {
  const dir = path.join(ROOT, "test", tier);
  return existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((f) => /(^|\/)fuzz-[^/]*\.test\.ts$/.test(f))
        .sort()
        .map((f) => path.join("test", tier, f))
    : [];
});
const files = [...fuzzers, ...PROPERTY_SUITES];
console.log(`fuzz: seed ${seed}, ${runs} runs per property, ${files.length} files (replay with FUZZ_SEED=${seed})`);
const r = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", ...files], {
  cwd: ROOT,
  stdio: "inherit",
  env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: runs, FUZZ_RECORD: "1" },
});
if (r.status !== 0) console.log("fuzz: failing inputs were added to test/fuzz-regressions/; commit them with the fix.");
process.exit(r.status ?? 1);
