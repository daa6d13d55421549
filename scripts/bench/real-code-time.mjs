// Time on the labelled public projects (`node scripts/bench.mjs real-code-time`): per project of ../shared/corpus (in a
// temporary copy), `tdl check` beside TypeScript's own first pass, `tsc --noEmit` (issue #31: within 1.0×).
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { ROOT } from "./shared.mjs";

/** The shared corpus beside the project, or beside a folder above it (a worktree). */
function sharedCorpus() {
  for (let dir = ROOT; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const at = path.join(path.dirname(dir), "shared", "corpus", "real-code");
    if (existsSync(at)) return at;
  }
  return undefined;
}

const timed = (args, cwd) => {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8", timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
  return { ms: performance.now() - t0, status: r.status };
};

/** TypeScript's first pass over a project: its tsconfig when it has one, else its code files as JavaScript and TypeScript. */
function tscArgs(dir) {
  const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
  if (existsSync(path.join(dir, "tsconfig.json"))) return [tsc, "--noEmit", "-p", dir];
  return [tsc, "--noEmit", "--allowJs", "--skipLibCheck", "--module", "nodenext", "--target", "es2022", ...codeFiles(dir)];
}

function codeFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name.startsWith(".")) continue;
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.(ts|tsx|js|jsx|mjs|cjs)$/.test(e.name) && !/\.d\.ts$/.test(e.name)) out.push(full);
    }
  };
  walk(dir);
  return out;
}

/** The section. */
export async function run() {
  const shared = sharedCorpus();
  if (!shared) return;
  const copy = mkdtempSync(path.join(tmpdir(), "real-code-time-"));
  try {
    cpSync(shared, copy, { recursive: true });
    symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
    console.log(`\nTime per public project (../shared/corpus, a temporary copy): tdl check beside tsc --noEmit, both cold (s)\n`);
    console.log(`${"project".padEnd(36)} ${"tdl check".padStart(10)} ${"tsc".padStart(8)} ${"ratio".padStart(7)}`);
    const ratios = [];
    const cli = path.join(ROOT, "dist", "cli.js");
    for (const p of readdirSync(copy, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== "node_modules")) {
      if (process.env.REAL_CODE_ONLY && p.name !== process.env.REAL_CODE_ONLY) continue;
      const ours = timed([cli, "check", p.name, "--format", "json"], copy);
      const theirs = timed(tscArgs(path.join(copy, p.name)), copy);
      const ratio = ours.ms / theirs.ms;
      ratios.push(ratio);
      console.log(
        `${p.name.padEnd(36)} ${(ours.ms / 1000).toFixed(1).padStart(10)} ${(theirs.ms / 1000).toFixed(1).padStart(8)} ${ratio.toFixed(2).padStart(7)}`,
      );
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `ratio (tdl check / tsc): median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)}, worst ${sorted[sorted.length - 1]?.toFixed(2)}, ` +
        `${ratios.filter((r) => r <= 1).length}/${ratios.length} projects within 1.0×; target: every project within 1.0×`,
    );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
