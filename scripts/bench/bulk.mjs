// Bulk jobs (`tdl import`, `tdl export`, `tdl delete`) against a hand-written SDK
// loop on the same emulator (`node scripts/bench.mjs bulk`).
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { atTerminal } from "../terminal.mjs";
import { ROOT, require, startAzurite } from "./shared.mjs";

/**
 * Bulk jobs against what the emulator sustains for the same requests (issue #22): the same entities
 * written by a hand-written SDK loop of 100-entity batches, 8 in flight, and read back by 8
 * PartitionKey ranges listed at once, beside `tdl import` and `tdl export` (unpaced, `--rate max`, as
 * the loop is); then one partition of BENCH_DELETE_ENTITIES (250,000)
 * entities deleted by one `tdl delete` command, answered at a real terminal (util-linux `script`)
 * after one entity was changed behind the dry run's back: it must be kept, and named.
 */
async function benchBulk() {
  const { TableClient } = require("@azure/data-tables");
  const az = await startAzurite();
  const entities = Number(process.env.BENCH_BULK_ENTITIES ?? 100_000);
  const partitions = 1000;
  // One partition of this many, deleted twice: by an SDK loop and by `tdl delete`. (Azurite before 3.37 looked each
  // entity up by scanning its partition: 20,000 in one partition took 44 s to write here; 3.37 writes 250,000 in 55 s.)
  const deleteCount = Number(process.env.BENCH_DELETE_ENTITIES ?? 250_000);
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-bench-bulk-"));
  const env = { ...process.env, BENCH_TABLES: az.connectionString };
  const tdl = (...args) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [path.join(ROOT, "dist/cli.js"), ...args, "--connection-string-env", "BENCH_TABLES"], {
      env,
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`tdl ${args[0]} failed (${r.status}): ${r.stderr.slice(-500)}`);
    return (performance.now() - t0) / 1000;
  };
  const entity = (i, pk = `p${String(i % partitions).padStart(4, "0")}`) => ({
    partitionKey: pk,
    rowKey: String(i).padStart(8, "0"),
    n: i,
    note: "x".repeat(200),
  });
  /** The entities in batches of one partition and at most 100, 8 batches in flight. */
  const writeBatches = async (client, rows) => {
    const byPartition = new Map();
    for (const e of rows) (byPartition.get(e.partitionKey) ?? byPartition.set(e.partitionKey, []).get(e.partitionKey)).push(e);
    const batches = [];
    for (const list of byPartition.values()) for (let i = 0; i < list.length; i += 100) batches.push(list.slice(i, i + 100));
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < batches.length) await client.submitTransaction(batches[next++].map((e) => ["upsert", e]));
      }),
    );
  };
  try {
    const rows = Array.from({ length: entities }, (_, i) => entity(i));
    const source = TableClient.fromConnectionString(az.connectionString, "BulkSource", { allowInsecureConnection: true });
    await source.createTable();
    await writeBatches(source, rows);
    // Reads are short (2–3 s) and Azurite's pace varies from run to run: each side's best of three.
    const readOnce = async () => {
      const start = performance.now();
      let read = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, r) => {
          const lo = `p${String((r * partitions) / 8).padStart(4, "0")}`;
          const hi = `p${String(((r + 1) * partitions) / 8).padStart(4, "0")}`;
          for await (const _e of source.listEntities({ queryOptions: { filter: `PartitionKey ge '${lo}' and PartitionKey lt '${hi}'` } }))
            read++;
        }),
      );
      if (read !== entities) throw new Error(`the SDK read ${read} of ${entities}`);
      return (performance.now() - start) / 1000;
    };
    const out = path.join(dir, "export");
    const exportOnce = () => {
      rmSync(out, { recursive: true, force: true });
      // The emulator has no targets to keep a share of: the jobs run unpaced (--rate max), as the SDK loop does.
      return tdl("export", "--table", "BulkSource", "--out", out, "--concurrency", "8", "--rate", "max");
    };
    const sdkReads = [];
    const tdlExports = [];
    for (let i = 0; i < 3; i++) {
      sdkReads.push(await readOnce());
      tdlExports.push(exportOnce());
    }
    const sdkRead = Math.min(...sdkReads);
    const tdlExport = Math.min(...tdlExports);
    // Writes: each side into a fresh table, dropped after (Azurite slows as it holds more), each side's best of two.
    const sdkWrites = [];
    const tdlImports = [];
    for (let i = 0; i < 2; i++) {
      const sdkTarget = TableClient.fromConnectionString(az.connectionString, `WriteBySdk${i}`, { allowInsecureConnection: true });
      await sdkTarget.createTable();
      const start = performance.now();
      await writeBatches(sdkTarget, rows);
      sdkWrites.push((performance.now() - start) / 1000);
      await sdkTarget.deleteTable();
      tdlImports.push(tdl("import", out, "--table", `WriteByTdl${i}`, "--concurrency", "8", "--rate", "max"));
      await TableClient.fromConnectionString(az.connectionString, `WriteByTdl${i}`, { allowInsecureConnection: true }).deleteTable();
    }
    const sdkWrite = Math.min(...sdkWrites);
    const tdlImport = Math.min(...tdlImports);
    // One partition of 250,000 entities, then one command deletes it.
    /** A table holding one partition of `deleteCount` entities. */
    const onePartition = async (name) => {
      const t = TableClient.fromConnectionString(az.connectionString, name, { allowInsecureConnection: true });
      await t.createTable();
      await writeBatches(
        t,
        Array.from({ length: deleteCount }, (_, i) => entity(i, "one")),
      );
      return t;
    };
    // The SDK loop: the keys read once, then batches of 100 deletes, one after another, as the command sends them.
    const sdkTable = await onePartition("DeleteBySdk");
    let t0 = performance.now();
    const keys = [];
    for await (const e of sdkTable.listEntities({ queryOptions: { filter: "PartitionKey eq 'one'", select: ["PartitionKey", "RowKey"] } }))
      keys.push(e);
    for (let i = 0; i < keys.length; i += 100)
      await sdkTable.submitTransaction(keys.slice(i, i + 100).map((e) => ["delete", { partitionKey: e.partitionKey, rowKey: e.rowKey }]));
    const sdkDelete = (performance.now() - t0) / 1000;
    const big = await onePartition("DeleteByTdl");
    // The command as a user runs it at a terminal: the dry run's count, then — after somebody changed the last entity —
    // the count typed back. The changed entity must be kept and named.
    const lastKey = String(deleteCount - 1).padStart(8, "0");
    t0 = performance.now();
    const answered = await atTerminal(
      // prettier-ignore
      [process.execPath, path.join(ROOT, "dist/cli.js"), "delete", "--table", "DeleteByTdl", "--partition", "one", "--log", path.join(dir, "deleted.jsonl"), "--connection-string-env", "BENCH_TABLES"],
      {
        env,
        answer: async (printed) => {
          if (!printed.includes(" to confirm: ")) return undefined;
          const e = await big.getEntity("one", lastKey);
          await big.updateEntity({ ...e, note: "changed after the dry run" }, "Replace", { etag: e.etag });
          return String(deleteCount);
        },
      },
    );
    const tdlDelete = (performance.now() - t0) / 1000;
    const keptNamed = answered.printed.includes(`kept one / ${lastKey}: changed since the dry run`);
    let left = 0;
    let keptChanged = false;
    for await (const e of big.listEntities({ queryOptions: { filter: "PartitionKey eq 'one'" } })) {
      left++;
      keptChanged ||= e.rowKey === lastKey && e.note === "changed after the dry run";
    }
    // Anything else is a failure of the command, not a figure.
    if (answered.code !== 1 || !keptNamed || !keptChanged || left !== 1)
      throw new Error(`tdl delete: exit ${answered.code}, ${left} left, kept entity named: ${keptNamed}\n${answered.printed.slice(-800)}`);
    return { entities, partitions, sdkWrite, sdkRead, tdlExport, tdlImport, deleteCount, sdkDelete, tdlDelete };
  } finally {
    az.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printBulk(r) {
  const rate = (n, s) => `${Math.round(n / s).toLocaleString("en-US")}/s`;
  console.log(
    `\nBulk jobs on a fresh Azurite: ${r.entities.toLocaleString("en-US")} entities of ≈ 250 bytes over ${r.partitions} partitions (entities per second; each tdl time includes starting the CLI)\n`,
  );
  console.log(`${"".padEnd(44)} ${"SDK loop".padStart(10)} ${"tdl".padStart(10)} ${"tdl/SDK".padStart(8)}`);
  console.log(
    `${"write: 100-entity batches, 8 in flight".padEnd(44)} ${rate(r.entities, r.sdkWrite).padStart(10)} ${rate(r.entities, r.tdlImport).padStart(10)} ${(r.sdkWrite / r.tdlImport).toFixed(2).padStart(8)}   best of 2`,
  );
  console.log(
    `${"read: 8 PartitionKey ranges at once".padEnd(44)} ${rate(r.entities, r.sdkRead).padStart(10)} ${rate(r.entities, r.tdlExport).padStart(10)} ${(r.sdkRead / r.tdlExport).toFixed(2).padStart(8)}   best of 3`,
  );
  console.log(
    `${`delete one partition of ${r.deleteCount.toLocaleString("en-US")}`.padEnd(44)} ${rate(r.deleteCount, r.sdkDelete).padStart(10)} ${rate(r.deleteCount, r.tdlDelete).padStart(10)} ${(r.sdkDelete / r.tdlDelete).toFixed(2).padStart(8)}   1 left: the entity changed after the dry run, kept and named`,
  );
  console.log(
    `target: tdl ≥ 0.80 of the SDK loop (export and import unpaced: --rate max; the delete, answered at a terminal, checks each entity's ETag from its dry run and includes the dry run)`,
  );
}

/** The section. */
export async function run() {
  printBulk(await benchBulk());
}
