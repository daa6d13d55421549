/**
 * The bulk jobs as a user runs them, `tdl export`, `import --verify`,
 * `delete` and `copy`, against a real Azurite: an export and an import each
 * killed (SIGKILL, no chance to clean up) at five moments and run again
 * until done, and the table they write has the manifest's count and
 * checksum — nothing lost, nothing twice.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { AccountSession } from "@runtime/account/session";
import type { EntityRow } from "@protocol/entities";
import { session, startAzurite, tableName } from "../helpers/azurite";

const CLI = path.resolve("dist/cli.js");
/** Entities and partitions of the kill-and-resume table (the figure is 100,000 over 1,000: `npm run bench` runs that). */
const ENTITIES = Number(process.env.TDL_BULK_ENTITIES ?? 20_000);
const PARTITIONS = Number(process.env.TDL_BULK_PARTITIONS ?? 200);

let emu: EmbeddedEmulator;
let s: AccountSession;
const dirs: string[] = [];
before(async () => {
  emu = await startAzurite();
  s = session(emu);
});
after(async () => {
  await emu?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const folder = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "tdl-bulk-cli-"));
  dirs.push(d);
  return d;
};
const env = () => ({ ...process.env, TDL_ACCOUNT: emu.connectionString });
const account = ["--connection-string-env", "TDL_ACCOUNT"];

function tdl(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: env(), encoding: "utf8", input, timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `tdl args`, killing it with SIGKILL after `killAfterMs` when given; resolves with how it ended. */
function run(args: string[], killAfterMs?: number): Promise<{ code: number | null; killed: boolean; stdout: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: env() });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.resume();
  let killed = false;
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => ((killed = true), child.kill("SIGKILL")), killAfterMs);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, killed, stdout });
    }),
  );
}

/** A fixed-seed generator of moments (ms): the same five kills every run. */
function moments(seed: number, n: number, from: number, to: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return from + (x / 2 ** 31) * (to - from);
  });
}

/** Kills `args` at each moment, then runs it to the end; returns the last run's stdout. */
async function killAndResume(args: string[], kills: number[]): Promise<string> {
  for (const ms of kills) {
    const r = await run(args, ms);
    if (!r.killed) return r.stdout; // finished before the kill: nothing left to resume
  }
  const last = await run(args);
  assert.equal(last.code, 0, `the resumed run of tdl ${args[0]} ended with ${last.code}`);
  return last.stdout;
}

function rows(n: number, partitions: number, pk = (i: number) => `p${String(i % partitions).padStart(5, "0")}`): EntityRow[] {
  return Array.from({ length: n }, (_, i) => ({
    partitionKey: pk(i),
    rowKey: String(i).padStart(9, "0"),
    properties: {
      N: { type: "Int64", value: String(9007199254740993n + BigInt(i)) },
      At: { type: "DateTime", value: `2024-03-01T10:00:00.${String(i % 10_000_000).padStart(7, "0")}Z` },
      Text: { type: "String", value: `entity ${i}` },
    },
  }));
}

test(`export and import of ${ENTITIES.toLocaleString("en-US")} entities over ${PARTITIONS} partitions, each killed at five moments and resumed: the checksums are equal`, async () => {
  const source = tableName();
  await s.createTable(source);
  await s.upsertRows(source, rows(ENTITIES, PARTITIONS));
  const dir = folder();
  const exported = JSON.parse(await killAndResume(["export", "--table", source, "--out", dir, ...account], moments(7, 5, 300, 2500)));
  assert.equal(exported.entities, ENTITIES);
  const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8"));
  assert.equal(manifest.checksum, exported.checksum);
  const target = tableName();
  await killAndResume(["import", dir, "--table", target, ...account], moments(11, 5, 300, 2500));
  const verified = tdl(["import", dir, "--table", target, "--verify", ...account]);
  assert.equal(verified.status, 0, verified.stderr);
  assert.match(
    verified.stderr,
    new RegExp(`verified: ${ENTITIES.toLocaleString("en-US")} entities, checksum ${exported.checksum}, equal to the export's`),
  );
});

test("delete a partition: without a terminal and --yes it refuses; --dry-run counts; --yes deletes and logs every key", async () => {
  const t = tableName();
  await s.createTable(t);
  await s.upsertRows(t, [...rows(3000, 1, () => "big"), ...rows(10, 1, () => "other")]);
  const refused = tdl(["delete", "--table", t, "--partition", "big", ...account]);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /3,000 entities in 1 partition of .* would be deleted: without a terminal to ask on, pass --yes/);
  const dry = tdl(["delete", "--table", t, "--partition", "big", "--dry-run", ...account]);
  assert.equal(dry.status, 0);
  assert.match(dry.stderr, new RegExp(`would delete 3,000 entities in 1 partition of ${t}\n$`));
  assert.deepEqual(JSON.parse(dry.stdout), { table: t, entities: 3000, partitions: 1 });
  const log = path.join(folder(), "deleted.jsonl");
  const done = tdl(["delete", "--table", t, "--partition", "big", "--yes", "--log", log, ...account]);
  assert.equal(done.status, 0, done.stderr);
  assert.equal(readFileSync(log, "utf8").trim().split("\n").length, 3000);
  assert.deepEqual(
    (await s.query(t, "", { limit: 100 })).entities.map((e) => e.partitionKey),
    Array(10).fill("other"),
  );
});

