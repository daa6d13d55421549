// `npm start`: the main job. Builds, opens a real VS Code (code-server) on
// 127.0.0.1 with the extension and a fresh copy of examples/ loaded (in a
// scratch folder, so quick fixes applied while trying it never change the
// repository's files), prints the URL, and stops everything it started on
// Ctrl+C.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import * as path from "node:path";
import { ROOT, scratchExamples, startCodeServer } from "./code-server.mjs";

const build = spawnSync(process.execPath, [path.join(ROOT, "esbuild.mjs")], { cwd: ROOT, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const port = process.env.PORT ? Number(process.env.PORT) : undefined;
// The extension starts its embedded emulator (Azurite, in memory) as soon as it activates; it stops with VS Code.
const workspace = scratchExamples();
const vscode = await startCodeServer({ workspace, port, log: "inherit", settings: { "tableDesign.emulator.startOnActivation": true } });
console.log(
  `\nTable Design Assistant is running in VS Code at:\n\n  ${vscode.openUrl}\n\n` +
    `The workspace is a fresh copy of examples/ in ${workspace} (deleted on exit).\n` +
    `Open it in a browser; the embedded table emulator starts with the extension (Table Design: Open Table Explorer).\nPress Ctrl+C to stop.\n`,
);

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping VS Code (pid ${vscode.pid})…`);
  await vscode.stop();
  rmSync(workspace, { recursive: true, force: true });
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
