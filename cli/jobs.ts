/**
 * What every bulk job of the command line shares: Ctrl+C (or SIGTERM, or a
 * closed terminal) stops it at the next safe point — its checkpoint is
 * always whole, so a rerun goes on from there — a second Ctrl+C exits at
 * once, and progress on stderr at most twice a second.
 */
import { createInterface } from "node:readline";
import { isatty } from "node:tty";
import type { Io } from "./output";
import { UsageError } from "@core/errors";
import { custom, positive } from "./options";
import type { RetryNotice } from "@runtime";

export interface JobSignals {
  signal: AbortSignal;
  dispose(): void;
}

/** Turns the first interrupt into a cancel of the job (saying how to resume); the second exits with 1. */
export function interruptible(io: Io, resume: string): JobSignals {
  const controller = new AbortController();
  let presses = 0;
  const press = () => {
    if (++presses === 1) {
      io.err(`\ntdl: stopping at the next checkpoint; ${resume}\n`);
      controller.abort();
    } else {
      io.err(`tdl: exiting now; ${resume}\n`);
      process.exit(1);
    }
  };
  for (const s of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(s, press);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const s of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.off(s, press);
    },
  };
}

/** A progress reporter that writes at most every `ms` (and always the last call when `final`). */
export function throttled(io: Io, ms = 500): (line: string, final?: boolean) => void {
  let last = -Infinity;
  return (line, final = false) => {
    const now = performance.now();
    if (!final && now - last < ms) return;
    last = now;
    io.err(`${line}\n`);
  };
}

export const count = (n: number) => n.toLocaleString("en-US");

/** Asks on the terminal and returns the answer; undefined when there is no terminal to ask on. */
export async function ask(io: Io, question: string): Promise<string | undefined> {
  if (!isatty(0)) return undefined;
  io.err(question);
  const rl = createInterface({ input: process.stdin, terminal: false });
  try {
    for await (const line of rl) return line.trim();
    return "";
  } finally {
    rl.close();
  }
}

/**
 * How fast a bulk job may go: a share of the service's targets (the
 * default), or `--rate N` entities per second for the whole job, or
 * `--rate max` for no pace at all — the emulator has no targets, nor does an
 * account the job has to itself; the guide's back-off on 503 still holds.
 */
export const PACE_OPTIONS = {
  share: positive("F", "the share of the service's targets the job may use (0.5: half of 20,000 entities/s)").default(0.8),
  rate: custom(
    "N|max",
    "entities per second the whole job may use, instead of --share; max: no pace (the emulator has no targets)",
    (raw, name) => {
      if (raw === "max") return Infinity;
      const n = Number(raw);
      if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} needs entities per second or max, not '${raw.slice(0, 40)}'`);
      return n;
    },
  ),
};

/** The pace a job's options ask for (the share is at most 1: never more than the targets). */
export const paceOf = (o: { share: number; rate?: number }) => ({ share: Math.min(o.share, 1), rate: o.rate });

/** The progress line of a retry: what the service answered, the guide's back-off, and the pace the job slowed to. */
export function retryLine(n: RetryNotice): string {
  const pace = Number.isFinite(n.pace.rate) ? `; pacing the job at ${count(Math.round(n.pace.rate))} entities/s` : "";
  return `the service is busy (${n.status ?? "no answer"} ${n.code}): waiting ${(n.delayMs / 1000).toFixed(1)} s (the guide's back-off)${pace}`;
}
