/**
 * The Locust processes of a local run: found on PATH (a clear message with
 * the install line when missing), started with an environment of their own
 * (the machine's basics and the run's TDL_* settings — not the caller's
 * variables, which may hold a connection string), watched for an early
 * exit, made to watch this process in turn (they end within 0.2 s of it,
 * even when it is killed with SIGKILL), and stopped by their PIDs: SIGTERM
 * first (Locust stops its users and the workers write their last records),
 * SIGKILL for any still alive a few seconds later.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import * as path from "node:path";
import { UnavailableError } from "@core/errors";
import { sleep } from "../net/deadline";

/** How to get Locust, for the message when it is missing. */
export const LOCUST_INSTALL = "apt-get install python3-locust (Debian, Ubuntu), or pip install locust";

/** The `locust` executable on PATH, or an UnavailableError saying how to install it. */
export function findLocust(pathVar = process.env.PATH ?? ""): string {
  const names = process.platform === "win32" ? ["locust.exe", "locust.cmd", "locust"] : ["locust"];
  for (const dir of pathVar.split(path.delimiter).filter(Boolean))
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  throw new UnavailableError(`Locust is not installed (no 'locust' on PATH): ${LOCUST_INSTALL}`);
}

/** The environment a Locust process gets: what it needs to run, and the run's settings. */
function childEnv(run: Record<string, string>): NodeJS.ProcessEnv {
  const keep = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "PYTHONPATH"];
  const env: NodeJS.ProcessEnv = {};
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k];
  return { ...env, ...run, PYTHONUNBUFFERED: "1" };
}

interface Proc {
  name: string;
  child: ChildProcess;
  exited?: number | string;
  tail: string[];
}

/** Signals a process by its PID; one that has just exited is no error. */
function kill(p: Proc, signal: NodeJS.Signals): void {
  try {
    process.kill(p.child.pid!, signal);
  } catch {
    // already gone
  }
}

export class LocustProcesses {
  private readonly procs: Proc[] = [];
  private stopping = false;

  constructor(
    private readonly log?: (line: string) => void,
    private readonly onProcess?: (name: string, pid: number) => void,
  ) {}

  spawn(name: string, cmd: string, args: string[], cwd: string, env: Record<string, string>): void {
    // Its stdin is a pipe this process holds and never writes: when this process ends, however it ends (SIGKILL
    // included, where no handler runs), the pipe's end of file tells the child to end too (watch_parent in
    // tdl_locust.py), and TDL_PARENT_PID lets it also watch for being handed to another parent.
    const child = spawn(cmd, args, {
      cwd,
      env: childEnv({ ...env, TDL_PARENT_PID: String(process.pid), TDL_PARENT_PIPE: "1", TDL_RUN_DIR: cwd }),
      stdio: ["pipe", "ignore", "pipe"],
    });
    child.stdin?.on("error", () => undefined);
    const p: Proc = { name, child, tail: [] };
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (d: string) => {
      for (const line of d.split("\n").filter(Boolean)) {
        p.tail.push(line);
        if (p.tail.length > 20) p.tail.shift();
        this.log?.(`${name}: ${line}`);
      }
    });
    child.on("error", (e) => (p.exited = e.message));
    child.on("exit", (code, signal) => (p.exited = code ?? signal ?? "exited"));
    this.procs.push(p);
    if (child.pid !== undefined) this.onProcess?.(name, child.pid);
  }

  /** Throws when a process ended before the run did (its last lines say why). */
  check(): void {
    if (this.stopping) return;
    const gone = this.procs.find((p) => p.exited !== undefined);
    if (gone) throw new UnavailableError(`Locust's ${gone.name} ended early (${gone.exited})${this.lastWords(gone)}`);
  }

  /** What the failed (or first) process said last, for a message. */
  lastWords(p: Proc | undefined = this.procs.find((x) => x.tail.length)): string {
    const line = p?.tail.filter((l) => /Error|error|Exception|refused|Traceback/.test(l)).pop() ?? p?.tail[p.tail.length - 1];
    return line ? `: ${line.replace(/\s+/g, " ").slice(0, 300)}` : "";
  }

  /** Waits until `deadline` (epoch ms), a cancellation, or a process's early end (then throws). */
  async until(deadline: number, signal?: AbortSignal): Promise<void> {
    while (Date.now() < deadline && !signal?.aborted) {
      this.check();
      await sleep(Math.min(200, Math.max(1, deadline - Date.now())), signal);
    }
  }

  /** Stops every process by its PID: SIGTERM, then SIGKILL after `graceMs`; resolves when all have exited. */
  async stop(graceMs = 8000): Promise<void> {
    this.stopping = true;
    const alive = () => this.procs.filter((p) => p.exited === undefined && p.child.pid !== undefined);
    // The master first: it tells its workers to stop, and they write their last records.
    for (const p of alive().filter((x) => x.name === "master")) kill(p, "SIGTERM");
    const until = Date.now() + graceMs;
    while (alive().length && Date.now() < until) {
      if (Date.now() > until - graceMs / 2) for (const p of alive()) kill(p, "SIGTERM");
      await sleep(50);
    }
    for (const p of alive()) kill(p, "SIGKILL");
    while (alive().length) await sleep(20);
  }
}
