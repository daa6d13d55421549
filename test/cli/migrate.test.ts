/**
 * `tdl migrate` and `tdl codegen --migration` through the built CLI: the
 * plan as text and JSON, a key component with no source refused by name
 * (exit 2, nothing read), the usage mistakes, the Python dual writes, and
 * — against a real Azurite — a run to the Cosmos DB for Table profile whose
 * pre-flight lists every entity the target cannot hold before anything is
 * written, then `--skip-invalid`, then `verify` naming what is missing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { azuriteForFile } from "../helpers/azurite";
import { NEW_DESIGN, NO_SOURCE_DESIGN, OLD_DESIGN } from "../helpers/migrate-designs";

const CLI = path.resolve("dist/cli.js");
const dir = mkdtempSync(path.join(tmpdir(), "tdl-migrate-"));
writeFileSync(path.join(dir, "old.tdl"), OLD_DESIGN);
writeFileSync(path.join(dir, "new.tdl"), NEW_DESIGN);
writeFileSync(path.join(dir, "nosrc.tdl"), NO_SOURCE_DESIGN);
writeFileSync(path.join(dir, "broken.tdl"), NEW_DESIGN.replace("partitionKey = DeviceId", "partitionKey = Nope"));

let connectionString = "";
function tdl(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, TDL_MIGRATE_CLI: connectionString },
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}
const usage = (stderr: string) => stderr.replace(/Run 'tdl \w+ --help' for usage\.\n$/, "");

test("plan: each new row and key, each component's source, the figures at --share, the steps", () => {
  const r = tdl(["migrate", "plan", "old.tdl", "new.tdl", "--share", "0.5"]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split("\n");
  assert.equal(lines[0], "Readings: each entity becomes 3 rows");
  assert.ok(
    lines.includes(
      '  ReadingsByMetric (rowKey): PartitionKey = Metric + "_" + date(At, "yyyyMMdd"), RowKey = DeviceId + "_" + reverse(At)',
    ),
  );
  assert.ok(
    lines.includes(
      "  DeviceId (Readings.partitionKey, ReadingsByMetric.rowKey) from the entity's property DeviceId (else the old RowKey read back)",
    ),
  );
  assert.ok(lines.includes("  100,000 entities: 300,000 writes (amplification 3), 200 query pages; 300,200 transactions"));
  assert.ok(lines.includes("  30 seconds at 50% of azure-table's account target (10,000 entities/s)"));
  assert.match(r.stdout, /\n {2}7\. Delete the old table \(Readings\) with `tdl delete`\n$/);
});

test("plan --format json, priced for a Cosmos DB for Table target in request units", () => {
  const r = tdl(["migrate", "plan", "old.tdl", "new.tdl", "--format", "json", "--to-service", "cosmos-table", "--entities", "1000"]);
  assert.equal(r.code, 0, r.stderr);
  const plan = JSON.parse(r.stdout) as { targetService: string; tables: Array<{ writes: number; requestUnits: number }> };
  assert.equal(plan.targetService, "cosmos-table");
  assert.deepEqual([plan.tables[0].writes, plan.tables[0].requestUnits], [3000, 17_000]);
});

test("a new key component with no source is refused by plan and run alike, naming it, before any account is asked (exit 2)", () => {
  const says =
    "tdl: new key component Site of Readings has no source: Readings.partitionKey renders Site, which Readings in the old design neither declares nor renders in a key that gives it back; nothing is written\n";
  for (const args of [
    ["migrate", "plan", "old.tdl", "nosrc.tdl"],
    ["migrate", "run", "old.tdl", "nosrc.tdl", "--connection-string-env", "TDL_MIGRATE_CLI", "--dir", "never"],
  ]) {
    const r = tdl(args);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, says);
    assert.equal(r.stdout, "");
  }
  assert.equal(existsSync(path.join(dir, "never", "migrate.json")), false);
});

test("usage mistakes: exit 2 with one sentence", () => {
  const cases: Array<[string[], string]> = [
    [["migrate", "move", "old.tdl", "new.tdl"], "tdl: migrate's first argument is plan, run or verify, not 'move'\n"],
    [["migrate", "plan", "old.tdl"], "tdl: migrate plan needs OLD.tdl and NEW.tdl (1 given)\n"],
    [["migrate", "plan", "old.tdl", "new.tdl", "--dir", "job"], "tdl: --dir is for migrate run and verify, not migrate plan\n"],
    [["migrate", "verify", "old.tdl", "new.tdl", "--format", "json"], "tdl: --format is for migrate plan, not migrate verify\n"],
    [["migrate", "run", "old.tdl", "new.tdl", "--repair"], "tdl: --repair is for migrate verify, not migrate run\n"],
    [
      ["migrate", "run", "old.tdl", "new.tdl", "--dir", "job"],
      "tdl: migrate run needs the old table's account: --connection-string-env VAR or --account-url URL\n",
    ],
    [
      ["migrate", "run", "old.tdl", "new.tdl", "--dir", "job", "--connection-string-env", "TDL_MIGRATE_CLI"],
      "tdl: the new Readings would be written into Readings, the old table itself: give it a name of its own with --to-table Readings=NAME\n",
    ],
    [
      ["migrate", "run", "old.tdl", "new.tdl", "--dir", "job", "--connection-string-env", "TDL_MIGRATE_CLI", "--to-table", "Other=X"],
      "tdl: --to-table Other: new.tdl has no table 'Other' that Readings fills (Readings, ReadingsByMetric)\n",
    ],
    [
      ["migrate", "plan", "old.tdl", "broken.tdl"],
      "tdl: broken.tdl:7:18: unknown property 'Nope': table 'Readings' does not declare it (it declares DeviceId, At, Metric, Value) (unknown-property): a migration needs a design without errors\n",
    ],
  ];
  for (const [args, says] of cases) {
    const r = tdl(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(usage(r.stderr), says, args.join(" "));
  }
});

test("codegen --migration --lang python: both sides' key modules and the dual writes, which compile", () => {
  const r = tdl(["codegen", "new.tdl", "--migration", "old.tdl", "--lang", "python", "--out", "py"]);
  assert.equal(r.code, 0, r.stderr);
  const files = readdirSync(path.join(dir, "py")).sort();
  assert.deepEqual(files, ["ReadingsByMetric_new_keys.py", "Readings_migration.py", "Readings_new_keys.py", "Readings_old_keys.py"]);
  const python = spawnSync("python3", ["-m", "py_compile", ...files], { cwd: path.join(dir, "py"), encoding: "utf8" });
  if (python.error) return; // No Python here: the files were still checked by name.
  assert.equal(python.status, 0, python.stderr);
});

const azurite = azuriteForFile();

/** Notes whose titles become part of a RowKey: one too long for Cosmos DB for Table's 255 bytes. */
const NOTES_OLD = `table Notes {
  Author: string(1..20) charset "a-z"
  Title:  string(1..300)
  partitionKey = Author
  rowKey       = Title
}
`;
const NOTES_NEW = `table Notes {
  Author: string(1..20) charset "a-z"
  Title:  string(1..300)
  partitionKey = "notes"
  rowKey       = Author + "|" + Title
}
`;

