// `npm start`: the main job. Builds, opens a real VS Code (code-server) on
// 127.0.0.1 with the extension and the user's workspace loaded — a copy of
// examples/ in the ignored workspace/ folder, made on the first start and
// kept across restarts (workspace.mjs), so quick fixes never change the
// repository's files and the user's own work is never thrown away —,
// prints the URL, and stops everything it started on Ctrl+C.
// `npm start -- --reset` replaces the workspace with a fresh copy of examples/.
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ROOT, startCodeServer } from "./code-server.mjs";
import { userWorkspace, WORKSPACE } from "./workspace.mjs";

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "--reset");
if (unknown.length) {
  console.error(`npm start: unknown argument ${unknown[0]} (the one there is: npm start -- --reset, a fresh copy of examples/)`);
  process.exit(2);
}

const build = spawnSync(process.execPath, [path.join(ROOT, "esbuild.mjs")], { cwd: ROOT, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const port = process.env.PORT ? Number(process.env.PORT) : undefined;
// The extension starts its embedded emulator (Azurite, in memory) as soon as it activates; it stops with VS Code.
const { dir: workspace, state } = userWorkspace({ root: ROOT, reset: args.includes("--reset") });
const said = {
  created: `a copy of examples/ made in ${WORKSPACE}/`,
  kept: `${WORKSPACE}/, as you left it`,
  reset: `${WORKSPACE}/, a fresh copy of examples/ (--reset: what was there is gone)`,
}[state];
const vscode = await startCodeServer({ workspace, port, log: "inherit", settings: { "tableDesign.emulator.startOnActivation": true } });
console.log(
  `\nTable Design Assistant is running in VS Code at:\n\n  ${vscode.openUrl}\n\n` +
    `The workspace is ${said}. It is kept when you stop; npm start -- --reset replaces it with a fresh copy of examples/.\n` +
    `Open it in a browser; the embedded table emulator starts with the extension (Table Design: Open Table Explorer).\nPress Ctrl+C to stop.\n`,
);

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping VS Code (pid ${vscode.pid})…`);
  await vscode.stop();
  // The workspace stays: it holds the user's work.
  console.log(`Your workspace is kept in ${path.relative(process.cwd(), workspace) || workspace}.`);
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
