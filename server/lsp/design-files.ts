/**
 * Reading the workspace's design files without trusting them: only regular
 * files (a FIFO named `x.tdl` would block the read for good), of bounded
 * size (a link to `/dev/zero` never ends), read through one descriptor so
 * that what was checked is what is read. The file is opened non-blocking:
 * opening a FIFO then returns at once instead of waiting for a writer, and
 * `fstat` says what it is before a byte is read.
 */
import * as fs from "node:fs";
import { formatCount } from "@core/text/words";

/** Bytes of one design file the scan reads (the largest real designs are a few kilobytes). */
export const MAX_DESIGN_BYTES = 1024 * 1024;

/** A file's text, or why it was left out. */
export type DesignFile = { text: string } | { skipped: string };

/** Reads `file` if it is a regular file of at most `maxBytes`; never blocks, never reads more than that. */
export function readDesignFile(file: string, maxBytes = MAX_DESIGN_BYTES): DesignFile {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (fs.constants.O_NOCTTY ?? 0));
  } catch (e) {
    return { skipped: `cannot be opened (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { skipped: `is not a regular file (${kindOf(stat)})` };
    if (stat.size > maxBytes)
      return { skipped: `has ${formatCount(stat.size)} bytes; designs of up to ${formatCount(maxBytes)} bytes are read` };
    // One byte more than fstat said, to notice a file that grows while it is read.
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > stat.size) return { skipped: "changed while it was read" };
    return { text: buffer.toString("utf8", 0, length) };
  } catch (e) {
    return { skipped: `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  } finally {
    fs.closeSync(fd);
  }
}

function kindOf(stat: fs.Stats): string {
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  if (stat.isDirectory()) return "a folder";
  return "not a file";
}
