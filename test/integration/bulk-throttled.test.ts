/**
 * The bulk jobs on the product's own emulator with fidelity on at
 * `--scale 0.1` (the account runs hot at 2,000 entities/s, a partition at
 * 200), run unpaced so the service's throttling is what holds them back:
 * export, import with --verify and delete each finish with the exact data,
 * having heard the service refuse and slowed down — every request of the
 * job (the plan's probes, pages, batches, deletes, the verification's
 * pages) goes through the one throttle-aware path.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TableClient } from "@azure/data-tables";
import { FidelityEmulator } from "@runtime/emulator/fidelity-emulator";
import { AccountSession } from "@runtime/account/session";
import { exportTable } from "@runtime/bulk/export";
import { importTable } from "@runtime/bulk/import";
import { verifyTable } from "@runtime/bulk/verify";
import { planDelete, runDelete } from "@runtime/bulk/delete";
import { Checksum } from "@runtime/bulk/checksum";
import { jobPaths } from "@runtime/bulk/pace";
import { SERVICES } from "@core";
import type { RetryNotice } from "@runtime/net/throttled";
import type { EntityRow } from "@protocol/entities";

const PARTITIONS = 30;
const ROWS = 100;

let emu: FidelityEmulator;
let s: AccountSession;
const dirs: string[] = [];
const rows: EntityRow[] = [];
before(async () => {
  emu = await FidelityEmulator.start({ scale: 0.1 });
  s = new AccountSession(
    { id: "emulator", name: "Emulator", kind: "emulator", endpoint: emu.endpoint },
    { connectionString: emu.connectionString },
    { sdkRetries: 0 },
  );
  // Inserted through the layer, so it knows what a scan of the table reads (and prices pages by it).
  const client = TableClient.fromConnectionString(emu.connectionString, "Source", { allowInsecureConnection: true });
  await client.createTable();
  // The two ends first: the rest lands between them, not on the range partition at the end of the key order (200/s here).
  const order = [0, PARTITIONS - 1, ...Array.from({ length: PARTITIONS - 2 }, (_, i) => i + 1)];
  for (const p of order) {
    const partitionKey = `p${String(p).padStart(3, "0")}`;
    const batch = Array.from({ length: ROWS }, (_, r) => ({
      partitionKey,
      rowKey: `r${String(r).padStart(3, "0")}`,
      n: r,
      s: "x".repeat(40),
    }));
    for (const b of batch)
      rows.push({
        partitionKey,
        rowKey: b.rowKey,
        properties: { n: { type: "Int32", value: String(b.n) }, s: { type: "String", value: b.s } },
      });
    for (let attempt = 0; ; attempt++) {
      try {
        await client.submitTransaction(batch.map((e) => ["create", e]));
        break;
      } catch (e) {
        if ((e as { statusCode?: number }).statusCode !== 503 || attempt > 20) throw e;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }
});
after(async () => {
  await emu?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const folder = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "tdl-bulk-throttled-"));
  dirs.push(d);
  return d;
};

const expected = () => {
  const sum = new Checksum();
  for (const r of rows) sum.add(r);
  return { count: sum.count, checksum: sum.hex };
};

test("export, import --verify and delete, unpaced at --scale 0.1: each is throttled, slows down and ends with the exact data", async () => {
  const dir = folder();
  const t0 = performance.now();
  const heard: RetryNotice[] = [];
  const exported = await exportTable({ session: s, table: "Source", dir, rate: Infinity, concurrency: 8, onRetry: (n) => heard.push(n) });
  assert.equal(exported.cancelled, false);
  assert.deepEqual({ count: exported.manifest.count, checksum: exported.manifest.checksum }, expected());
  assert.ok(heard.length > 0, "the export was throttled (the test would not exercise the path otherwise)");
  assert.ok(
    heard.every((n) => n.status === 503 && n.delayMs >= 400),
    "each retry waited the guide's back-off after a 503",
  );
  assert.ok(
    heard.some((n) => Number.isFinite(n.pace.rate)),
    "the unpaced job paced itself after the service refused",
  );

  const t1 = performance.now();
  const importHeard: RetryNotice[] = [];
  const imported = await importTable({
    session: s,
    table: "Target",
    dir,
    rate: Infinity,
    concurrency: 8,
    onRetry: (n) => importHeard.push(n),
  });
  assert.equal(imported.written, PARTITIONS * ROWS);
  assert.deepEqual(imported.skipped, []);
  const v = await verifyTable({ session: s, table: "Target", dir });
  assert.deepEqual(v.differ, []);
  assert.deepEqual({ count: v.count, checksum: v.checksum }, expected());

  const { path: net } = jobPaths(SERVICES["azure-table"], { rate: Infinity });
  const plan = await planDelete(s, { table: "Target", filter: "PartitionKey ge 'p'" }, undefined, undefined, net);
  assert.equal(plan.entities.length, PARTITIONS * ROWS);
  const report = await runDelete(s, plan, path.join(dir, "deleted.jsonl"), undefined, undefined, net);
  assert.equal(report.deleted, PARTITIONS * ROWS);
  assert.equal(report.gone, 0);
  const left = await planDelete(s, { table: "Target", filter: "PartitionKey ge 'p'" });
  assert.equal(left.entities.length, 0);
  console.log(`export ${Math.round(t1 - t0)} ms, import+verify+delete ${Math.round(performance.now() - t1)} ms`);
});
