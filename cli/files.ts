/**
 * What `tdl` reads: only regular files of bounded size (a FIFO, `/dev/zero`
 * or a link to it is named and refused at once, never waited on), standard
 * input up to the same bound, and the paths given to `tdl check` expanded:
 * files as they are, folders walked recursively for matching files,
 * honouring `.gitignore` files on the way and skipping `node_modules` and
 * `.git`. A path that cannot be read is reported (the caller decides the
 * exit code) and the others are expanded.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ignore, { Ignore } from "ignore";
import { InputError } from "@core/errors";

const ALWAYS_SKIPPED = new Set(["node_modules", ".git"]);

/** Largest file read: a design or source file is kilobytes; a stray dump of gigabytes is refused, not loaded. */
export const MAX_FILE_BYTES = 64 << 20;

const tooLarge = (shown: string, size: number) =>
  `${shown}: too large to analyse (${(size / 2 ** 20).toFixed(0)} MiB; the limit is ${MAX_FILE_BYTES / 2 ** 20} MiB)`;

/**
 * The text of one file, or a user-readable reason in `problems` (and
 * undefined): unreadable, not a regular file, or larger than MAX_FILE_BYTES.
 */
export function readInput(file: string, shown: string, problems: string[]): string | undefined {
  const read = readBounded(file, shown);
  if (typeof read === "string") return read;
  problems.push(read.problem);
  return undefined;
}

/** The text of one file (`--design FILE`, `codegen DESIGN.tdl`), or an InputError saying why it cannot be read. */
export function readTextFile(file: string, shown = file): string {
  const read = readBounded(file, shown);
  if (typeof read !== "string") throw new InputError(read.problem);
  return read;
}

/**
 * Reads only a regular file of at most MAX_FILE_BYTES: a FIFO would block
 * for ever and `/dev/zero` (or a link to it) never ends. The type and size
 * are checked before the file is opened, and again on the open descriptor —
 * opened without blocking, in case a pipe took the file's place meanwhile —
 * and the read itself stops past the limit (a file that grows, or one in
 * `/proc` whose size says 0).
 */
function readBounded(file: string, shown: string): string | { problem: string } {
  let fd: number;
  try {
    const stat = fs.statSync(file);
    if (stat.isDirectory()) return { problem: `${shown}: cannot read (a folder, not a file)` };
    if (!stat.isFile()) return { problem: `${shown}: not a regular file` };
    if (stat.size > MAX_FILE_BYTES) return { problem: tooLarge(shown, stat.size) };
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    return { problem: unreadable(shown, e) };
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return { problem: `${shown}: not a regular file` };
    const bytes = readAtMost(fd, MAX_FILE_BYTES);
    return bytes ? bytes.toString("utf8") : { problem: tooLarge(shown, MAX_FILE_BYTES + 1) };
  } catch (e) {
    return { problem: unreadable(shown, e) };
  } finally {
    fs.closeSync(fd);
  }
}

/** Standard input (`tdl classify -`), at most MAX_FILE_BYTES of it: `< /dev/zero` is refused, not loaded. */
export function readStdin(): string {
  let bytes: Buffer | undefined;
  try {
    bytes = readAtMost(0, MAX_FILE_BYTES);
  } catch (e) {
    throw new InputError(unreadable("stdin", e));
  }
  if (!bytes) throw new InputError(`stdin: longer than ${MAX_FILE_BYTES / 2 ** 20} MiB`);
  return bytes.toString("utf8");
}

const CHUNK = 1 << 16;

/** The bytes up to the end of `fd`, or undefined once there are more than `limit`; waits out EAGAIN (a non-blocking stdin). */
function readAtMost(fd: number, limit: number): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let n: number;
    try {
      n = fs.readSync(fd, chunk, 0, CHUNK, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      pause(5);
      continue;
    }
    if (n === 0) return Buffer.concat(chunks, total);
    total += n;
    if (total > limit) return undefined;
    chunks.push(chunk.subarray(0, n));
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` (a synchronous read or write waiting for a non-blocking descriptor). */
export function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
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

/** A path as messages show it: relative to the working folder when inside it. */
function shownPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
}

interface Rules {
  base: string;
  ig: Ignore;
}

function walk(dir: string, inherited: Rules[], matches: (file: string) => boolean, out: string[], problems: string[]): void {
  const rules = [...inherited];
  const gitignore = path.join(dir, ".gitignore");
  // Read like any input: a .gitignore that is a FIFO or a link to /dev/zero is named, and the walk goes on without it.
  if (fs.existsSync(gitignore)) {
    const text = readInput(gitignore, shownPath(gitignore), problems);
    if (text !== undefined) rules.push({ base: dir, ig: ignore().add(text) });
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

/** A design file, by its extension. */
export const isDesignFile = (f: string) => f.endsWith(".tdl");

/** Paths relative to the working folder when inside it, with forward slashes. */
export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return (rel.startsWith("..") || path.isAbsolute(rel) ? file : rel).split(path.sep).join("/");
}
