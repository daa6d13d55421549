import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createHttpHeaders, PipelinePolicy, PipelineRequest, SendRequest } from "@azure/core-rest-pipeline";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { StressRefused } from "@runtime/stress/engine";
import { type FlatStress, runStressWith } from "../helpers/stress-job";
import { backoffDelay, STRESS_BACKOFF, withRetries } from "@runtime/net/retry";
import { StressReport } from "@protocol/stress-report";
import { session, startAzurite } from "../helpers/azurite";

let emu: EmbeddedEmulator;
before(async () => {
  emu = await startAzurite();
});
after(async () => emu?.stop());

const MARATHON = readFileSync("examples/marathon.tdl", "utf8");
const SELLER = readFileSync("examples/student-cards/by-seller.tdl", "utf8");

function options(extra: Partial<FlatStress> = {}): FlatStress {
  return {
    connection: { id: "e", name: "emulator", kind: "emulator", endpoint: emu.endpoint },
    secret: { connectionString: emu.connectionString },
    // A given scale: these tests are about the run, not the calibration (stress-verdicts.test.ts measures that).
    design: { text: MARATHON, file: "marathon.tdl", table: "Registrations" },
    mode: "spread",
    durationMs: 1500,
    concurrency: 8,
    preload: 50,
    emulatorScale: 1,
    ...extra,
  };
}

async function tables(): Promise<string[]> {
  return session(emu).listTables();
}

function consistent(r: StressReport): void {
  const seconds = r.durationMs / 1000;
  const total = Object.values(r.operations).reduce((s, o) => s + o.entities, 0);
  // The report lists the busiest 1,000 partitions: all of them add up to the total, a cut list to less.
  const listed = r.partitions.reduce((s, p) => s + p.entities, 0);
  if (r.partitionCount <= r.partitions.length) assert.equal(listed, total, "partitions add up");
  else assert.ok(r.partitions.length === 1000 && listed < total, `${r.partitionCount} partitions, ${r.partitions.length} listed`);
  for (const p of r.partitions) assert.ok(Math.abs(p.entitiesPerSecond - p.entities / seconds) <= 0.051, `partition ${JSON.stringify(p)}`);
  const timeline = r.timeline.reduce((s, t) => s + t.entities, 0);
  assert.equal(timeline, total, "the timeline adds up");
  // Each point's rate is its entities over its real length: the last, partial second does not drop.
  r.timeline.forEach((t, i) => {
    const from = i === 0 ? 0 : r.timeline[i - 1].tMs;
    assert.ok(
      Math.abs(t.entitiesPerSecond - t.entities / ((t.tMs - from) / 1000)) <= 0.051 + t.entitiesPerSecond * 0.001,
      `timeline ${JSON.stringify(t)} after ${from}`,
    );
  });
  assert.ok(r.timeline[r.timeline.length - 1].tMs <= r.durationMs, "the last point ends with the run");
  for (const o of Object.values(r.operations)) {
    assert.ok(
      Math.abs(o.entitiesPerSecond - o.entities / seconds) <= 0.1 + o.entitiesPerSecond * 0.001,
      `rate ${o.entitiesPerSecond} vs ${o.entities / seconds}`,
    );
    if (o.count)
      assert.ok(
        o.latencyMs.p50 > 0 &&
          o.latencyMs.p50 <= o.latencyMs.p95 &&
          o.latencyMs.p95 <= o.latencyMs.p99 &&
          o.latencyMs.p99 <= o.latencyMs.max,
        `latency ${JSON.stringify(o.latencyMs)}`,
      );
  }
  assert.ok(r.durationMs >= 1400 && r.durationMs < 4000, `duration ${r.durationMs}`);
}

test("spread: many partitions, figures that add up, the table deleted", async () => {
  let name = "";
  const r = await runStressWith(options({ onTable: (t) => (name = t) }));
  consistent(r);
  assert.match(r.table, /^stress[0-9a-f]{10}$/);
  assert.equal(r.table, name);
  assert.ok(r.operations.insert.count > 100);
  assert.ok(r.partitions.length > 100);
  assert.equal(r.target, "emulator");
  assert.match(r.verdict.note, /not Azure's limits/);
  assert.ok(!(await tables()).includes(name));
});

test("single-partition with reads and batches: one hot partition, compared with the target", async () => {
  const r = await runStressWith(options({ mode: "single-partition", mix: { read: 30, write: 70 }, batch: 20 }));
  consistent(r);
  assert.equal(r.partitions[0].partitionKey, "stress-hot");
  assert.ok(r.operations.pointRead.count > 0 && r.operations.insert.entities === r.operations.insert.count * 20);
  assert.equal(r.verdict.hottestPartitionEntitiesPerSecond, r.partitions[0].entitiesPerSecond);
  assert.equal(r.verdict.exceedsTarget, r.partitions[0].entitiesPerSecond > 2000);
});

test("design: the design's patterns and skew (the hot seller takes about a quarter)", async () => {
  const r = await runStressWith(
    options({ mode: "design", design: { text: SELLER, file: "by-seller.tdl", table: "PurchasesBySeller" }, scale: 0.1 }),
  );
  consistent(r);
  const total = r.partitions.reduce((s, p) => s + p.entitiesPerSecond, 0);
  const share = r.partitions[0].entitiesPerSecond / total;
  assert.ok(share > 0.18 && share < 0.35, `hot share ${share}`);
  assert.ok(r.partitions.length <= 41);
});

test("cancel and timeout stop the run and still delete the table", async () => {
  let name = "";
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 600);
  const cancelled = await runStressWith(options({ durationMs: 30_000, signal: abort.signal, onTable: (t) => (name = t) }));
  assert.equal(cancelled.stopped, "cancelled");
  assert.ok(cancelled.durationMs < 3000);
  assert.ok(!(await tables()).includes(name));
  const bounded = await runStressWith(options({ durationMs: 60_000, maxDurationMs: 1000, onTable: (t) => (name = t) }));
  assert.ok(bounded.durationMs < 2500, `bounded at ${bounded.durationMs}`);
  assert.ok(!(await tables()).includes(name));
});

