// Fix properties at scale (`node scripts/bench.mjs fixes`): scripts/bench-fixes.ts, through tsx.
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./shared.mjs";

/** The properties of every offered fix over 10,000 generated designs: the count and the failures (0 expected). */
export function run() {
  console.log("\nFixes: the properties of every offered fix over generated designs (issue #32)\n");
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench-fixes.ts")], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) process.exitCode = 1;
}
