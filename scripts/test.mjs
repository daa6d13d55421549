// `npm test`: installs dependencies if they are missing, builds, type-checks,
// lints and checks formatting, then runs the test tiers with node's test
// runner: unit, LSP over JSON-RPC, CLI, integration (real Azurite), browser
// (headless Chromium) and end-to-end in a real VS Code.
//
//   npm test                                   every tier
//   TEST_TIERS=unit,lsp npm test               some tiers
//   npm test -- test/unit/core/rules/keys.test.ts   one file (or several, or a folder's); other arguments go to node --test
//   TEST_SKIP_CHECKS=1 npm test -- FILE        skip type-check, lint and format (quick reruns)
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const bin = (pkg, file) => path.join(ROOT, "node_modules", pkg, file);

if (!existsSync(path.join(ROOT, "node_modules", ".bin", "esbuild"))) step("npm", ["install", "--no-audit", "--no-fund"]);
step(process.execPath, ["esbuild.mjs"]);
if (!process.env.TEST_SKIP_CHECKS) {
  // Project references: each layer is checked against only the layers it may import.
  step(process.execPath, [bin("typescript", "bin/tsc"), "-b"]);
  step(process.execPath, [bin("eslint", "bin/eslint.js"), "--max-warnings", "0", "."]);
  step(process.execPath, [bin("prettier", "bin/prettier.cjs"), "--check", "--log-level", "warn", "."]);
}

/** Every `*.test.ts` below a folder, in a stable order. */
function testFiles(dir) {
  return existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".test.ts"))
        .sort()
        .map((f) => path.join(dir, f))
    : [];
}

const args = process.argv.slice(2);
/** A folder argument stands for the test files below it (`npm test -- test/unit/core`), not for every tier. */
const isFolder = (a) => !a.startsWith("-") && existsSync(a) && statSync(a).isDirectory();
const chosen = args.flatMap((a) => (a.endsWith(".test.ts") ? [a] : isFolder(a) ? testFiles(a) : []));
const extra = args.filter((a) => !a.endsWith(".test.ts") && !isFolder(a));
const tiers = (process.env.TEST_TIERS ?? "unit,lsp,cli,integration,browser,e2e").split(",");
/**
 * Tiers whose tests are pure computation run two files at a time (one per
 * core of the reference machine); the tiers that start servers, browsers
 * or VS Code, or judge rates, run one file at a time.
 */
const PARALLEL = new Set(["unit", "lsp", "cli"]);
/** Runs the files; a failure is remembered, and the other group still runs (one red tier should not hide another). */
let failed = 0;
const run = (files, concurrency) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, ...extra, ...files], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (r.status !== 0) failed = r.status ?? 1;
};
if (chosen.length) run(chosen, 1);
else {
  const parallel = tiers.filter((t) => PARALLEL.has(t)).flatMap((tier) => testFiles(path.join("test", tier)));
  const serial = tiers.filter((t) => !PARALLEL.has(t)).flatMap((tier) => testFiles(path.join("test", tier)));
  if (parallel.length) run(parallel, Math.min(2, availableParallelism()));
  if (serial.length) run(serial, 1);
}
process.exit(failed);
