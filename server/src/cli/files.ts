/**
 * Expands the paths given to `tdl check`: files as they are, folders walked
 * recursively for matching files, honouring `.gitignore` files on the way
 * and skipping `node_modules` and `.git`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ignore, { Ignore } from "ignore";

export class InputError extends Error {}

const ALWAYS_SKIPPED = new Set(["node_modules", ".git"]);

export function expandPaths(paths: string[], matches: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new InputError(code === "ENOENT" ? `${p}: no such file or folder` : `${p}: cannot read (${code ?? (e as Error).message})`);
    }
    if (stat.isDirectory()) walk(path.resolve(p), [], matches, out);
    else out.push(path.resolve(p));
  }
  return [...new Set(out)];
}

interface Rules {
  base: string;
  ig: Ignore;
}

function walk(dir: string, inherited: Rules[], matches: (file: string) => boolean, out: string[]): void {
  const rules = [...inherited];
  const gitignore = path.join(dir, ".gitignore");
  if (fs.existsSync(gitignore)) rules.push({ base: dir, ig: ignore().add(fs.readFileSync(gitignore, "utf8")) });
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    throw new InputError(`${dir}: cannot read folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (ALWAYS_SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    const isDir = entry.isDirectory();
    const ignored = rules.some((r) => {
      const rel = path.relative(r.base, full).split(path.sep).join("/");
      return r.ig.ignores(isDir ? rel + "/" : rel);
    });
    if (ignored) continue;
    if (isDir) walk(full, rules, matches, out);
    else if (entry.isFile() && matches(full)) out.push(full);
  }
}
