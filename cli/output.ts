/**
 * What a `tdl` subcommand gives back to the entry point — its output
 * streams and its exit code (cli/failure.ts's EXIT), so the tests call them
 * in-process and read exactly what a terminal shows — and how it reaches the
 * terminal. Every write is synchronous and checked: stdout on a full disk
 * (`tdl check … > file`) is said on stderr (and the entry point exits 2),
 * never a silent 0; a closed pipe (`tdl check . | head`) ends the output
 * quietly, without a stack.
 */
import * as fs from "node:fs";
import { isatty } from "node:tty";
import { pause } from "./files";
import { terminalJson, terminalText } from "@core/text/words";

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Where a long-running subcommand writes as it goes (the emulator's first line, progress on stderr). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** Why stdout could not take the output (ENOSPC, EIO…); undefined while every write went through. */
let stdoutFailure: string | undefined;
/** stdout's reader has gone (EPIPE): the rest of the output is dropped quietly, as `head` expects. */
let stdoutClosed = false;

/**
 * The process's own streams, written synchronously. Everything passes
 * through `terminalText` (JSON through `terminalJson`, so it still parses
 * to the same values): whatever came from outside — a log's URI, a table
 * name, a service's message, an entity's value — reaches the terminal with
 * its control characters shown by their code, never obeyed.
 */
export const processIo: Io = {
  out(text) {
    if (stdoutClosed || stdoutFailure !== undefined) return;
    try {
      writeAll(1, /^\s*[[{]/.test(text) ? terminalJson(text) : terminalText(text));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // A reader that went away (EPIPE), or a terminal that closed (EIO on a tty): nobody is left to read the rest.
      if (code === "EPIPE" || (code === "EIO" && isatty(1))) stdoutClosed = true;
      else stdoutFailure = code ?? String(e);
    }
  },
  err(text) {
    try {
      writeAll(2, terminalText(text));
    } catch {
      // stderr is where failures are told: when it cannot take them, there is nowhere left to say it.
    }
  },
};

/**
 * Writes a result on the process's streams; returns why stdout could not
 * take all of it (said on stderr too), or undefined when it did.
 */
export function finish(result: CliResult): string | undefined {
  processIo.out(result.stdout);
  processIo.err(result.stderr);
  if (stdoutFailure !== undefined) processIo.err(`tdl: the output could not be written to stdout (${stdoutFailure}): it is incomplete\n`);
  return stdoutFailure;
}

/** Writes all of `text` to `fd`, however many calls that takes; waits out EAGAIN (a non-blocking pipe that is full). */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let at = 0;
  while (at < bytes.length) {
    try {
      at += fs.writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      pause(5);
    }
  }
}
