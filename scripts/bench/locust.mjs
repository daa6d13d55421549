// Locust's scaling over 1, 2 and 4 workers against the built-in engine
// (`node scripts/bench.mjs locust`).
import { startAzurite } from "./shared.mjs";
import { stressReport } from "./stress.mjs";

/**
 * Locust's scaling: the spread mode as an open load of BENCH_LOCUST_RATE calls/s per worker (default 75, low enough
 * that Azurite is not the bottleneck), on 1, 2 and 4 workers, against the built-in engine at the 4-worker load.
 * What the workers sent should grow at least 0.8 × linearly with their number.
 */
async function benchLocust() {
  const az = await startAzurite();
  const perWorker = Number(process.env.BENCH_LOCUST_RATE ?? 75);
  const seconds = Number(process.env.BENCH_LOCUST_SECONDS ?? 8);
  const run = (extra) => {
    const report = stressReport(az.connectionString, seconds, ["--concurrency", "16", ...extra]);
    const secondsRun = report.durationMs / 1000;
    return { sent: (report.pace?.sent ?? report.operations.insert.count) / secondsRun, served: report.operations.insert.entitiesPerSecond };
  };
  const rows = [];
  try {
    for (const workers of [1, 2, 4])
      rows.push({
        workers,
        planned: perWorker * workers,
        ...run(["--engine", "locust", "--workers", String(workers), "--rate", String(perWorker * workers)]),
      });
    rows.push({ workers: 0, planned: perWorker * 4, ...run(["--rate", String(perWorker * 4)]) });
  } finally {
    az.child.kill();
  }
  return { perWorker, seconds, rows };
}

function printLocust({ perWorker, seconds, rows }) {
  console.log(
    `\nLocust scaling: spread inserts at ${perWorker} calls/s per worker for ${seconds} s (plain Azurite), beside the built-in engine at the 4-worker load\n`,
  );
  console.log(
    `${"engine".padEnd(20)} ${"planned/s".padStart(10)} ${"sent/s".padStart(8)} ${"served/s".padStart(9)} ${"× linear".padStart(9)}`,
  );
  const one = rows.find((r) => r.workers === 1);
  for (const r of rows) {
    const name = r.workers ? `Locust, ${r.workers} worker${r.workers > 1 ? "s" : ""}` : "built-in";
    const linear = r.workers ? (r.sent / (r.workers * one.sent)).toFixed(2) : "";
    console.log(
      `${name.padEnd(20)} ${String(r.planned).padStart(10)} ${r.sent.toFixed(0).padStart(8)} ${r.served.toFixed(0).padStart(9)} ${linear.padStart(9)}`,
    );
  }
  const worst = Math.min(...rows.filter((r) => r.workers > 1).map((r) => r.sent / (r.workers * one.sent)));
  console.log(`worst × linear: ${worst.toFixed(2)}; target ≥ 0.80`);
}

/** The section. */
export async function run() {
  printLocust(await benchLocust());
}
