/**
 * Loads the TypeScript analysis on demand: its own bundle beside the server
 * and CLI bundles (dist/ts-analyzer.js), so that starting them does not load
 * the compiler; the source module when running unbundled (tests).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** TypeScript and JavaScript sources the analysis takes: declaration files and minified bundles excluded. */
export function isTsFile(f: string): boolean {
  return /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(f) && !/\.d\.(ts|mts|cts)$/.test(f) && !/\.min\.[cm]?js$/.test(f);
}

export function loadTsAnalysis(): typeof import("./analysis") {
  const bundled = path.join(__dirname, "ts-analyzer.js");
  const target = fs.existsSync(bundled) ? bundled : path.join(__dirname, "analysis");
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the analysis is a separate bundle, loaded on the first TypeScript document
  return require(target) as typeof import("./analysis");
}
