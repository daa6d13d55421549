/**
 * `tdl infer`'s acceptance against the embedded emulator: tables generated
 * from every example design (and the extra designs) with the stress
 * generator are read back through a session and inferred; the key
 * expressions equal the originals for at least 9 of 10 and the load
 * findings are the same. Then the sampler itself: a table larger than the
 * sample is read spread over its key space within the request budget,
 * large properties are left out of later reads, progress is reported and
 * cancelling keeps what was read.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { InferError, inferFromTable } from "@runtime/infer/from-table";
import { sampleTable } from "@runtime/infer/sample";
import { sessionReader } from "@runtime/infer/sample-reader";
import { session, startAzurite } from "../helpers/azurite";
import { generatedEntities, populate } from "../helpers/generated-tables";
import { keyExpressions, loadFindings, roundTripDesigns, withOriginalLoad } from "../helpers/infer-round-trip";

let emu: EmbeddedEmulator;
before(async () => {
  emu = await startAzurite();
});
after(async () => emu?.stop());

test("tables generated from 15 designs infer back: ≥ 9 of 10 key expressions equal, same load findings", async () => {
  const s = session(emu);
  const designs = roundTripDesigns();
  const misses: string[] = [];
  for (const d of designs) {
    const table = d.model.table.name.text;
    await s.createTable(table);
    await populate(s.clients.table(table), generatedEntities(d.model, 250));
    const r = await inferFromTable(s, table);
    assert.equal(r.sample.wholeTable, true, table);
    assert.equal(r.check.parsed, true, `${table}\n${r.text}`);
    const got = keyExpressions(r.text, analyzeTdl(r.text).tables[0]);
    const want = keyExpressions(d.text, d.model);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      misses.push(`${table}: ${got.join(" | ")} instead of ${want.join(" | ")}`);
      continue;
    }
    assert.deepEqual(loadFindings(withOriginalLoad(r.text, d), table), loadFindings(d.text, table), `${table}: load findings`);
    // Main rows: 250 entities, whatever index rows the design adds.
    assert.match(r.text, /\n {2}rows 250 /, table);
  }
  assert.ok(misses.length <= designs.length / 10, `key expressions differ:\n${misses.join("\n")}`);
});

/** `n` entities in `partitions` partitions (P0000…), `big` bytes of text in each. */
async function bigTable(name: string, n: number, partitions: number, big = 0): Promise<void> {
  const s = session(emu);
  await s.createTable(name);
  const groups = Array.from({ length: n }, (_, i) => [
    {
      partitionKey: `P${String(i % partitions).padStart(4, "0")}`,
      rowKey: `R${String(i).padStart(6, "0")}`,
      Seq: i,
      ...(big ? { Blob: "b".repeat(big) } : {}),
    },
  ]);
  await populate(s.clients.table(name), groups, 32);
}

test("a sample smaller than the table spreads over the key space within its request budget and counts the rest", async () => {
  await bigTable("Spread", 3000, 300);
  const progress: number[] = [];
  const sample = await sampleTable(sessionReader(session(emu), "Spread"), {
    sample: 400,
    maxRequests: 8,
    onProgress: (p) => progress.push(p.entities),
  });
  assert.ok(sample.entities.length <= 400 && sample.entities.length >= 200, `${sample.entities.length} entities`);
  assert.equal(sample.wholeTable, false);
  // The sampling requests stay within the budget; probes that find nothing and the counting pass (PartitionKey only) are bounded apart.
  assert.ok(sample.requests - sample.countRequests - sample.emptyProbes <= 8, `${sample.requests} requests`);
  assert.ok(
    sample.emptyProbes <= 64 && sample.countRequests <= 40,
    `${sample.emptyProbes} empty probes, ${sample.countRequests} counting requests`,
  );
  const partitions = [...new Set(sample.entities.map((e) => e.partitionKey))].sort();
  // Not the first pages (in order those end at P0039): the last third of the key space is read too.
  assert.ok(
    partitions.some((p) => p >= "P0200"),
    `partitions read: ${partitions[0]}…${partitions[partitions.length - 1]}`,
  );
  assert.ok(partitions.some((p) => p < "P0030"));
  assert.equal(sample.tableRows, 3000);
  assert.equal(sample.countComplete, true);
  assert.equal(sample.partitionCounts.size, 300);
  assert.deepEqual(
    progress,
    [...progress].sort((a, b) => a - b),
  );
  assert.equal(progress[progress.length - 1], sample.entities.length);
});

test("properties that are large on average are left out of later reads and still count in the entity size", async () => {
  await bigTable("Wide", 600, 60, 3000);
  const r = await inferFromTable(session(emu), "Wide", { sample: 300, maxRequests: 6 });
  assert.deepEqual(
    r.sample.leftOut.map((p) => p.name),
    ["Blob"],
  );
  assert.match(r.text, /Left out of later reads to keep them small \(\$select\): Blob/);
  const size = Number(/entitySize (\d+)B/.exec(r.text)?.[1]);
  assert.ok(size > 6000, `entitySize ${size}B`);
});

test("cancelling keeps the entities read so far and says so in the design", async () => {
  await bigTable("Cancelled", 1500, 150);
  const controller = new AbortController();
  const r = await inferFromTable(session(emu), "Cancelled", {
    sample: 1500,
    maxRequests: 30,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.requests === 2) controller.abort();
    },
  });
  assert.equal(r.sample.cancelled, true);
  assert.ok(r.check.total > 0 && r.check.total < 1500, `${r.check.total} entities`);
  assert.match(r.text, /reading was cancelled/);
});

test("an empty table and a missing table are errors a user can act on", async () => {
  const s = session(emu);
  await s.createTable("Empty");
  await assert.rejects(
    inferFromTable(s, "Empty"),
    (e: unknown) => e instanceof InferError && /holds no entities/.test((e as Error).message),
  );
  await assert.rejects(inferFromTable(s, "NoSuchTable"), /NoSuchTable|not found|does not exist/i);
});
