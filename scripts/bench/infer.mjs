// Inference time (`node scripts/bench.mjs infer`): scripts/bench-infer.ts, through tsx.
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./shared.mjs";

/** `tdl infer`'s inference time for 10,000 sampled entities per example table (scripts/bench-infer.ts, through tsx). */
export function run() {
  console.log("\nInference: 10,000 sampled rows of each generated table to a checked design (ms, 3 rounds)\n");
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench-infer.ts")], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) process.exitCode = 1;
}
