// `npm test`: installs dependencies if they are missing, builds, type-checks,
// then runs every test tier with node's test runner: unit, LSP over JSON-RPC,
// CLI, and end-to-end in a real VS Code.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync(path.join(ROOT, "node_modules", ".bin", "esbuild"))) step("npm", ["install", "--no-audit", "--no-fund"]);
step(process.execPath, ["esbuild.mjs"]);
step(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "."]);
step(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "webview"]);

const tiers = (process.env.TEST_TIERS ?? "unit,lsp,cli,integration,browser,e2e").split(",");
const files = tiers.flatMap((tier) => {
  const dir = path.join(ROOT, "test", tier);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".test.ts")).sort().map((f) => path.join("test", tier, f)) : [];
});
const extra = process.argv.slice(2);
step(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", ...extra, ...files]);