/** `tdl args` at a real terminal; `answer` types a line once it sees the question. */
async function atTerminal(args: string[], answer: (printed: string) => Promise<string | undefined>) {
  const { atTerminal: run } = await import("../../scripts/terminal.mjs");
  return run([process.execPath, CLI, ...args], { env: env(), answer });
}

test("delete at a terminal: the question names the dry run's count; an entity changed before the answer is kept and named; a wrong count deletes nothing", async () => {
  const t = tableName();
  await s.createTable(t);
  await s.upsertRows(
    t,
    rows(1200, 1, () => "big"),
  );
  const question = /Delete 1,200 entities in 1 partition of \w+\? Type 1200 to confirm: /;
  const refused = await atTerminal(["delete", "--table", t, "--partition", "big", ...account], async (printed) =>
    question.test(printed) ? "1199" : undefined,
  );
  assert.equal(refused.code, 2, refused.printed);
  assert.match(refused.printed, /not confirmed: nothing was deleted/);
  assert.equal((await s.query(t, "PartitionKey eq 'big'", { limit: 2000 })).entities.length, 1200);

  const log = path.join(folder(), "deleted.jsonl");
  const confirmed = await atTerminal(["delete", "--table", t, "--partition", "big", "--log", log, ...account], async (printed) => {
    if (!question.test(printed)) return undefined;
    // Somebody changes one entity between the dry run and the answer.
    const e = await s.getEntity(t, "big", "000000700");
    await s.updateEntity(t, { ...e, properties: { ...e.properties, Text: { type: "String", value: "changed" } } }, e.etag!);
    return "1,200";
  });
  assert.equal(confirmed.code, 1, confirmed.printed);
  assert.match(confirmed.printed, /kept big \/ 000000700: changed since the dry run/);
  assert.match(confirmed.printed, /deleted 1,199 of 1,200 entities .*; 1 changed since the dry run and were kept/);
  const left = (await s.query(t, "PartitionKey eq 'big'", { limit: 2000 })).entities;
  assert.deepEqual(
    left.map((e) => [e.rowKey, e.properties.Text?.value]),
    [["000000700", "changed"]],
  );
  assert.equal(readFileSync(log, "utf8").trim().split("\n").length, 1199);
});

test("delete stopped by Ctrl+C in the middle: the summary accounts for every entity (deleted, in doubt, not attempted) and the table agrees", async () => {
  const t = tableName();
  await s.createTable(t);
  const total = 6000;
  await s.upsertRows(
    t,
    rows(total, 1, () => "big"),
  );
  const log = path.join(folder(), "deleted.jsonl");
  const child = spawn(process.execPath, [CLI, "delete", "--table", t, "--partition", "big", "--yes", "--log", log, ...account], {
    env: env(),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const ended = new Promise<number | null>((resolve) => child.once("exit", resolve));
  // Ctrl+C once the first batches are logged.
  for (let lines = 0; lines < 500 && child.exitCode === null; await new Promise((r) => setTimeout(r, 10))) {
    try {
      lines = readFileSync(log, "utf8").split("\n").length - 1;
    } catch {
      lines = 0;
    }
  }
  child.kill("SIGINT");
  const code = await ended;
  const r = JSON.parse(stdout) as { deleted: number; inDoubt: number; notAttempted: number; gone: number; changed: number };
  assert.equal(r.deleted + r.inDoubt + r.notAttempted + r.gone + r.changed, total, stdout);
  assert.equal(readFileSync(log, "utf8").trim().split("\n").length, r.deleted, "the log holds every deleted key");
  const left = (await s.query(t, "PartitionKey eq 'big'", { limit: total })).entities.length;
  assert.ok(left >= total - r.deleted - r.inDoubt && left <= total - r.deleted, `${left} left of ${total}: ${stdout}`);
  // Stopped after 5 of 60 batches: some were left, and the exit code says the job did not finish.
  assert.ok(r.notAttempted + r.inDoubt > 0, stdout);
  assert.equal(code, 1);
  if (r.notAttempted) assert.match(stderr, /not attempted: stopped/);
  if (r.inDoubt) assert.match(stderr, /in doubt: stopped while their batch was on its way/);
});

test("copy to a Cosmos DB for Table profile names the entity whose RowKey is over 255 bytes and writes nothing", async () => {
  const t = tableName();
  await s.createTable(t);
  await s.upsertRows(t, [...rows(5, 1), { partitionKey: "p00000", rowKey: "k".repeat(300), properties: {} }]);
  const target = tableName();
  const r = tdl(["copy", "--table", t, ...account, "--to-table", target, "--to-service", "cosmos-table", "--dir", folder()]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /range-\d{4}\.jsonl:\d+: p00000 \/ k{300}: the RowKey is 300 bytes; Azure Cosmos DB for Table allows 255/);
  assert.match(r.stderr, /1 of 6 entities would fail on cosmos-table: nothing was written/);
  assert.ok(!(await s.listTables()).includes(target));
});
