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
import { TableClient } from "@azure/data-tables";
import { removeDir, STRICT, tempDir } from "../unit/codegen/examples";
import { seeded } from "../helpers/generated-tables";
import { NEW_DESIGN, OLD_DESIGN } from "../helpers/migrate-designs";

const CLI = path.resolve("dist/cli.js");
const ENTITIES = 2000;
const OPS_PER_SECOND = 50;
const KILLS = 3;
const METRICS = ["temperature", "humidity", "pressure"] as const;

interface Reading {
  DeviceId: string;
  At: Date;
  Metric: (typeof METRICS)[number];
  Value: number;
}
type Clients = Record<"old" | "Readings" | "ReadingsByMetric", TableClient>;
interface DualWrites {
  writeReadings(c: Clients, e: Reading): Promise<void>;
  deleteReadings(c: Clients, e: Reading): Promise<void>;
}

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
const id = (e: Pick<Reading, "DeviceId" | "At">) => `${e.DeviceId}@${e.At.toISOString()}`;

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
  const clients: Clients = { old: client("Readings"), Readings: client("ReadingsV2"), ReadingsByMetric: client("ReadingsByMetric") };
  for (const c of Object.values(clients)) await c.createTable();
  const random = seeded(35);
  const device = (i: number) => (i % 40).toString(16).padStart(12, "0");
  const base = Date.UTC(2026, 0, 2);
  // The table before the migration: written by the old design alone (37 s apart: about 21 hour partitions).
  const live: Reading[] = [];
  for (let i = 0; i < ENTITIES; i++) live.push({ DeviceId: device(i), At: new Date(base + i * 37_000), Metric: METRICS[i % 3], Value: i });
  const old = (await import(pathToFileURL(path.join(dir, "dual", "Readings.old.keys.ts")).href)) as {
    entityRows(e: Reading): Array<{ partitionKey: string; rowKey: string }>;
  };
  for (let i = 0; i < live.length; i += 100)
    await Promise.all(live.slice(i, i + 100).map((e) => clients.old.upsertEntity(old.entityRows(e)[0], "Replace")));
  const truth = new Map<string, number | "deleted">(live.map((e) => [id(e), e.Value]));

  // The application from now on: dual writes at 50 operations a second, each logged once it has returned.
  let writing = true;
  let ops = 0;
  let next = ENTITIES;
  const writer = (async () => {
    const started = performance.now();
    while (writing) {
      const roll = random();
      if (roll < 0.4 && live.length) {
        const e = live[Math.floor(random() * live.length)];
        e.Value = 1_000_000 + ops;
        await dual.writeReadings(clients, e);
        truth.set(id(e), e.Value);
      } else if (roll < 0.7) {
        const e: Reading = {
          DeviceId: device(next),
          At: new Date(base + next++ * 37_000),
          Metric: METRICS[ops % 3],
          Value: 2_000_000 + ops,
        };
        await dual.writeReadings(clients, e);
        live.push(e);
        truth.set(id(e), e.Value);
      } else if (live.length) {
        const [e] = live.splice(Math.floor(random() * live.length), 1);
        await dual.deleteReadings(clients, e);
        truth.set(id(e), "deleted");
      }
      ops++;
      const due = started + (ops * 1000) / OPS_PER_SECOND;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
  })();

  const run = [
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
  let kills = 0;
  let exit: number | null = null;
  for (let attempt = 0; attempt < KILLS + 3 && exit !== 0; attempt++) {
    const child = spawn(process.execPath, [CLI, ...run], { cwd: dir, env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const done = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const killAt = kills < KILLS ? 500 + random() * 3500 : undefined;
    const timer = killAt === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), killAt);
    exit = await done;
    clearTimeout(timer);
    if (exit === null) kills++;
    else assert.equal(exit, 0, stderr);
  }
  assert.equal(exit, 0, "the run finished");
  assert.ok(kills >= 1, `killed ${kills} times`);
  writing = false;
  await writer;
  assert.ok(ops >= 50, `the writer made ${ops} operations during the run`);

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

  // The writer's log is the truth: every row of every new table holds the last value written, and no deleted entity is there.
  const held = new Map<string, number[]>();
  for (const c of [clients.Readings, clients.ReadingsByMetric])
    for await (const row of c.listEntities<{ DeviceId: string; At: Date; Value: number }>())
      held.set(id(row), [...(held.get(id(row)) ?? []), row.Value]);
  const wrong: string[] = [];
  for (const [key, value] of truth) {
    const rows = held.get(key) ?? [];
    if (value === "deleted" ? rows.length : rows.length !== 3 || rows.some((v) => v !== value))
      wrong.push(`${key}: ${String(value)} → ${rows.join(",")}`);
  }
  assert.deepEqual(wrong.slice(0, 10), []);
  assert.equal([...held.keys()].filter((k) => !truth.has(k)).length, 0, "no row the writer never wrote");
});
