/**
 * A heatmap of a stress run's logs against its design: the run's table
 * (a random `stress…` name) is read as the design table it stressed, even
 * when the calibration probe's 65 partitions are most of its keys; the
 * probe's and the marker's partitions are labelled, listed last and left
 * out of the map and the shares; the scale is printed exactly; and only the
 * kinds of load the run sent are predicted.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compareWithDesign, readLogHeatmap } from "@runtime";

const TABLE = "stressaaf2b45a37";
const T0 = Date.UTC(2026, 10, 24, 13, 0, 0);

/** StorageTableLogs JSON lines: inserts at `pk`, one a line, a second apart per round. */
function line(pk: string, t: number, operation = "InsertEntity"): string {
  return JSON.stringify({
    time: new Date(t).toISOString(),
    operationName: operation,
    statusCode: 204,
    statusText: "Success",
    uri: `http://127.0.0.1:10002/devstoreaccount1/${TABLE}(PartitionKey='${encodeURIComponent(pk)}',RowKey='r${t}')`,
    category: "StorageWrite",
  });
}

async function heatmapOf() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-stress-logs-"));
  const lines: string[] = [];
  // The calibration probe: 65 partitions, ten inserts each.
  for (let i = 0; i < 650; i++) lines.push(line(`~probe-${String(i % 65).padStart(2, "0")}`, T0 + i));
  lines.push(line("~tdl-stress-marker", T0 + 700));
  // The run: the Ledger's transfers land on account numbers (20 digits).
  for (let i = 0; i < 40; i++) lines.push(line(String(10_000_000_000_000_000_000n + BigInt(i % 8)), T0 + 2000 + i * 50));
  writeFileSync(path.join(dir, "logs.json"), lines.join("\n") + "\n");
  return readLogHeatmap(dir);
}

test("the probe and the marker are labelled, listed last and left out of the map; the stress table is read as the design's", async () => {
  const h = await heatmapOf();
  const probes = h.partitions.filter((p) => p.probe);
  assert.equal(probes.length, 66);
  assert.deepEqual(
    h.partitions.slice(-66).map((p) => p.probe),
    probes.map(() => true),
    "listed after the design's partitions",
  );
  for (const s of h.seconds) for (const id of Object.keys(s.partitions)) assert.ok(!id.includes("~"), `${id} is not on the map`);
  assert.equal(
    h.timeline.reduce((n, t) => n + t.entities, 0),
    40,
  );
  const design = compareWithDesign(h, readFileSync("examples/ledger.tdl", "utf8"), "ledger.tdl", { scale: 0.0063 });
  assert.deepEqual(design.unmatchedTables, []);
  const t = design.tables.find((x) => x.logTable === TABLE)!;
  assert.equal(t.designTable, "LedgerByAccount");
  // Shares are of the run's load only: 8 partitions with 5 entities each.
  assert.equal(t.observed.entities, 40);
  assert.equal(t.observed.hottest[0].share, 0.125);
  // The scale exactly as given, and no query predicted: the run sent no reads.
  assert.match(t.said.predicted, /\(the design's rates × 0\.0063\)/);
  assert.match(t.said.predicted, /Statement is left out: the logs show no request of its kind on stressaaf2b45a37\./);
  assert.deepEqual(
    t.predicted.patterns.map((p) => p.kind),
    t.predicted.patterns.map(() => "transaction"),
  );
});
