// Inference (`node scripts/bench.mjs infer`): its time (scripts/bench-infer.ts) and its round trip over 200
// generated designs through the emulator (scripts/bench-infer-round-trip.ts), both through tsx.
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./shared.mjs";

/** `tdl infer`'s inference time for 10,000 sampled entities per example table, then the keys it recovers from 200 generated designs. */
export function run() {
  console.log("\nInference: 10,000 sampled rows of each generated table to a checked design (ms, 3 rounds)\n");
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench-infer.ts")], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) process.exitCode = 1;
  console.log("\nInference round trip: tables of 200 generated designs written to the emulator and inferred back (issue #32)\n");
  const t = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench-infer-round-trip.ts")], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (t.status !== 0) process.exitCode = 1;
}
