/**
 * A live migration end to end, on `tdl emulator` with fidelity on: 2,000
 * entities of a hot design (hour partitions) migrated to its fix (a
 * partition per device, an index row, a second table) while a writer using
 * the generated dual-write module inserts, updates and deletes at 50
 * operations a second; `tdl migrate run` is killed (SIGKILL) at random
 * moments and resumed until it finishes; then `tdl migrate verify` reports
 * 0 differences, and the new tables hold exactly what the writer's log says
 * — no older value replaced a newer one, no deleted entity came back. The
 * generated TypeScript type-checks under the strictest options first. (The
 * 100,000-entity figure is `npm run bench` section migrate.)
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { TableClient, type TableEntity } from "@azure/data-tables";
import { removeDir, STRICT, tempDir } from "../unit/codegen/examples";
import { seeded } from "../helpers/generated-tables";
import { NEW_DESIGN, OLD_DESIGN } from "../helpers/migrate-designs";
import {
  againstTheLog,
  DualWriter,
  reading,
  runKilled,
  seedOld,
  type Clients,
  type DualWrites,
  type Reading,
} from "../helpers/migrate-writer";

const CLI = path.resolve("dist/cli.js");
const ENTITIES = 2000;
const OPS_PER_SECOND = 50;
const KILLS = 3;

let emulator: ChildProcess;
let connectionString = "";
let dir = "";

before(async () => {
  dir = tempDir();
  emulator = spawn(process.execPath, [CLI, "emulator", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const first = await new Promise<string>((resolve) => {
    let out = "";
    emulator.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
  });
  const info = JSON.parse(first) as { connectionString: string; fidelity: string };
  assert.equal(info.fidelity, "azure-table");
  connectionString = info.connectionString;
  writeFileSync(path.join(dir, "old.tdl"), OLD_DESIGN);
  writeFileSync(path.join(dir, "new.tdl"), NEW_DESIGN);
});

after(async () => {
  emulator?.kill("SIGINT");
  removeDir(dir);
});

const env = () => ({ ...process.env, TDL_MIGRATE_TEST: connectionString });
const tdl = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: "utf8", env: env(), timeout: 300_000 });
const client = (table: string) => TableClient.fromConnectionString(connectionString, table, { allowInsecureConnection: true });

test("the generated dual writes type-check under the strictest options", () => {
  const r = tdl(["codegen", "new.tdl", "--migration", "old.tdl", "--out", "dual"]);
  assert.equal(r.status, 0, r.stderr);
  const files = readdirSync(path.join(dir, "dual")).sort();
  assert.deepEqual(files, ["Readings.migration.ts", "Readings.new.keys.ts", "Readings.old.keys.ts", "ReadingsByMetric.new.keys.ts"]);
  const program = ts.createProgram(
    files.map((f) => path.join(dir, "dual", f)),
    STRICT,
  );
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
  assert.deepEqual(problems, []);
});

test("a live migration killed three times and resumed: verify finds 0 differences and the new tables hold the writer's last word on every entity", async () => {
  const dual = (await import(pathToFileURL(path.join(dir, "dual", "Readings.migration.ts")).href)) as DualWrites;
  const old = (await import(pathToFileURL(path.join(dir, "dual", "Readings.old.keys.ts")).href)) as {
    entityRows(e: Reading): TableEntity[];
  };
  const clients: Clients = { old: client("Readings"), Readings: client("ReadingsV2"), ReadingsByMetric: client("ReadingsByMetric") };
  for (const c of Object.values(clients)) await c.createTable();
  const random = seeded(35);
  // The table before the migration, written by the old design alone; from now on the application writes through the dual writes.
  const live = Array.from({ length: ENTITIES }, (_, i) => reading(i));
  await seedOld(clients.old, live, (e) => old.entityRows(e));
  const writer = new DualWriter(dual, clients, live, random, OPS_PER_SECOND);
  writer.start();
  const run = [
    CLI,
    "migrate",
    "run",
    "old.tdl",
    "new.tdl",
    "--connection-string-env",
    "TDL_MIGRATE_TEST",
    "--to-table",
    "Readings=ReadingsV2",
    "--dir",
    "job",
  ];
  const r = await runKilled(run, { cwd: dir, env: env(), kills: KILLS, windowMs: 3500, random });
  await writer.stop();
  assert.equal(r.code, 0, r.stderr);
  // A run that failed (the emulator dropped a request) was resumed as a user would; it must not have been a refusal.
  assert.deepEqual(
    r.failures.filter((f) => !/did not answer|no answer|dropped/.test(f)),
    [],
  );
  assert.ok(r.kills >= 1, `killed ${r.kills} times`);
  assert.ok(writer.ops >= 50, `the writer made ${writer.ops} operations during the run`);

  const verify = tdl([
    "migrate",
    "verify",
    "old.tdl",
    "new.tdl",
    "--connection-string-env",
    "TDL_MIGRATE_TEST",
    "--to-table",
    "Readings=ReadingsV2",
    "--dir",
    "job",
  ]);
  assert.match(
    verify.stdout,
    /: 0 differences \(0 missing, 0 extra, 0 different, 0 that cannot be re-keyed\)/,
    verify.stdout + verify.stderr,
  );
  assert.equal(verify.status, 0);
  // The writer's log is the truth: no older value replaced a newer one, no deleted entity came back.
  assert.deepEqual((await againstTheLog(clients, writer.truth)).slice(0, 10), []);
});
