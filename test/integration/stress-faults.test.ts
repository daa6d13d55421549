/**
 * The stress engine under real faults: a TCP proxy between the engine and a
 * real Azurite takes the endpoint down or stalls it; cancellation lands in
 * each phase. After each, no stress table is left — or the failure names
 * the table and how to remove it, and the cleanup does.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { StressFailure, StressPhase } from "@runtime/stress/engine";
import { type FlatStress, runStressWith } from "../helpers/stress-job";
import { findLeftovers, removeLeftovers } from "@runtime/stress/cleanup";
import { makeClients } from "@runtime/account/clients";
import { DEV_ACCOUNT, DEV_KEY } from "@runtime/account/connection-string";
import { AzureNamedKeyCredential, generateAccountSas } from "@azure/data-tables";
import { emulatorConnection, session, startAzurite } from "../helpers/azurite";
import { FaultProxy } from "../helpers/fault-proxy";

let emu: EmbeddedEmulator;
before(async () => {
  emu = await startAzurite();
});
after(async () => emu?.stop());

const MARATHON = readFileSync("examples/marathon.tdl", "utf8");
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stressTables = async () => (await session(emu).listTables()).filter((t) => t.startsWith("stress"));

/** Waits (polling Azurite itself, not the proxy) until `check` holds. */
async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await delay(50);
  }
}

/** Records the engine's phases; `at(p)` resolves with the time the phase began and the table's name. */
function phases() {
  const seen = new Map<StressPhase, { t: number; table: string }>();
  const waiting = new Map<StressPhase, Array<(v: { t: number; table: string }) => void>>();
  return {
    onPhase: (p: StressPhase, table: string) => {
      const v = { t: performance.now(), table };
      seen.set(p, v);
      for (const w of waiting.get(p) ?? []) w(v);
    },
    at: (p: StressPhase) =>
      new Promise<{ t: number; table: string }>((resolve) => {
        const v = seen.get(p);
        if (v) resolve(v);
        else waiting.set(p, [...(waiting.get(p) ?? []), resolve]);
      }),
    seen,
  };
}

function through(proxy: FaultProxy | undefined, extra: Partial<FlatStress>): FlatStress {
  const endpoint = proxy?.endpoint ?? emu.endpoint;
  return {
    connection: { id: "p", name: "proxy", kind: "emulator", endpoint },
    secret: { connectionString: proxy ? proxy.connectionString(emu.connectionString, emu.endpoint) : emu.connectionString },
    design: { text: MARATHON, file: "examples/marathon.tdl", table: "Registrations" },
    mode: "spread",
    durationMs: 20_000,
    concurrency: 8,
    preload: 50,
    ...extra,
  };
}

async function withProxy(fn: (proxy: FaultProxy) => Promise<void>): Promise<void> {
  const proxy = await FaultProxy.start(emu.port);
  try {
    await fn(proxy);
  } finally {
    await proxy.close();
  }
}

test("cancelled while the create request is in flight: the table it made is deleted, at once", () =>
  withProxy(async (proxy) => {
    const abort = new AbortController();
    const ph = phases();
    // The create reaches Azurite, its answer is held: the table exists, the engine does not know yet.
    proxy.stall("answers");
    const run = runStressWith(through(proxy, { signal: abort.signal, onPhase: ph.onPhase }));
    const { table } = await ph.at("create");
    await until(async () => (await stressTables()).includes(table));
    const t0 = performance.now();
    abort.abort();
    setTimeout(() => proxy.resume(), 300);
    const r = await run;
    assert.equal(r.stopped, "cancelled while creating the table");
    assert.ok(!ph.seen.has("preload") && !ph.seen.has("run"), "nothing ran after the cancel");
    assert.ok(performance.now() - t0 < 5000, `took ${performance.now() - t0} ms`);
    assert.ok(!(await stressTables()).includes(table));
  }));