test("to the Cosmos DB for Table profile: every entity the target cannot hold is listed before the run and nothing is written; --skip-invalid writes the others; verify names what is missing", async () => {
  connectionString = azurite.emulator.connectionString;
  writeFileSync(path.join(dir, "notes-old.tdl"), NOTES_OLD);
  writeFileSync(path.join(dir, "notes-new.tdl"), NOTES_NEW);
  const notes = TableClient.fromConnectionString(connectionString, "Notes", { allowInsecureConnection: true });
  await notes.createTable();
  const long = "t".repeat(280);
  for (const [a, t] of [
    ["ann", "first"],
    ["bob", long],
    ["cy", "third"],
  ])
    await notes.createEntity({ partitionKey: a, rowKey: t, Author: a, Title: t });
  const run = [
    "migrate",
    "run",
    "notes-old.tdl",
    "notes-new.tdl",
    "--connection-string-env",
    "TDL_MIGRATE_CLI",
    "--to-table",
    "Notes=NotesCosmos",
  ];
  const refused = tdl([...run, "--to-service", "cosmos-table", "--dir", "cosmos"]);
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(
    refused.stderr,
    /^tdl: cosmos[/\\]export[/\\]range-\d+\.jsonl:\d+: bob \/ t{280} → Notes notes \/ bob\|t{280}: the RowKey is 284 bytes; Azure Cosmos DB for Table allows 255$/m,
  );
  assert.match(
    refused.stderr,
    /tdl: 1 of 3 entities cannot be migrated to cosmos-table: nothing was written \(--skip-invalid writes the others\)\n$/,
  );
  const names: string[] = [];
  for await (const t of TableServiceClient.fromConnectionString(connectionString, { allowInsecureConnection: true }).listTables())
    names.push(t.name!);
  assert.deepEqual(names.sort(), ["Notes"], "nothing was written, not even a table");
  const written = tdl([...run, "--to-service", "cosmos-table", "--dir", "cosmos", "--skip-invalid"]);
  assert.equal(written.code, 0, written.stderr);
  const summary = JSON.parse(written.stdout) as { entities: number; inserted: number; skipped: number; targets: Record<string, string> };
  assert.deepEqual([summary.entities, summary.inserted, summary.skipped, summary.targets], [2, 2, 1, { Notes: "NotesCosmos" }]);
  const verify = tdl([
    "migrate",
    "verify",
    "notes-old.tdl",
    "notes-new.tdl",
    "--connection-string-env",
    "TDL_MIGRATE_CLI",
    "--to-table",
    "Notes=NotesCosmos",
    "--dir",
    "cosmos",
  ]);
  assert.equal(verify.code, 1, verify.stderr);
  assert.match(verify.stdout, new RegExp(`^missing Notes notes / bob\\|t{280}: no row for bob / t{280}\n`));
  assert.match(
    verify.stdout,
    /\n3 old entities, 2 new rows: 1 difference \(1 missing, 0 extra, 0 different, 0 that cannot be re-keyed\)\n/,
  );
  assert.match(verify.stdout, /\n {2}2\. backfill \(tdl migrate run\): done \(cosmos[/\\]migrate\.json: 2 new rows planned\)\n/);
  assert.match(verify.stdout, /\n {2}4\. switch reads to the new design: blocked until the tables agree\n/);
});