/** A pipeline policy that answers some entity requests itself, as a throttled or failing service would. */
function faults(
  plan: (req: PipelineRequest, n: number) => { status: number; code: string } | undefined,
  log: Array<{ t: number; status: number }>,
): PipelinePolicy {
  let n = 0;
  return {
    name: "inject-faults",
    async sendRequest(request: PipelineRequest, next: SendRequest) {
      const fault =
        /\/stress[0-9a-f]+(\(|\?|$)/.test(new URL(request.url).pathname) && request.method === "POST" ? plan(request, n++) : undefined;
      if (!fault) return next(request);
      log.push({ t: performance.now(), status: fault.status });
      return {
        request,
        status: fault.status,
        headers: createHttpHeaders({ "x-ms-error-code": fault.code, "content-type": "application/json" }),
        bodyAsText: JSON.stringify({ "odata.error": { code: fault.code, message: { lang: "en-US", value: fault.code } } }),
      };
    },
  };
}

test("retries: 503, 500 OperationTimedOut and 504 are retried with the back-off; 4xx never", async () => {
  const log: Array<{ t: number; status: number }> = [];
  const cycle = [
    { status: 503, code: "ServerBusy" },
    { status: 500, code: "OperationTimedOut" },
    { status: 504, code: "GatewayTimeout" },
    { status: 409, code: "EntityAlreadyExists" },
    { status: 400, code: "InvalidInput" },
  ];
  const policy = faults((_r, n) => (n % 4 === 0 ? cycle[(n / 4) % cycle.length] : undefined), log);
  const r = await runStressWith(
    options({ concurrency: 2, durationMs: 2000, clientOptions: { additionalPolicies: [{ policy, position: "perRetry" }] } }),
  );
  const ins = r.operations.insert;
  const retryable = log.filter((l) => l.status >= 500).length;
  const clientErrors = log.filter((l) => l.status < 500).length;
  assert.ok(retryable > 0 && clientErrors > 0);
  assert.equal(ins.retries, retryable, "every 5xx of the policy was retried");
  assert.equal((ins.errors["409"] ?? 0) + (ins.errors["400"] ?? 0), clientErrors, "every 4xx failed at once");
  assert.deepEqual(
    Object.keys(ins.errors).sort(),
    ["400", "409"].filter((k) => ins.errors[k]),
  );
  assert.equal(ins.errorCodes.EntityAlreadyExists ?? 0, ins.errors["409"] ?? 0);
});

test("back-off delays stay within the formula's bounds", async () => {
  for (let x = 1; x <= 6; x++) {
    const lo = Math.min(50 + 80 * (2 ** x - 1), 5000);
    const hi = Math.min(50 + 120 * (2 ** x - 1), 5000);
    assert.ok(Math.abs(backoffDelay(x, STRESS_BACKOFF, () => 0) - lo) < 1e-6);
    assert.ok(Math.abs(backoffDelay(x, STRESS_BACKOFF, () => 1) - hi) < 1e-6);
  }
  const delays: number[] = [];
  const stamps: number[] = [];
  let calls = 0;
  await withRetries(
    async () => {
      stamps.push(performance.now());
      if (calls++ < 3) throw { statusCode: 503, code: "ServerBusy" };
      return "ok";
    },
    STRESS_BACKOFF,
    (d) => delays.push(d),
  );
  delays.forEach((d, i) => {
    const x = i + 1;
    assert.ok(d >= 50 + 80 * (2 ** x - 1) - 1e-6 && d <= 50 + 120 * (2 ** x - 1) + 1e-6, `delay ${x}: ${d}`);
    assert.ok(stamps[i + 1] - stamps[i] >= d - 2, "it really waited");
  });
  let once = 0;
  await assert.rejects(
    withRetries(
      async () => {
        once++;
        throw { code: "ECONNREFUSED" };
      },
      STRESS_BACKOFF,
      () => undefined,
    ),
  );
  assert.equal(once, 2, "a connection failure is retried once, immediately");
  let never = 0;
  await assert.rejects(
    withRetries(
      async () => {
        never++;
        throw { statusCode: 501 };
      },
      STRESS_BACKOFF,
      () => undefined,
    ),
  );
  assert.equal(never, 1);
});

test("a non-emulator endpoint is refused without confirmation", async () => {
  await assert.rejects(
    runStressWith(
      options({
        connection: { id: "r", name: "real", kind: "connection-string", endpoint: "https://myaccount.table.core.windows.net" },
        secret: {
          connectionString: "DefaultEndpointsProtocol=https;AccountName=myaccount;AccountKey=abc=;EndpointSuffix=core.windows.net",
        },
      }),
    ),
    (e: unknown) => e instanceof StressRefused && /--yes-real-account/.test((e as Error).message),
  );
});
