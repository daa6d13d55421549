// A live migration on `tdl emulator` with fidelity on (`node scripts/bench.mjs migrate`): issue #35's figure.
import * as path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tsImport } from "tsx/esm/api";
import { formatCount, ROOT, require } from "./shared.mjs";

const { OLD_DESIGN, NEW_DESIGN } = await tsImport("../../test/helpers/migrate-designs.ts", import.meta.url);
const { againstTheLog, DualWriter, reading, runKilled, seedOld } = await tsImport("../../test/helpers/migrate-writer.ts", import.meta.url);

/**
 * BENCH_MIGRATE_ENTITIES (100,000) readings of the hot design (hour partitions) migrated to its fix (a
 * partition per device, an index row, a second table: 3 rows per entity) by `tdl migrate run --share S`
 * while a writer using the generated dual-write module inserts, updates and deletes at 50 operations/s;
 * the run SIGKILLed at five random moments and resumed. Then `tdl migrate verify` must find 0
 * differences and the new tables must hold the writer's last word on every entity. The figure: the
 * backfill's rows per second of writing (over its runs, to each one's last checkpoint) beside 0.75 of the share of the account
 * target it was given (BENCH_MIGRATE_SHARE, 0.05 of 20,000 entities/s: what one emulator on a laptop
 * can hold).
 */
async function benchMigrate() {
  const { TableClient } = require("@azure/data-tables");
  const entities = Number(process.env.BENCH_MIGRATE_ENTITIES ?? 100_000);
  const share = Number(process.env.BENCH_MIGRATE_SHARE ?? 0.05);
  const cli = path.join(ROOT, "dist/cli.js");
  // Inside the repository, so the generated modules resolve @azure/data-tables.
  const base = path.join(ROOT, "test", "fixtures", "ts");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, ".tmp-bench-migrate-"));
  const emulator = spawn(process.execPath, [cli, "emulator", "--port", "0"], { stdio: ["ignore", "pipe", "ignore"] });
  try {
    const first = await new Promise((resolve) => {
      let out = "";
      emulator.stdout.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]);
      });
    });
    const { connectionString } = JSON.parse(first);
    const env = { ...process.env, BENCH_TABLES: connectionString };
    writeFileSync(path.join(dir, "old.tdl"), OLD_DESIGN);
    writeFileSync(path.join(dir, "new.tdl"), NEW_DESIGN);
    const gen = spawnSync(process.execPath, [cli, "codegen", "new.tdl", "--migration", "old.tdl", "--out", "dual"], {
      cwd: dir,
      encoding: "utf8",
    });
    if (gen.status !== 0) throw new Error(`tdl codegen --migration failed: ${gen.stderr}`);
    const dual = await tsImport(path.join(dir, "dual", "Readings.migration.ts"), import.meta.url);
    const old = await tsImport(path.join(dir, "dual", "Readings.old.keys.ts"), import.meta.url);
    const client = (t) => TableClient.fromConnectionString(connectionString, t, { allowInsecureConnection: true });
    const clients = { old: client("Readings"), Readings: client("ReadingsV2"), ReadingsByMetric: client("ReadingsByMetric") };
    for (const c of Object.values(clients)) await c.createTable();
    const live = Array.from({ length: entities }, (_, i) => reading(i));
    await seedOld(clients.old, live, (e) => old.entityRows(e));
    let s = 35;
    const random = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const writer = new DualWriter(dual, clients, live, random, 50);
    writer.start();
    // prettier-ignore
    const run = [cli, "migrate", "run", "old.tdl", "new.tdl", "--connection-string-env", "BENCH_TABLES", "--to-table", "Readings=ReadingsV2", "--dir", "job", "--share", String(share)];
    const r = await runKilled(run, { cwd: dir, env, kills: 5, windowMs: 20_000, random });
    await writer.stop();
    if (r.code !== 0)
      throw new Error(
        `tdl migrate run failed (${r.code}): ${r.stderr
          .split("\n")
          .filter((l) => l.startsWith("tdl:"))
          .join("\n")
          .slice(0, 2000)}`,
      );
    const summary = JSON.parse(r.stdout);
    // prettier-ignore
    const verify = spawnSync(process.execPath, [cli, "migrate", "verify", "old.tdl", "new.tdl", "--connection-string-env", "BENCH_TABLES", "--to-table", "Readings=ReadingsV2"], { cwd: dir, env, encoding: "utf8" });
    const differences = /: (\d[\d,]*) differences? \(/.exec(verify.stdout)?.[1] ?? "unknown";
    const wrong = await againstTheLog(clients, writer.truth);
    return {
      entities,
      share,
      kills: r.kills,
      failures: r.failures,
      ops: writer.ops,
      summary,
      differences,
      verifyExit: verify.status,
      wrong,
    };
  } finally {
    emulator.kill("SIGINT");
    rmSync(dir, { recursive: true, force: true });
  }
}

function printMigrate(r) {
  const allowed = r.summary.allowedPerSecond;
  console.log(
    `\nA live migration on tdl emulator (fidelity on): ${formatCount(r.entities)} entities re-keyed into 3 rows each while the dual writes made ${formatCount(r.ops)} operations at 50/s; the run SIGKILLed ${r.kills} times and resumed\n`,
  );
  console.log(
    `backfill: ${formatCount(r.summary.rowsPerSecond)} rows/s   target: ≥ 0.75 × ${formatCount(allowed)} (the share ${r.share} of 20,000 entities/s) = ${formatCount(0.75 * allowed)} rows/s   ${r.summary.rowsPerSecond >= 0.75 * allowed ? "met" : "missed"}`,
  );
  console.log(
    `rows: ${formatCount(r.summary.inserted)} inserted, ${formatCount(r.summary.present)} there already (newer dual writes, kept), ${formatCount(r.summary.removed)} deleted again`,
  );
  console.log(
    `verify: ${r.differences} differences (exit ${r.verifyExit}); against the writer's log: ${r.wrong.length} entities wrong${r.wrong.length ? ` (${r.wrong.slice(0, 3).join("; ")})` : ""}`,
  );
}

/** The section. */
export async function run() {
  printMigrate(await benchMigrate());
}
