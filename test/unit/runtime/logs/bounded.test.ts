/**
 * The heatmap's memory does not grow with the log: what it retains —
 * partitions, cells, remembered batches, queried ranges — stays under its
 * bounds however many records come, and what it folds or widens away is
 * still counted (totals conserved, the undercount said).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { HeatmapBuilder, MAX_CELLS, MAX_COLUMNS, MAX_PARTITIONS, MAX_RANGES, OTHERS, UNATTRIBUTED } from "@runtime/logs/heatmap";
import { BatchLinker, OPEN_BATCHES } from "@runtime/logs/batches";
import type { LogRecord } from "@runtime/logs/record";

const T0 = Date.UTC(2026, 10, 24, 0, 0, 0);
const write = (pk: string, time: number): LogRecord => ({
  time,
  table: "Orders",
  partitionKey: pk,
  operation: "InsertEntity",
  op: "write",
  throttled: false,
  failed: false,
});

function totalEntities(b: HeatmapBuilder): number {
  let n = 0;
  for (const p of b.partitions.values()) n += p.entities.read + p.entities.written + p.entities.throttled;
  return n;
}

test("200,000 distinct partitions over a day: partitions and cells stay bounded, every entity still counted", () => {
  const b = new HeatmapBuilder();
  const N = 200_000;
  let most = { partitions: 0, cells: 0 };
  for (let i = 0; i < N; i++) {
    // Partition i % 50 is written far more often: the hot ones must survive the folding.
    const pk = i % 10 === 0 ? `hot-${i % 50}` : `cold-${i}`;
    b.add(write(pk, T0 + Math.floor((i / N) * 86_400_000)));
    most = { partitions: Math.max(most.partitions, b.partitions.size), cells: Math.max(most.cells, b.cellsHeld) };
  }
  assert.ok(most.partitions <= MAX_PARTITIONS + 1, `${most.partitions} partitions held at most`);
  assert.ok(most.cells <= MAX_CELLS, `${most.cells} cells held at most`);
  assert.equal(totalEntities(b), N);
  assert.ok(b.folded.partitions > 0 && b.partitions.has(`Orders/${OTHERS}`));
  for (let h = 0; h < 5; h++) assert.equal(b.partitions.get(`Orders/hot-${h * 10}`)?.entities.written, N / 50, `hot-${h * 10}`);
  // The span of a day does not fit 3,600 seconds: the cells widened.
  assert.notEqual(b.bucketName, "second");
  const columns = b.seconds().length;
  assert.ok(columns <= MAX_COLUMNS, `${columns} columns`);
  assert.equal(
    b.seconds().reduce((s, c) => s + Object.values(c.partitions).reduce((x, p) => x + p.writes, 0), 0),
    N,
  );
});

test("a year of one partition: at most MAX_COLUMNS buckets, widened to days", () => {
  const b = new HeatmapBuilder();
  for (let d = 0; d < 365 * 24; d++) b.add(write("p", T0 + d * 3_600_000));
  assert.equal(b.bucketName, "day");
  assert.equal(b.seconds().length, 365);
  assert.equal(totalEntities(b), 365 * 24);
});

test("remembered batches and queried ranges are bounded", () => {
  const linker = new BatchLinker();
  for (let i = 0; i < OPEN_BATCHES * 3; i++) linker.batch({ ...write("p", T0), op: "batch", correlationId: `b${i}` });
  assert.equal(linker.size, OPEN_BATCHES);
  // The oldest were forgotten: their operations are requests of their own; the newest still join theirs.
  assert.equal(linker.operationOf({ ...write("p", T0), correlationId: "b0", operationIndex: 1 }), undefined);
  assert.equal(linker.operationOf({ ...write("p", T0), correlationId: `b${OPEN_BATCHES * 3 - 1}`, operationIndex: 1 })?.before, 0);
  const b = new HeatmapBuilder();
  for (let i = 0; i < MAX_RANGES * 2; i++)
    b.add({
      time: T0,
      table: "Orders",
      operation: "QueryEntities",
      op: "query",
      throttled: false,
      failed: false,
      range: { from: `k${i}` },
    });
  const row = b.partitions.get(`Orders/${UNATTRIBUTED}`)!;
  assert.equal(row.ranges.size, MAX_RANGES);
  assert.equal(row.operations, MAX_RANGES * 2);
});

test("100,000 partitions each called five times: every row is exact, or says by how much at most it may be short", () => {
  const b = new HeatmapBuilder();
  const N = 100_000;
  // Round after round: each key comes back after folds have taken rows of it into #others.
  for (let round = 0; round < 5; round++) for (let i = 0; i < N; i++) b.add(write(`p${i}`, T0 + round * 1000));
  assert.equal(totalEntities(b), 5 * N, "every entity counted, in its row or in #others");
  let rows = 0;
  for (const p of b.partitions.values()) {
    if (p.partitionKey === OTHERS) continue;
    rows++;
    const n = p.entities.written;
    // Each key was written exactly five times: its row holds n, and the rest is within its bound.
    assert.ok(n <= 5 && n + p.shortBy >= 5, `${p.partitionKey}: ${n} written, short by up to ${p.shortBy}`);
    if (p.shortBy === 0) assert.equal(n, 5, `${p.partitionKey} says it is exact`);
  }
  assert.ok(rows > 0);
});
