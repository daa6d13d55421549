// The folder `npm start` opens in VS Code: a copy of examples/ made on the
// first start, in the ignored workspace/ at the repository's root, and kept
// from then on — the designs and code a user writes there survive a restart
// (and code in it resolves @azure/data-tables from the repository's
// node_modules, as in a user's project). Only `npm start -- --reset` puts a
// fresh copy of examples/ in its place.
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import * as path from "node:path";

/** The folder's name under the repository's root (in .gitignore). */
export const WORKSPACE = "workspace";

/**
 * The workspace under `root`: created from `root/examples` when missing or
 * when `reset` asks for it (what was there is deleted), otherwise left as
 * the user left it. Says which in `state`: "created", "reset" or "kept".
 */
export function userWorkspace({ root, reset = false }) {
  const dir = path.join(root, WORKSPACE);
  const existed = existsSync(dir);
  if (existed && !reset) return { dir, state: "kept" };
  if (existed) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(root, "examples"), dir, { recursive: true });
  return { dir, state: existed ? "reset" : "created" };
}