test("cancelled during a 20,000-entity preload: it stops there, no run, the table deleted", async () => {
  const abort = new AbortController();
  const ph = phases();
  // Only a load that reads entities back preloads them: half the calls are point reads.
  const run = runStressWith(through(undefined, { preload: 20_000, mix: { read: 1, write: 1 }, signal: abort.signal, onPhase: ph.onPhase }));
  const { table } = await ph.at("preload");
  await delay(300);
  const t0 = performance.now();
  abort.abort();
  const r = await run;
  assert.match(r.stopped ?? "", /^cancelled while loading entities \([\d,]+ of 20,000\)$/);
  assert.ok(!ph.seen.has("run"));
  assert.equal(r.operations.insert.count, 0);
  assert.ok(performance.now() - t0 < 5000, `took ${performance.now() - t0} ms after the cancel`);
  assert.ok(!(await stressTables()).includes(table));
});

test("an 8 s outage during the run: the run fails naming the phase and endpoint, and the table is deleted once the endpoint is back", () =>
  withProxy(async (proxy) => {
    const ph = phases();
    const run = runStressWith(through(proxy, { onPhase: ph.onPhase }));
    const { table } = await ph.at("run");
    await delay(700);
    const outage = proxy.downFor(8000);
    const t0 = performance.now();
    await assert.rejects(run, (e: unknown) => {
      assert.ok(e instanceof StressFailure);
      assert.equal(e.phase, "run");
      assert.match(
        e.message,
        /^the stress test failed while running the load at 127\.0\.0\.1:\d+: nothing answers at 127\.0\.0\.1:\d+ \(connection refused\).*\(no answer for \d+\.\d s\)/,
      );
      assert.match(e.message, new RegExp(`the table ${table} was deleted once 127\\.0\\.0\\.1:\\d+ answered again`));
      assert.equal(e.leftover, undefined);
      assert.ok(e.report.operations.insert.count > 0);
      return true;
    });
    const elapsed = performance.now() - t0;
    assert.ok(elapsed >= 7500 && elapsed < 16_000, `ended ${elapsed} ms into the outage`);
    await outage;
    assert.ok(!(await stressTables()).includes(table));
  }));

test("an outage shorter than the run's tolerance is ridden out: errors counted, no spinning, the table deleted", () =>
  withProxy(async (proxy) => {
    const ph = phases();
    const run = runStressWith(through(proxy, { durationMs: 4000, onPhase: ph.onPhase }));
    const { table } = await ph.at("run");
    await delay(800);
    await proxy.downFor(1500);
    const r = await run;
    assert.equal(r.stopped, undefined);
    const failures = Object.entries(r.operations.insert.errors)
      .filter(([k]) => !/^\d+$/.test(k))
      .reduce((n, [, v]) => n + v, 0);
    // 8 workers pausing 200 ms after each unanswered request: about 60 over 1.5 s; a spinning loop makes thousands.
    assert.ok(failures > 0 && failures < 400, `connection failures ${failures}`);
    assert.ok(!(await stressTables()).includes(table));
  }));

test("a stalled endpoint: the run ends at its bound and the reported duration is the measured one", () =>
  withProxy(async (proxy) => {
    const ph = phases();
    const run = runStressWith(through(proxy, { durationMs: 3000, onPhase: ph.onPhase }));
    const { t: started, table } = await ph.at("run");
    await delay(1000);
    proxy.stall("both");
    const resume = setTimeout(() => proxy.resume(), 8000);
    try {
      const { t: ended } = await ph.at("delete");
      const r = await run;
      const measured = ended - started;
      assert.ok(Math.abs(r.durationMs - measured) <= Math.max(0.03 * measured, 30), `reported ${r.durationMs} ms, measured ${measured} ms`);
      assert.ok(r.durationMs >= 2900 && r.durationMs <= 3000 + 2000 + 500, `the run phase took ${r.durationMs} ms`);
      assert.match(r.verdict.note, /The run took \d+\.\d s, longer than the 3\.0 s asked/);
      const total = Object.values(r.operations).reduce((n, o) => n + o.entities, 0);
      assert.ok(Math.abs(r.operations.insert.entitiesPerSecond - r.operations.insert.entities / (r.durationMs / 1000)) <= 0.1 && total > 0);
      assert.ok(!(await stressTables()).includes(table), "deleted once the stall ended");
    } finally {
      clearTimeout(resume);
      proxy.resume();
    }
  }));

