/**
 * Nothing outlives its owner, and nothing is judged on a run that did not
 * carry its load — through the built CLI against a `tdl emulator` process
 * (fidelity on) and a real Locust (Debian's python3-locust):
 *
 * - `tdl stress --engine locust` killed with SIGKILL: its master and workers
 *   are gone within 2 s (they watch tdl, not only its handlers), and
 *   `tdl stress --cleanup` finds the table it left and removes it;
 * - `--cleanup` against an account the endpoint does not serve is an exit 2
 *   with a sentence;
 * - the service stalls (the emulator stopped with SIGSTOP for longer than
 *   the run), or a Locust worker stops: the verdict is INVALID, exit 1.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";

const CLI = path.resolve("dist/cli.js");
const DESIGN = path.resolve("examples/student-cards/by-seller.tdl");
const TABLE = "PurchasesBySeller";

let emulator: ChildProcessWithoutNullStreams;
let connectionString = "";
let endpoint = "";

before(async () => {
  emulator = spawn(process.execPath, [CLI, "emulator", "--port", "0"]);
  emulator.stderr.resume();
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: emulator.stdout }).once("line", resolve);
    emulator.once("exit", () => reject(new Error("tdl emulator exited before it started")));
  });
  emulator.stdout.resume();
  ({ connectionString, tableEndpoint: endpoint } = JSON.parse(first) as { connectionString: string; tableEndpoint: string });
});
after(() => {
  emulator?.kill("SIGCONT");
  emulator?.kill("SIGTERM");
});

const env = (cs = connectionString) => ({ ...process.env, TDL_OWNER_TEST: cs });
const ACCOUNT = ["--connection-string-env", "TDL_OWNER_TEST"];

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function stress(...args: string[]): Run {
  const child = spawn(process.execPath, [CLI, "stress", "--design", DESIGN, "--table", TABLE, ...ACCOUNT, ...args], { env: env() });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    waitFor: async (re, timeoutMs = 90_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const m = err.match(re);
        if (m) return m;
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited before stderr matched ${re}:\n${err}`);
        if (Date.now() > until) throw new Error(`stderr did not match ${re} within ${timeoutMs} ms:\n${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** Live processes whose parent is `ppid` (zombies are not alive), from /proc. */
