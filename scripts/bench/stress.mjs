// The stress engine against a hand-written @azure/data-tables insert loop on the
// same fresh Azurite (`node scripts/bench.mjs stress`).
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { ROOT, cpuSeconds, require, startAzurite, withRetry } from "./shared.mjs";

/** The reference: a minimal hand-written @azure/data-tables insert loop, same entity size and concurrency. */
async function handWrittenInserts(connectionString, concurrency, seconds) {
  const { TableClient } = require("@azure/data-tables");
  const table = `bench${Date.now().toString(36)}`;
  const client = TableClient.fromConnectionString(connectionString, table, {
    allowInsecureConnection: true,
    retryOptions: { maxRetries: 0 },
  });
  await withRetry(() => client.createTable());
  const filler = "x".repeat(412); // ≈ 1 KiB entities, as the design's entitySize 1KB
  let n = 0;
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const i = n++;
        try {
          // The same properties the stress engine generates from examples/marathon.tdl, and the same filler.
          await client.createEntity({
            partitionKey: `stress-${String(i % 1024).padStart(4, "0")}`,
            rowKey: String(i).padStart(12, "0"),
            Event: "bq",
            Distance: "Half",
            Bib: i % 100000,
            Name: "cx",
            Gender: "F",
            Age: i % 121,
            Padding: filler,
          });
          done++;
        } catch {
          // A dropped keep-alive socket: the next request goes on (the stress engine counts such errors too).
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await client.deleteTable().catch(() => undefined);
  return done / elapsed;
}

/** `tdl stress` in spread mode on examples/marathon.tdl against the bench's Azurite, with `extra` options; its JSON report. */
export function stressReport(connectionString, seconds, extra) {
  const reportFile = path.join(require("node:os").tmpdir(), `tdl-bench-${process.pid}.json`);
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, "dist/cli.js"),
      "stress",
      "--design",
      path.join(ROOT, "examples/marathon.tdl"),
      "--table",
      "Registrations",
      "--connection-string-env",
      "BENCH_TABLES",
      "--mode",
      "spread",
      "--duration",
      `${seconds}s`,
      "--report",
      reportFile,
      ...extra,
    ],
    { env: { ...process.env, BENCH_TABLES: connectionString }, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`tdl stress ${extra.join(" ")} failed: ${r.stderr}`);
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  rmSync(reportFile, { force: true });
  return report;
}

async function benchStress() {
  const az = await startAzurite();
  const concurrency = 32;
  const seconds = Number(process.env.BENCH_STRESS_SECONDS ?? 8);
  const rows = [];
  try {
    for (let round = 0; round < 2; round++) {
      let cpu0 = cpuSeconds(az.child.pid);
      let t0 = performance.now();
      const reference = await handWrittenInserts(az.connectionString, concurrency, seconds);
      const refCpu = (cpuSeconds(az.child.pid) - cpu0) / ((performance.now() - t0) / 1000);
      cpu0 = cpuSeconds(az.child.pid);
      t0 = performance.now();
      const report = stressReport(az.connectionString, seconds, ["--concurrency", String(concurrency)]);
      const stressCpu = (cpuSeconds(az.child.pid) - cpu0) / ((performance.now() - t0) / 1000);
      rows.push({ reference, refCpu, stress: report.operations.insert.entitiesPerSecond, stressCpu });
    }
  } finally {
    az.child.kill();
  }
  return rows;
}

/** The section: rounds of the hand-written loop and `tdl stress`, each on a fresh Azurite. */
export async function run() {
  const stress = await benchStress();
  console.log(
    `\nStress engine against a hand-written @azure/data-tables insert loop: same fresh Azurite, concurrency 32, ≈ 1 KiB entities, spread over 1,024 partitions\n`,
  );
  console.log(
    `${"round".padEnd(6)} ${"hand-written".padStart(13)} ${"tdl stress".padStart(11)} ${"ratio".padStart(6)}   emulator CPU (hand / stress, share of one core)`,
  );
  stress.forEach((r, i) =>
    console.log(
      `${String(i + 1).padEnd(6)} ${r.reference.toFixed(0).padStart(13)} ${r.stress.toFixed(0).padStart(11)} ${(r.stress / r.reference).toFixed(2).padStart(6)}   ${(r.refCpu * 100).toFixed(0)}% / ${(r.stressCpu * 100).toFixed(0)}%`,
    ),
  );
  const ref = stress.reduce((s, r) => s + r.reference, 0) / stress.length;
  const mine = stress.reduce((s, r) => s + r.stress, 0) / stress.length;
  console.log(
    `mean   ${ref.toFixed(0).padStart(13)} ${mine.toFixed(0).padStart(11)} ${(mine / ref).toFixed(2).padStart(6)}   target ratio ≥ 0.95; an emulator near 100% of a core is the saturated side`,
  );
}
