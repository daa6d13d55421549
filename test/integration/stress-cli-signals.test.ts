/**
 * Ctrl+C in `tdl stress`, as a user presses it, in each phase and more than
 * once; the CLI runs against a real Azurite through a fault proxy this test
 * controls. After each: no stress table left, or — on the third press —
 * the table named with the command that removes it, which then does.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import * as path from "node:path";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { session, startAzurite } from "../helpers/azurite";
import { FaultProxy } from "../helpers/fault-proxy";

let emu: EmbeddedEmulator;
let proxy: FaultProxy;
before(async () => {
  emu = await startAzurite();
  proxy = await FaultProxy.start(emu.port);
});
after(async () => {
  await proxy?.close();
  await emu?.stop();
});

const CLI = path.resolve("dist/cli.js");
const stressTables = async () => (await session(emu).listTables()).filter((t) => t.startsWith("stress"));

interface Run {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  stdout(): string;
  /** Resolves once stderr matches `re` (with the match). */
  waitFor(re: RegExp): Promise<RegExpMatchArray>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(...args: string[]): Run {
  const child = spawn(
    process.execPath,
    [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--connection-string-env", "TDL_PROXY", ...args],
    { env: { ...process.env, TDL_PROXY: proxy.connectionString(emu.connectionString, emu.endpoint) } },
  );
  let out = "";
  let err = "";
  const waiters: Array<() => void> = [];
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => {
    err += d;
    for (const w of [...waiters]) w();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stderr: () => err,
    stdout: () => out,
    exit,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = err.match(re);
          if (m) {
            waiters.splice(waiters.indexOf(check), 1);
            resolve(m);
          }
        };
        waiters.push(check);
        void exit.then(() => setImmediate(() => reject(new Error(`exited before stderr matched ${re}:\n${err}`))));
        check();
      }),
  };
}

function runCli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.once("close", (status) => resolve({ status, stdout, stderr })));
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; !(await check()); i++) {
    if (i > 300) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("Ctrl+C while the table is being created: it is deleted and nothing else runs", async () => {
  proxy.stall("answers");
  const run = start("--duration", "60s", "--format", "json");
  try {
    const [, table] = await run.waitFor(/creating the stress table (stress[0-9a-f]{10})/);
    await until(async () => (await stressTables()).includes(table));
    run.child.kill("SIGINT");
    await run.waitFor(/cancelling/);
  } finally {
    proxy.resume();
  }
  const { code } = await run.exit;
  assert.equal(code, 1, run.stderr());
  assert.equal(JSON.parse(run.stdout()).stopped, "cancelled while creating the table");
  assert.doesNotMatch(run.stderr(), /loading|running the load/);
  assert.match(run.stderr(), /the stress table stress[0-9a-f]{10} was deleted/);
  assert.deepEqual(await stressTables(), []);
});

test("Ctrl+C during a 20,000-entity preload stops it: no run, the table deleted", async () => {
  // Only a load that reads entities back preloads them: half the calls are point reads.
  const run = start("--duration", "60s", "--preload", "20000", "--mix", "read=1,write=1", "--format", "json");
  await run.waitFor(/loading 20,000 entities/);
  await until(async () => (await stressTables()).length === 1);
  run.child.kill("SIGINT");
  const t0 = Date.now();
  const { code } = await run.exit;
  assert.equal(code, 1, run.stderr());
  assert.ok(Date.now() - t0 < 10_000, `exited ${Date.now() - t0} ms after Ctrl+C`);
  assert.match(JSON.parse(run.stdout()).stopped, /^cancelled while loading entities \([\d,]+ of 20,000\)$/);
  assert.doesNotMatch(run.stderr(), /running the load/);
  assert.deepEqual(await stressTables(), []);
});

test("Ctrl+C twice while the endpoint stalls: it says it deletes first, waits, and deletes the table", async () => {
  const run = start("--duration", "60s");
  const [, table] = await run.waitFor(/creating the stress table (stress[0-9a-f]{10})/);
  await run.waitFor(/entities\/s/);
  proxy.stall("both");
  try {
    run.child.kill("SIGINT");
    await run.waitFor(/cancelling: stopping the run, then deleting the stress table/);
    run.child.kill("SIGINT");
    await run.waitFor(
      new RegExp(`deleting the stress table ${table} before exiting \\(at most 10 s; press Ctrl\\+C once more to exit now`),
    );
    await new Promise((r) => setTimeout(r, 1000));
  } finally {
    proxy.resume();
  }
  const { code, signal } = await run.exit;
  assert.equal(signal, null, "not killed by the signal");
  assert.equal(code, 1);
  assert.match(run.stderr(), new RegExp(`the stress table ${table} was deleted`));
  assert.deepEqual(await stressTables(), []);
});

test("Ctrl+C three times exits at once, naming the table and the command that removes it; that command does", async () => {
  const run = start("--duration", "60s");
  const [, table] = await run.waitFor(/creating the stress table (stress[0-9a-f]{10})/);
  await run.waitFor(/entities\/s/);
  proxy.stall("both");
  let command: string;
  try {
    run.child.kill("SIGINT");
    await run.waitFor(/cancelling/);
    run.child.kill("SIGINT");
    await run.waitFor(/before exiting/);
    const t0 = Date.now();
    run.child.kill("SIGINT");
    const { code } = await run.exit;
    assert.equal(code, 1);
    assert.ok(Date.now() - t0 < 3000, `exited ${Date.now() - t0} ms after the third Ctrl+C`);
    const m = run
      .stderr()
      .match(
        new RegExp(
          `exiting now: the stress table ${table} may remain at 127\\.0\\.0\\.1:${proxy.port}; remove it with: (tdl stress --cleanup .*)`,
        ),
      );
    assert.ok(m, run.stderr());
    command = m[1];
    // The process is gone, and its connections with it (the held delete must not be delivered by the resume below).
    await until(async () => proxy.openConnections === 0);
  } finally {
    proxy.resume();
  }
  assert.deepEqual(await stressTables(), [table], "left behind, as it said");
  assert.equal(command, "tdl stress --cleanup --older-than 0s --connection-string-env TDL_PROXY");
  // Spawned, not spawnSync: the proxy lives in this process and must keep forwarding.
  const cleanup = await runCli(command.split(" ").slice(1), { TDL_PROXY: proxy.connectionString(emu.connectionString, emu.endpoint) });
  assert.equal(cleanup.status, 0, cleanup.stderr);
  assert.match(cleanup.stdout, new RegExp(`removed  ${table} \\(created \\d+ s ago on .* for marathon\\.tdl, pid \\d+\\)`));
  assert.deepEqual(await stressTables(), []);
});
