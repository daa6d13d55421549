/**
 * Expands the paths given to `tdl check`: files as they are, folders walked
 * recursively for matching files, honouring `.gitignore` files on the way
 * and skipping `node_modules` and `.git`. A path that cannot be read is
 * reported (the caller decides the exit code) and the others are expanded.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ignore, { Ignore } from "ignore";

export { InputError } from "@core/errors";

const ALWAYS_SKIPPED = new Set(["node_modules", ".git"]);

/** Largest file read: a design or source file is kilobytes; a stray dump of gigabytes is refused, not loaded. */
export const MAX_FILE_BYTES = 64 << 20;

/**
 * The text of one file, or a user-readable reason in `problems` (and
 * undefined): unreadable, or larger than MAX_FILE_BYTES.
 */
export function readInput(file: string, shown: string, problems: string[]): string | undefined {
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_FILE_BYTES) {
      problems.push(`${shown}: too large to analyse (${(size / 2 ** 20).toFixed(0)} MiB; the limit is ${MAX_FILE_BYTES / 2 ** 20} MiB)`);
      return undefined;
    }
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    problems.push(unreadable(shown, e));
    return undefined;
  }
}

/** Why a path could not be read, as users read it (the error code, never a stack). */
export function unreadable(p: string, e: unknown, what = "cannot read"): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  return code === "ENOENT" ? `${p}: no such file or folder` : `${p}: ${what} (${code ?? (e as Error)?.message ?? String(e)})`;
}

/**
 * The files under `paths` that `matches` accepts, in a stable order. Paths
 * and folders that cannot be read are added to `problems` and skipped.
 */
export function expandPaths(paths: string[], matches: (file: string) => boolean, problems: string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch (e) {
      problems.push(unreadable(p, e));
      continue;
    }
    if (stat.isDirectory()) walk(path.resolve(p), [], matches, out, problems);
    // A FIFO or a device would block the read or never end: only regular files are read.
    else if (!stat.isFile()) problems.push(`${p}: not a regular file`);
    else out.push(path.resolve(p));
  }
  return [...new Set(out)];
}

interface Rules {
  base: string;
  ig: Ignore;
}

function walk(dir: string, inherited: Rules[], matches: (file: string) => boolean, out: string[], problems: string[]): void {
  const rules = [...inherited];
  const gitignore = path.join(dir, ".gitignore");
  try {
    if (fs.existsSync(gitignore)) rules.push({ base: dir, ig: ignore().add(fs.readFileSync(gitignore, "utf8")) });
  } catch (e) {
    problems.push(unreadable(gitignore, e));
  }
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    problems.push(unreadable(dir, e, "cannot read folder"));
    return;
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
    if (isDir) walk(full, rules, matches, out, problems);
    else if (entry.isFile() && matches(full)) out.push(full);
  }
}
