// One build script (interfaces.md, "Build output"): the extension (vscode
// external), the language server and the CLI (fully bundled, runnable with
// plain node), the webview (browser), and the two pieces of third-party code
// the runtime loads on demand: Azurite's table service (the embedded
// emulator, spawned as its own process) and @azure/identity (Entra ID
// connections). dist/ is then all the VSIX ships: no node_modules/.
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { writeThirdPartyNotices } from "./scripts/third-party-notices.mjs";

const production = process.argv.includes("--production");
const requireHere = createRequire(import.meta.url);
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
  // jsonc-parser's UMD build requires its parts at run time, which a bundle cannot follow: take its ES modules.
  alias: { "jsonc-parser": "./node_modules/jsonc-parser/lib/esm/main.js" },
};

/**
 * Monaco's editor worker, built first and inlined into the webview bundle as
 * text: the webview creates it from a Blob, so its CSP needs no network
 * access (`connect-src 'none'`, `worker-src blob:`).
 */
const worker = await esbuild.build({
  entryPoints: ["node_modules/monaco-editor/esm/vs/editor/editor.worker.js"],
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "chrome120",
  minify: true,
  write: false,
  logLevel: "warning",
});
const webviewTarget = {
  entryPoints: ["webview/main.ts"],
  outfile: "dist/webview.js",
  bundle: true,
  platform: "browser",
  format: "iife",
  target: "chrome120",
  sourcemap: !production,
  minify: production,
  logLevel: "warning",
  loader: { ".ttf": "file" },
  assetNames: "[name]",
  define: { MONACO_EDITOR_WORKER: JSON.stringify(worker.outputFiles[0].text), TDL_VERSION: JSON.stringify(version) },
};

/**
 * `require("@azure/identity")` (a lazy load in the account clients) becomes
 * `require("./azure-identity.js")`, its own bundle beside the one that loads
 * it: Entra ID connections still cost nothing until one is used.
 */
const identityBeside = {
  name: "identity-beside",
  setup(build) {
    build.onResolve({ filter: /^@azure\/identity$/ }, () => ({ path: "./azure-identity.js", external: true }));
  },
};

/**
 * Azurite requires `applicationinsights` (with OpenTelemetry and module
 * patching behind it) for telemetry, which the embedded emulator always turns
 * off (`--disableTelemetry`). The bundle gets a stand-in that refuses use.
 */
const telemetryOff = {
  name: "azurite-telemetry-off",
  setup(build) {
    build.onResolve({ filter: /^applicationinsights$/ }, () => ({ path: "applicationinsights", namespace: "telemetry-off" }));
    build.onLoad({ filter: /.*/, namespace: "telemetry-off" }, () => ({
      loader: "js",
      contents:
        'const off = () => { throw new Error("telemetry is off in the embedded emulator"); };\n' +
        "module.exports = { setup: off, start: off, TelemetryClient: function TelemetryClient() { off(); } };\n",
    }));
  },
};

/** Third-party bundles: minified in every build (nobody steps through them), no source maps. */
const vendor = { ...node, sourcemap: false, minify: true, keepNames: true, define: {} };

const targets = [
  { ...node, entryPoints: ["client/extension.ts"], outfile: "dist/extension.js", external: ["vscode"], plugins: [identityBeside] },
  { ...node, entryPoints: ["server/server.ts"], outfile: "dist/server.js" },
  // The TypeScript analysis, loaded by the server on the first TypeScript document.
  { ...node, entryPoints: ["ts-analysis/analysis.ts"], outfile: "dist/ts-analyzer.js" },
  {
    ...node,
    entryPoints: ["cli/main.ts"],
    outfile: "dist/cli.js",
    banner: { js: "#!/usr/bin/env node" },
    plugins: [identityBeside],
  },
  webviewTarget,
];

/** Third-party bundles, by the package they come from. */
const vendorTargets = [
  // The embedded emulator (runtime/emulator/azurite.ts runs this file with node).
  {
    pkg: "azurite",
    options: {
      ...vendor,
      entryPoints: [requireHere.resolve("azurite/dist/src/table/main.js")],
      outfile: "dist/azurite-table.js",
      plugins: [telemetryOff],
    },
  },
  {
    pkg: "@azure/identity",
    options: { ...vendor, entryPoints: [requireHere.resolve("@azure/identity")], outfile: "dist/azure-identity.js" },
  },
];

/**
 * Builds a third-party bundle, or, in a development build, reuses the one
 * already in dist/ when it was made from the same package version, esbuild
 * and build script (Azurite alone takes seconds to bundle, on every test run).
 * The metafile is kept beside the bundle for the licence notices.
 */
async function buildVendor({ pkg, options }) {
  const { version: pkgVersion } = JSON.parse(readFileSync(requireHere.resolve(`${pkg}/package.json`), "utf8"));
  const script = createHash("sha256")
    .update(readFileSync(new URL(import.meta.url)))
    .digest("hex");
  const key = `${pkg}@${pkgVersion} esbuild@${esbuild.version} ${script}`;
  const metaFile = `${options.outfile}.meta.json`;
  if (!production && existsSync(options.outfile) && existsSync(metaFile)) {
    const kept = JSON.parse(readFileSync(metaFile, "utf8"));
    if (kept.key === key) return { metafile: kept.metafile };
  }
  const result = await esbuild.build({ ...options, metafile: true });
  writeFileSync(metaFile, JSON.stringify({ key, metafile: result.metafile }));
  return result;
}

/** The TypeScript lib files (lib.es2022.d.ts…) beside the bundles, so the analysis runs from dist/ alone. */
function copyTypeScriptLibs() {
  const from = path.join(path.dirname(createRequire(import.meta.url).resolve("typescript")), ".");
  const to = "dist/ts-lib";
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) if (/^lib\..*\.d\.ts$/.test(f)) cpSync(path.join(from, f), path.join(to, f));
}

copyTypeScriptLibs();
if (watch) {
  // Third-party code does not change while watching: built (or reused) once.
  await Promise.all(vendorTargets.map(buildVendor));
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log("esbuild: watching");
} else {
  const started = Date.now();
  // A production build leaves no source map of an earlier development build beside its bundles.
  if (production)
    for (const f of readdirSync("dist", { withFileTypes: true }))
      if (f.isFile() && f.name.endsWith(".map")) rmSync(path.join("dist", f.name));
  const results = await Promise.all([...targets.map((t) => esbuild.build({ ...t, metafile: true })), ...vendorTargets.map(buildVendor)]);
  const packages = writeThirdPartyNotices(
    results.map((r) => r.metafile),
    "dist/THIRD-PARTY-NOTICES.txt",
  );
  const outfiles = [...targets, ...vendorTargets.map((v) => v.options)].map((t) => t.outfile);
  console.log(`esbuild: built ${outfiles.join(", ")} (${packages} bundled packages) in ${Date.now() - started} ms`);
}
