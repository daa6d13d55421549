// One build script, four bundles (interfaces.md, "Build output"):
// the extension (vscode external), the language server and the CLI (fully
// bundled, runnable with plain node), and the webview (browser).
import * as esbuild from "esbuild";
import { cpSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");
const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));

const node = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: !production,
  minify: production,
  logLevel: "warning",
  define: { TDL_VERSION: JSON.stringify(version) },
};

/**
 * Monaco's editor worker, built first and inlined into the webview bundle as
 * text: the webview creates it from a Blob, so its CSP needs no network
 * access (`connect-src 'none'`, `worker-src blob:`).
 */
const worker = await esbuild.build({
  entryPoints: ["node_modules/monaco-editor/esm/vs/editor/editor.worker.js"], bundle: true, format: "iife", platform: "browser",
  target: "chrome120", minify: true, write: false, logLevel: "warning",
});
const webviewTarget = {
  entryPoints: ["webview/src/main.ts"], outfile: "dist/webview.js", bundle: true, platform: "browser", format: "iife",
  target: "chrome120", sourcemap: !production, minify: production, logLevel: "warning",
  loader: { ".ttf": "file" }, assetNames: "[name]",
  define: { MONACO_EDITOR_WORKER: JSON.stringify(worker.outputFiles[0].text), TDL_VERSION: JSON.stringify(version) },
};

const targets = [
  // Azurite is spawned from its package and @azure/identity loads lazily: both stay in node_modules.
  { ...node, entryPoints: ["client/src/extension.ts"], outfile: "dist/extension.js", external: ["vscode", "azurite", "@azure/identity"] },
  { ...node, entryPoints: ["server/src/server.ts"], outfile: "dist/server.js" },
  // The TypeScript analysis, loaded by the server on the first TypeScript document.
  { ...node, entryPoints: ["server/src/typescript/analysis.ts"], outfile: "dist/ts-analyzer.js" },
  { ...node, entryPoints: ["server/src/cli/main.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" }, external: ["azurite", "@azure/identity"] },
  webviewTarget,
];

/** The TypeScript lib files (lib.es2022.d.ts…) beside the bundles, so the analysis runs from dist/ alone. */
function copyTypeScriptLibs() {
  const from = path.join(path.dirname(createRequire(import.meta.url).resolve("typescript")), ".");
  const to = "dist/ts-lib";
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) if (/^lib\..*\.d\.ts$/.test(f)) cpSync(path.join(from, f), path.join(to, f));
}

copyTypeScriptLibs();
if (watch) {
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log("esbuild: watching");
} else {
  const started = Date.now();
  await Promise.all(targets.map((t) => esbuild.build(t)));
  console.log(`esbuild: built ${targets.map((t) => t.outfile).join(", ")} in ${Date.now() - started} ms`);
}
