// A real VS Code for `npm start` and the end-to-end tests: code-server
// 4.100.3 (VS Code 1.100.3) installed on first use into the ignored
// `.vscode-test/` folder, started on 127.0.0.1 with fresh user data, with the
// freshly built extension installed (copied from dist/, or a packaged VSIX
// installed by code-server itself). See ../shared/recipes/real-vscode.md.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const VERSION = "4.100.3";
const HOME = path.join(ROOT, ".vscode-test", `code-server-${VERSION}`);
const BIN = path.join(HOME, "node_modules", ".bin", "code-server");

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed with exit code ${r.status}`);
}

/**
 * @vscode/ripgrep downloads rg from GitHub unless its cache holds the tarball;
 * these machines reach no GitHub, so the cache is filled from Debian's rg
 * (the same version, 13.0.0).
 */
function seedRipgrepCache() {
  const cache = path.join(tmpdir(), "vscode-ripgrep-cache-1.15.11");
  const tarball = path.join(cache, "ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz");
  if (existsSync(tarball)) return;
  if (!existsSync("/usr/bin/rg")) throw new Error("ripgrep is missing: apt-get install ripgrep (code-server needs it)");
  mkdirSync(cache, { recursive: true });
  const stage = mkdtempSync(path.join(tmpdir(), "rg-"));
  cpSync("/usr/bin/rg", path.join(stage, "rg"));
  run("tar", ["czf", tarball, "-C", stage, "rg"]);
  rmSync(stage, { recursive: true, force: true });
}

/** Installs code-server on first use; returns the path of its launcher. */
/**
 * A fresh copy of examples/ in a scratch folder inside the ignored
 * .vscode-test/ (so quick fixes never change tracked files, and code in it
 * still resolves @azure/data-tables from the repository's node_modules, as
 * in a user's project). The caller deletes it.
 */
export function scratchExamples() {
  const base = path.join(ROOT, ".vscode-test", "workspaces");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, "examples-"));
  cpSync(path.join(ROOT, "examples"), dir, { recursive: true });
  return dir;
}

export function ensureCodeServer() {
  if (existsSync(BIN)) return BIN;
  console.log(`Installing code-server ${VERSION} into ${path.relative(ROOT, HOME)} (first run only, about a minute)…`);
  seedRipgrepCache();
  mkdirSync(HOME, { recursive: true });
  writeFileSync(path.join(HOME, "package.json"), JSON.stringify({ name: "vscode-test-code-server", private: true }));
  const env = { ...process.env, npm_config_unsafe_perm: "true", npm_config_yes: "true", npm_config_update_notifier: "false" };
  // Fetch without scripts, then build the native modules (node-gyp) with the
  // scripts allowed for this folder only.
  run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", `code-server@${VERSION}`], { cwd: HOME, env });
  spawnSync("npm", ["install-scripts", "approve", "--all"], { cwd: HOME, env, stdio: "ignore" });
  run("npm", ["rebuild", "--foreground-scripts"], { cwd: HOME, env });
  if (!existsSync(BIN)) throw new Error("code-server did not install");
  return BIN;
}

/** Copies the built extension (manifest, dist, grammar) into an extensions folder: what the VSIX holds, without packaging it. */
export function installExtension(extensionsDir) {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const target = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  // The documents the VSIX ships too (.vscodeignore): the rules catalog the diagnostics link to, the language reference the agent tools serve.
  for (const entry of [
    "package.json",
    "dist",
    "syntaxes",
    "language-configuration.json",
    "README.md",
    "CHANGELOG.md",
    "docs/rules.md",
    "docs/language.md",
  ]) {
    const from = path.join(ROOT, entry);
    if (!existsSync(from)) continue;
    mkdirSync(path.dirname(path.join(target, entry)), { recursive: true });
    cpSync(from, path.join(target, entry), { recursive: true, filter: (f) => !f.endsWith(".vsix") && !f.endsWith(".map") });
  }
  // No node_modules/: dist/ holds every bundle the extension loads (Azurite and @azure/identity included), as in the VSIX.
  return target;
}

/**
 * Installs a packaged extension with code-server's own installer
 * (`code-server --install-extension X.vsix`), as a user would; returns its output.
 */
export function installVsix(extensionsDir, vsix, userDataDir) {
  const bin = ensureCodeServer();
  const r = spawnSync(bin, ["--extensions-dir", extensionsDir, "--user-data-dir", userDataDir, "--install-extension", vsix], {
    encoding: "utf8",
    timeout: 120_000,
  });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
  if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (exit ${r.status ?? r.signal}): ${output}`);
  return output;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs} ms`);
}

/**
 * Starts code-server on 127.0.0.1 with fresh user data and the extension
 * installed: the built dist/, or `vsix` (a packaged extension) when given,
 * and the unpacked extension folders of `extraExtensions`.
 * Returns its URL, PID, extensions folder and a stop() that ends it by PID.
 */
export async function startCodeServer({ workspace, port, settings = {}, log = "ignore", vsix, extraExtensions = [] } = {}) {
  const bin = ensureCodeServer();
  const data = mkdtempSync(path.join(tmpdir(), "tda-vscode-"));
  const userDir = path.join(data, "ud");
  const extDir = path.join(data, "ext");
  mkdirSync(path.join(userDir, "User"), { recursive: true });
  writeFileSync(
    path.join(userDir, "User", "settings.json"),
    JSON.stringify(
      {
        "workbench.startupEditor": "none",
        "git.openRepositoryInParentFolders": "never",
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "extensions.autoUpdate": false,
        "workbench.tips.enabled": false,
        "security.workspace.trust.enabled": false,
        ...settings,
      },
      null,
      2,
    ),
  );
  writeFileSync(path.join(data, "config.yaml"), "auth: none\n");
  if (vsix) installVsix(extDir, vsix, userDir);
  else installExtension(extDir);
  // Extensions a test brings (a probe that calls the extension's API from inside the extension host).
  for (const dir of extraExtensions) cpSync(dir, path.join(extDir, path.basename(dir)), { recursive: true });
  const p = port ?? (await freePort());
  const args = [
    "--config",
    path.join(data, "config.yaml"),
    "--user-data-dir",
    userDir,
    "--extensions-dir",
    extDir,
    "--bind-addr",
    `127.0.0.1:${p}`,
    "--auth",
    "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
  ];
  if (workspace) args.push(workspace);
  // A process group of its own (setsid), so stop() can end code-server and its helpers together.
  const child = spawn(bin, args, { detached: true, stdio: ["ignore", log, log] });
  const url = `http://127.0.0.1:${p}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      try {
        process.kill(child.pid, "SIGTERM");
      } catch {
        /* gone */
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          /* gone */
        }
      }, 5000);
      await exited;
      clearTimeout(timer);
    }
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* group already gone */
    }
    rmSync(data, { recursive: true, force: true });
  };
  try {
    await waitHealthy(url, child, 60_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url,
    pid: child.pid,
    port: p,
    userDir,
    extensionsDir: extDir,
    stop,
    openUrl: workspace ? `${url}/?folder=${encodeURIComponent(workspace)}` : url,
  };
}