function childrenOf(ppid: number): Array<{ pid: number; cmd: string }> {
  const out: Array<{ pid: number; cmd: string }> = [];
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(parent) === ppid && state !== "Z")
        out.push({ pid: Number(name), cmd: readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ") });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

const locustOf = (pid: number) => childrenOf(pid).filter((p) => / -f locustfile\.py /.test(p.cmd));

function cleanup(cs = connectionString) {
  const r = spawnSync(process.execPath, [CLI, "stress", "--cleanup", "--older-than", "0s", ...ACCOUNT], { env: env(cs), encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("tdl stress --engine locust killed with SIGKILL: its master and workers end within 2 s, and --cleanup removes the table it left", async () => {
  const run = stress("--engine", "locust", "--workers", "2", "--mode", "spread", "--duration", "60s");
  const [, table] = await run.waitFor(/creating the stress table (stress[0-9a-f]{10})/);
  await run.waitFor(/running the load on Locust/);
  // The load is under way: a master and two workers, children of tdl.
  let procs = locustOf(run.child.pid!);
  for (let i = 0; procs.length < 3 && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    procs = locustOf(run.child.pid!);
  }
  assert.equal(procs.length, 3, `a master and two workers: ${JSON.stringify(procs)}`);
  const folder = procs.map((p) => readlinkCwd(p.pid)).find(Boolean);
  // Mid-run: both workers have begun their load (their records say so; a loaded machine takes seconds to start Python).
  await startedWorkers(path.join(folder ?? "", "tdl-records"), 2);
  await new Promise((r) => setTimeout(r, 1000));
  run.child.kill("SIGKILL");
  await run.exit;
  await new Promise((r) => setTimeout(r, 2000));
  assert.deepEqual(
    procs.filter((p) => alive(p.pid)),
    [],
    "every Locust process is gone 2 s after tdl was killed",
  );
  if (folder) assert.equal(existsSync(folder), false, `the run's folder ${folder} went with them`);

  const r = cleanup();
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^  removed  ${table} \\(created \\d+ s ago on .* for by-seller\\.tdl, pid ${run.child.pid}\\)$`, "m"));
  assert.match(r.stdout, /^removed 1, kept 0$/m);
});

/** Waits (at most a minute) until `n` workers' records in `records` hold the start of their load. */
async function startedWorkers(records: string, n: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const started = existsSync(records)
      ? readdirSync(records).filter((f) => readFileSync(path.join(records, f), "utf8").includes('"start":')).length
      : 0;
    if (started >= n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function readlinkCwd(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

test("--cleanup against an account the endpoint does not serve: exit 2 with a sentence", () => {
  const other = `DefaultEndpointsProtocol=http;AccountName=other;AccountKey=a2V5;TableEndpoint=${endpoint.replace(/devstoreaccount1$/, "other")};`;
  const r = cleanup(other);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(
    r.stderr,
    `tdl: could not list the stress tables at ${new URL(endpoint).host}: no account 'other' here (check the connection string's AccountName and TableEndpoint)\n`,
  );
  assert.equal(r.stdout, "");
});

test("the service stalls for longer than the rest of the run: the verdict is INVALID and the exit 1, not OK", async () => {
  const run = stress("--mode", "spread", "--duration", "10s");
  await run.waitFor(/running the load for 10\.0 s/);
  await new Promise((r) => setTimeout(r, 2500));
  emulator.kill("SIGSTOP");
  await new Promise((r) => setTimeout(r, 12_000));
  emulator.kill("SIGCONT");
  const { code } = await run.exit;
  assert.equal(code, 1, run.stderr());
  assert.match(
    run.stdout(),
    /^verdict: INVALID: the service served nothing in (\d+) of the run's (\d+) seconds \(the longest stall \d+ s\), so the run did not carry the design's load; nothing to judge the design by: run it again$/m,
  );
  const [, empty, total] = /served nothing in (\d+) of the run's (\d+) seconds/.exec(run.stdout())!;
  assert.ok(Number(empty) >= 6 && Number(total) >= 10, run.stdout());
  assert.match(run.stderr(), /^tdl: the run is invalid: The service served nothing in \d+ of/m);
  assert.match(run.stderr(), /the stress table stress[0-9a-f]{10} was deleted/);
});

test("a Locust worker stops in the middle of the run: the verdict is INVALID and names it, exit 1", async () => {
  const run = stress("--engine", "locust", "--workers", "2", "--mode", "spread", "--duration", "8s", "--format", "json");
  await run.waitFor(/running the load on Locust/);
  let workers = locustOf(run.child.pid!).filter((p) => / --worker /.test(p.cmd));
  for (let i = 0; workers.length < 2 && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    workers = locustOf(run.child.pid!).filter((p) => / --worker /.test(p.cmd));
  }
  // Stopped once both have begun their load (their records say so), a few seconds into it.
  await startedWorkers(path.join(readlinkCwd(workers[0]!.pid) ?? "", "tdl-records"), 2);
  await new Promise((r) => setTimeout(r, 3000));
  process.kill(workers[0]!.pid, "SIGSTOP");
  const { code } = await run.exit;
  assert.equal(code, 1, run.stderr() + run.stdout().slice(0, 3000));
  const report = JSON.parse(run.stdout()) as { verdict: { headline: string; invalid?: string } };
  assert.match(
    report.verdict.headline,
    /^INVALID: Locust worker \S+ stopped sending after second \d+ of \d+ \(its records end without the end of its run\)/,
  );
  assert.match(report.verdict.invalid ?? "", new RegExp(`^Locust worker \\S+-${workers[0]!.pid} stopped sending`));
  assert.equal(alive(workers[0]!.pid), false, "the stopped worker was ended with the run");
});