test("verify --repair resolves each difference toward the newer write: missing inserted, extra deleted, the newest row written over the others", async () => {
  connectionString = azurite.emulator.connectionString;
  const client = (t: string) => TableClient.fromConnectionString(connectionString, t, { allowInsecureConnection: true });
  const old = client("Readings");
  await old.createTable();
  const row = (i: number, value: number) => {
    const at = new Date(Date.UTC(2026, 0, 2, 3, i, 5, 6));
    const pk = "2026010203";
    return {
      partitionKey: pk,
      rowKey: `00000000000${i}_${String(i).padStart(2, "0")}05006`,
      DeviceId: `00000000000${i}`,
      At: at,
      Metric: "humidity",
      Value: { value: value + 0.5, type: "Double" as const },
    };
  };
  for (let i = 1; i <= 4; i++) await old.createEntity(row(i, i));
  const sides = ["--connection-string-env", "TDL_MIGRATE_CLI", "--to-table", "Readings=ReadingsFixed"];
  assert.equal(tdl(["migrate", "run", "old.tdl", "new.tdl", ...sides, "--dir", "repair"]).code, 0);
  const fixed = client("ReadingsFixed");
  const byMetric = client("ReadingsByMetric");
  const rowsOf = async (i: number) => {
    const out: Array<{ partitionKey: string; rowKey: string; Value: number }> = [];
    for (const c of [fixed, byMetric])
      for await (const e of c.listEntities<{ DeviceId: string; Value: number }>())
        if (e.DeviceId === `00000000000${i}`) out.push(e as never);
    return out;
  };
  // 1: a new row lost; 2: a row no old entity maps to; 3: the old entity written later; 4: a new row written later.
  const [lost] = await rowsOf(1);
  await fixed.deleteEntity(lost.partitionKey, lost.rowKey);
  await fixed.createEntity({ partitionKey: "00000000000f", rowKey: "stray", DeviceId: "00000000000f", Value: 1 });
  await new Promise((r) => setTimeout(r, 20));
  await old.updateEntity(row(3, 30), "Replace");
  await new Promise((r) => setTimeout(r, 20));
  const [later] = await rowsOf(4);
  await fixed.upsertEntity({ ...later, Value: { value: 40.5, type: "Double" } } as never, "Replace");
  const before = tdl(["migrate", "verify", "old.tdl", "new.tdl", ...sides]);
  assert.equal(before.code, 1, before.stderr);
  assert.match(before.stdout, /: 6 differences \(1 missing, 1 extra, 4 different, 0 that cannot be re-keyed\)\n/);
  const repaired = tdl(["migrate", "verify", "old.tdl", "new.tdl", ...sides, "--repair"]);
  assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
  assert.match(repaired.stdout, /\nextra Readings 00000000000f \/ stray: no old entity maps to it → deleted\n/);
  assert.match(
    repaired.stdout,
    /^missing Readings 000000000001 \/ \d+_humidity: no row for 2026010203 \/ 000000000001_0105006 → inserted\n/,
  );
  const after = tdl(["migrate", "verify", "old.tdl", "new.tdl", ...sides]);
  assert.match(after.stdout, /: 0 differences \(/);
  assert.equal(after.code, 0);
  assert.deepEqual(
    (await rowsOf(3)).map((e) => e.Value),
    [30.5, 30.5, 30.5],
    "the old entity was newer: every new row took it",
  );
  assert.deepEqual(
    (await rowsOf(4)).map((e) => e.Value),
    [40.5, 40.5, 40.5],
    "a new row was newer: the others took it",
  );
  assert.equal((await old.getEntity<{ Value: number }>(row(4, 4).partitionKey, row(4, 4).rowKey)).Value, 40.5, "and so did the old entity");
  assert.equal((await rowsOf(1)).length, 3, "the lost row is back");
});
