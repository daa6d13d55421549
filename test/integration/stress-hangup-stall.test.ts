/**
 * The other ways out of `tdl stress`: the terminal closes (SIGHUP, and every
 * later write to it fails) during the preload or the run, and the endpoint
 * stalls for 40 s. Each ends with no stress table left. The CLI runs against
 * a real Azurite through a fault proxy this test controls.
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
  /** Resolves once stderr matches `re`. */
  waitFor(re: RegExp): Promise<RegExpMatchArray>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(...args: string[]): Run {
  const child = spawn(
    process.execPath,
    [CLI, "stress", "--design", "examples/marathon.tdl", "--table", "Registrations", "--connection-string-env", "TDL_PROXY", ...args],
    { env: { ...process.env, TDL_PROXY: proxy.connectionString(emu.connectionString, emu.endpoint) } },
  );
  let err = "";
  const waiters = new Set<() => void>();
  child.stdout.resume();
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
    exit,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = err.match(re);
          if (m) {
            waiters.delete(check);
            resolve(m);
          }
        };
        waiters.add(check);
        void exit.then(() => setImmediate(() => reject(new Error(`exited before stderr matched ${re}:\n${err}`))));
        check();
      }),
  };
}

/** The terminal goes away: its pipes close (writes now fail with EPIPE), then the hangup signal comes. */
function hangUp(run: Run): void {
  run.child.stdout.destroy();
  run.child.stderr.destroy();
  run.child.kill("SIGHUP");
}

test("the terminal closes during a 20,000-entity preload: the run stops and its table is deleted", async () => {
  const run = start("--duration", "60s", "--preload", "20000", "--mix", "read=1,write=1");
  const [, table] = await run.waitFor(/creating the stress table (stress[0-9a-f]{10})/);
  await run.waitFor(/loading 20,000 entities/);
  hangUp(run);
  const t0 = Date.now();
  const { code, signal } = await run.exit;
  assert.equal(signal, null, "not killed by the hangup: it handled it");
  assert.equal(code, 1);
  assert.ok(Date.now() - t0 < 12_000, `exited ${Date.now() - t0} ms after the hangup`);
  assert.ok(!(await stressTables()).includes(table), `${table} was left behind`);
});

test("the terminal closes during the run: the run stops and its table is deleted", async () => {
  const run = start("--duration", "60s");
  const [, table] = await run.waitFor(/creating the stress table (stress[0-9a-f]{10})/);
  await run.waitFor(/entities\/s/);
  hangUp(run);
  const { code, signal } = await run.exit;
  assert.equal(signal, null);
  assert.equal(code, 1);
  assert.ok(!(await stressTables()).includes(table), `${table} was left behind`);
});

test("the endpoint stalls for 40 s from the middle of the run: deletion keeps trying, says so, and deletes the table once it answers", async () => {
  const run = start("--duration", "4s");
  const [, table] = await run.waitFor(/creating the stress table (stress[0-9a-f]{10})/);
  await run.waitFor(/entities\/s/);
  proxy.stall("both");
  const resume = setTimeout(() => proxy.resume(), 40_000);
  try {
    await run.exit;
    assert.match(run.stderr(), new RegExp(`still trying to delete ${table} \\(.*; \\d+ s of at most 60 s\\)`));
    assert.match(run.stderr(), new RegExp(`the stress table ${table} was deleted`));
    assert.deepEqual(await stressTables(), []);
  } finally {
    clearTimeout(resume);
    proxy.resume();
  }
});
