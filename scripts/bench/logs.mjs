// The heatmap from logs (`node scripts/bench.mjs logs`): scripts/bench-logs.ts, through tsx.
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./shared.mjs";

/** `tdl heatmap --logs` over StorageTableLogs files of 250,000 and 1,000,000 lines: time and memory (scripts/bench-logs.ts, through tsx). */
export function run() {
  console.log("\nHeatmap from logs: StorageTableLogs JSON lines read by tdl heatmap --logs' code (each size in a fresh process)\n");
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench-logs.ts")], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) process.exitCode = 1;
}
