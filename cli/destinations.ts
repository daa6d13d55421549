/**
 * Where `tdl` writes: every output path is checked when the arguments are
 * read, before any work starts (a stress run, an emulator, an analysis), so
 * a folder it cannot write, a path under `/proc` or a pipe nothing reads is
 * an exit 2 with the reason at once, not a failure (or a hang) at the end.
 * The checks write for real — a probe file created and removed again —
 * because permission bits say nothing for root or on a read-only mount.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { InputError } from "@core/errors";

const errno = (e: unknown) => (e as NodeJS.ErrnoException)?.code;

/** The codes a write is refused with, in words; ENOENT where the folder exists means the file system makes nothing there (`/proc`). */
const IN_WORDS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "not permitted",
  EROFS: "a read-only file system",
  ENOENT: "nothing can be created there",
  ENOSPC: "no space left on the device",
  EISDIR: "a folder is there",
  ENOTDIR: "a file is on the way",
  ENXIO: "a pipe nothing reads",
};

/** `path: what (EACCES: permission denied)`: the error's code and what it means, never a stack. */
function refused(p: string, what: string, e: unknown): InputError {
  const code = errno(e);
  const why = code ? `${code}${IN_WORDS[code] ? `: ${IN_WORDS[code]}` : ""}` : ((e as Error)?.message ?? String(e));
  return new InputError(`${p}: ${what} (${why})`);
}

/** A probe's name: hidden, and this process's own. */
const probeIn = (dir: string) => path.join(dir, `.tdl-write-check-${process.pid}`);

/**
 * Throws an InputError saying why `file` cannot be written: a folder, a
 * socket, a pipe nothing reads (it would block until something does), or no
 * permission. A file that exists is opened for writing without being
 * changed; one that does not is created and removed again. A character
 * device (`/dev/null`) is allowed, and so is a pipe with a reader
 * (`--report /dev/stdout | jq`): opening it without blocking succeeds only
 * then.
 */
export function checkOutputFile(file: string): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    if (errno(e) !== "ENOENT") throw refused(file, "cannot write", e);
  }
  if (stat?.isDirectory()) throw new InputError(`${file}: cannot write (a folder, not a file)`);
  if (stat && !stat.isFile() && !stat.isCharacterDevice() && !stat.isFIFO())
    throw new InputError(`${file}: cannot write (not a regular file, a device or a pipe)`);
  try {
    if (stat) fs.closeSync(fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    else {
      fs.closeSync(fs.openSync(file, "wx"));
      fs.rmSync(file, { force: true });
    }
  } catch (e) {
    const parent = path.dirname(path.resolve(file));
    if (errno(e) === "ENOENT" && !fs.existsSync(parent)) throw new InputError(`${file}: cannot write (no folder ${parent})`);
    throw refused(file, "cannot write", e);
  }
}

/**
 * Throws an InputError saying why files cannot be written into `dir`: a
 * file on the way, or a folder that refuses a probe file (no permission,
 * `/proc`, a read-only mount). A folder that does not exist yet is judged by
 * the nearest one above it that does, where it would be created.
 */
export function checkOutputFolder(dir: string): void {
  const { existing, stat } = nearestExisting(dir);
  if (!stat.isDirectory())
    throw new InputError(
      `${dir}: cannot create the folder (${existing === path.resolve(dir) ? "a file is there" : `${existing} is a file`})`,
    );
  const probe = probeIn(existing);
  try {
    fs.closeSync(fs.openSync(probe, "wx"));
  } catch (e) {
    throw refused(dir, "cannot write into the folder", e);
  }
  fs.rmSync(probe, { force: true });
}

/** The path itself or the nearest folder above it that exists, with its stat. */
function nearestExisting(dir: string): { existing: string; stat: fs.Stats } {
  let at = path.resolve(dir);
  for (;;) {
    try {
      return { existing: at, stat: fs.statSync(at) };
    } catch (e) {
      const up = path.dirname(at);
      // ENOTDIR: a file on the way; going up finds it and says so.
      if ((errno(e) !== "ENOENT" && errno(e) !== "ENOTDIR") || up === at) throw refused(dir, "cannot create the folder", e);
      at = up;
    }
  }
}

/**
 * Creates `dir` and the folders above it that are missing, one at a time:
 * Node's recursive mkdir loops for ever on a path under `/proc`, where the
 * kernel answers ENOENT for the folder it was just asked to create.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) {
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  for (const folder of missing.reverse()) {
    try {
      fs.mkdirSync(folder);
    } catch (e) {
      if (errno(e) !== "EEXIST") throw refused(dir, "cannot create the folder", e);
    }
  }
}

/** Writes the file through a temporary one in the same folder, renamed over it: all of it or nothing. */
export function writeWhole(file: string, text: string, mode?: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    // A secret's mode is set when the file is created (and again, over an umask): it is never readable by others, not even for a moment.
    fs.writeFileSync(tmp, text, mode === undefined ? undefined : { mode });
    if (mode !== undefined) fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw refused(file, "cannot write", e);
  }
}