test("deletion failing past its bound: the error names the table and how to remove it; the cleanup removes it once the endpoint is back", () =>
  withProxy(async (proxy) => {
    const ph = phases();
    const run = runStressWith(
      through(proxy, {
        outageMs: 1000,
        deleteWithinMs: 2000,
        onPhase: ph.onPhase,
        cleanupHint: "run: tdl stress --cleanup --older-than 0s --connection-string-env X",
      }),
    );
    const { table } = await ph.at("run");
    await delay(500);
    await proxy.down();
    await assert.rejects(run, (e: unknown) => {
      assert.ok(e instanceof StressFailure);
      assert.equal(e.leftover?.table, table);
      assert.match(
        e.message,
        new RegExp(
          `the stress table ${table} remains at 127\\.0\\.0\\.1:\\d+: deleting it failed \\d+ times over \\d+\\.\\d s \\(nothing answers at 127\\.0\\.0\\.1:\\d+ \\(connection refused\\)`,
        ),
      );
      assert.match(e.message, /To remove it, run: tdl stress --cleanup --older-than 0s --connection-string-env X$/);
      assert.match(e.report.stopped ?? "", new RegExp(`remains at .*${table}|${table} remains`));
      return true;
    });
    assert.ok((await stressTables()).includes(table), "really left behind");
    await proxy.up();
    const clients = makeClients(emulatorConnection(emu), { connectionString: emu.connectionString });
    const found = await findLeftovers(clients, emu.endpoint);
    const mine = found.find((t) => t.table === table);
    assert.ok(mine?.marker && mine.keep === undefined, JSON.stringify(mine));
    assert.equal(mine.marker.design, "marathon.tdl");
    assert.deepEqual(await removeLeftovers(clients, emu.endpoint, [mine]), [{ table, removed: true, reason: undefined }]);
    assert.ok(!(await stressTables()).includes(table));
  }));

test("failures name the phase and the endpoint and quote no part of a SAS: endpoint down, and a SAS that may only read", () =>
  withProxy(async (proxy) => {
    const key = new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY);
    const expiresOn = new Date(Date.now() + 3_600_000);
    const readOnly = generateAccountSas(key, { permissions: { query: true, list: true }, resourceTypes: "sco", expiresOn });
    const full = generateAccountSas(key, {
      permissions: { query: true, write: true, delete: true, list: true, add: true, update: true },
      resourceTypes: "sco",
      expiresOn,
    });
    const leaks = (text: string, sas: string) => {
      const sig = decodeURIComponent(/(?:^|&)sig=([^&]+)/.exec(sas)![1]);
      for (let i = 0; i + 8 <= sig.length; i++) if (text.includes(sig.slice(i, i + 8))) return true;
      return text.includes(sas);
    };
    const sasOptions = (sas: string): Partial<FlatStress> => ({
      connection: { id: "s", name: "sas", kind: "connection-string", endpoint: proxy.endpoint },
      secret: { connectionString: `TableEndpoint=${proxy.endpoint};SharedAccessSignature=${sas}` },
      deleteWithinMs: 1000,
    });
    await proxy.down();
    let phaseSeen = false;
    await assert.rejects(runStressWith({ ...through(proxy, sasOptions(full)), onPhase: () => (phaseSeen = true) }), (e: unknown) => {
      assert.ok(e instanceof StressFailure && e.phase === "create");
      assert.match(
        e.message,
        /^the stress test failed while creating the table at 127\.0\.0\.1:\d+: nothing answers at 127\.0\.0\.1:\d+ \(connection refused\).*; no table was created$/,
      );
      assert.ok(!leaks(e.message + (e.report.stopped ?? ""), full));
      return true;
    });
    assert.ok(phaseSeen);
    await proxy.up();
    await assert.rejects(runStressWith(through(proxy, sasOptions(readOnly))), (e: unknown) => {
      assert.ok(e instanceof StressFailure && e.phase === "create", String(e));
      assert.match(
        e.message,
        /^the stress test failed while creating the table at 127\.0\.0\.1:\d+: the SAS token may not create a table: it lacks the permission 'c' \(create\).* \(it has sp=rl\).*; no table was created$/,
      );
      assert.equal(e.leftover, undefined, "a refused create made no table: nothing to delete, nothing said to remain");
      assert.ok(!leaks(e.message + (e.report.stopped ?? ""), readOnly), e.message);
      return true;
    });
    assert.deepEqual((await stressTables()).length, 0);
  }));
