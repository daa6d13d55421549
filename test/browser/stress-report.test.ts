/**
 * The stress report page with two designs side by side. The reports come
 * from a controlled run: the real entity generator (seeded) renders each
 * design's keys at the design's peak rate, and the real metrics and report
 * builder measure them with fixed timestamps and latencies — so what the
 * page must show does not depend on how fast this machine happened to be
 * (a timed run against the emulator is the integration and e2e tiers' job).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { proposedAlternative } from "../../client/src/runtime/stress/compare";
import { EntityGenerator } from "../../client/src/runtime/stress/generator";
import { Metrics } from "../../client/src/runtime/stress/metrics";
import { buildReport, StressReport } from "../../client/src/runtime/stress/report";
import { reportView } from "../../client/src/panel/views";
import { analyzeTdl } from "../../server/src/core";
import { Harness, openHarness } from "../helpers/webview-harness";

const TABLE = "PurchasesBySeller";
const DURATION_MS = 1200;

/** A small seeded generator (mulberry32), so the generated keys are the same on every run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The design's 10K inserts a second for 1.2 s, evenly spaced, with latencies from 1 to 9 ms. */
function controlledRun(text: string, table: string): StressReport {
  const tm = analyzeTdl(text).tables.find((t) => t.table.name.text === table)!;
  const gen = new EntityGenerator(tm, seeded(7));
  const metrics = new Metrics(0);
  const count = 12_000;
  for (let i = 0; i < count; i++) {
    const { entity } = gen.next();
    metrics.success("insert", entity.partitionKey, 1, 1 + (i % 9), (i * DURATION_MS) / count);
  }
  return buildReport({ metrics, durationMs: DURATION_MS, target: "emulator", table: "stress0123456789", design: { file: "by-seller.tdl", table },
    mode: "design", concurrency: 8, partitionTarget: 2000 });
}

let harness: Harness<"report">;
let heatmapOpened = 0;
let onHeatmap: () => void = () => undefined;
const runs: Array<{ label: string; report: StressReport }> = [];

before(async () => {
  const text = readFileSync("examples/student-cards/by-seller.tdl", "utf8");
  const alt = proposedAlternative(text, TABLE)!;
  assert.match(alt.text, /partitionKey = SellerID \+ "," \+ pad\(CardID, 6\)/);
  runs.push({ label: "as designed", report: controlledRun(text, TABLE) }, { label: "with the fix", report: controlledRun(alt.text, TABLE) });
  harness = await openHarness(reportView(runs, async () => { heatmapOpened++; onHeatmap(); }));
});
after(async () => harness?.close());

test("two designs side by side: verdicts, figures and three charts each", async () => {
  const { page } = harness;
  await page.locator(".run").nth(1).waitFor();
  assert.deepEqual(await page.locator(".run h1").allInnerTexts(), ["as designed", "with the fix"]);
  assert.equal(await page.locator(".run canvas").count(), 6);
  // The hot seller takes a quarter of 10,000 entities/s: above the target as designed, far below it with the fix.
  const [hot, fixed] = runs.map((r) => r.report);
  assert.ok(hot.verdict.hottestPartitionEntitiesPerSecond > 2000 && fixed.verdict.hottestPartitionEntitiesPerSecond < 100,
    `${hot.verdict.hottestPartitionEntitiesPerSecond} and ${fixed.verdict.hottestPartitionEntitiesPerSecond}`);
  assert.deepEqual(await page.locator(".run .verdict").evaluateAll((els) => els.map((e) => e.className)), ["verdict hot", "verdict ok"]);
  const verdicts = await page.locator(".run .verdict").allInnerTexts();
  runs.forEach((r, i) => {
    const figure = r.report.verdict.hottestPartitionEntitiesPerSecond.toLocaleString("en-US");
    assert.ok(verdicts[i].startsWith(`Hottest partition: ${figure} entities/s (target 2,000). On the emulator`), verdicts[i]);
  });
  assert.match(verdicts[0], /above the 2,000 entities\/s target: on Azure it would run hot/);
  assert.match(verdicts[1], /stays under the 2,000 entities\/s target/);
  // The figures: 12,000 inserts in 1.2 s, latencies 1–9 ms; the metadata line of each run.
  const ops = await page.locator(".run .ops").allInnerTexts();
  for (const table of ops) assert.match(table, /insert\s+10,000\s+5\s+9\s+9\s+9\s+\{\}\s+0/);
  assert.deepEqual(await page.locator(".run .meta").allInnerTexts(), Array(2).fill("design · emulator · 1.2 s · concurrency 8 · table stress0123456789"));
  // The composite key spreads the writes: at most 40 partitions as designed, thousands with the fix.
  const headings = await page.locator(".run h2", { hasText: "Hottest partitions" }).allInnerTexts();
  assert.deepEqual(headings, runs.map((r) => `Hottest partitions (of ${r.report.partitions.length})`));
  assert.ok(hot.partitions.length <= 40 && fixed.partitions.length > 1000, `${hot.partitions.length} and ${fixed.partitions.length}`);
  // The charts drew something: a canvas with non-blank pixels.
  const drawn = await page.evaluate(() => [...document.querySelectorAll("canvas")].map((c) => {
    const d = (c as HTMLCanvasElement).getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  }));
  assert.ok(drawn.every((n) => n > 500), JSON.stringify(drawn));
});

test("the heatmap button asks the host, which answers; a request of another page is refused", async () => {
  const { page } = harness;
  const asked = new Promise<void>((resolve) => { onHeatmap = resolve; });
  await page.locator("button.open-heatmap").click();
  await asked;
  await harness.host.settled();
  assert.equal(heatmapOpened, 1);
  assert.ok(harness.sent.some((m) => m.type === "response" && m.ok), "the button's request was answered");
  // The report page has no entities.delete: the host answers with an error instead of leaving the request unanswered.
  const answer = await harness.sendRaw({ type: "request", id: 9001, method: "entities.delete", params: { table: "Orders", entities: [] } }, 9001);
  assert.deepEqual(answer, { type: "response", id: 9001, ok: false, error: "refused: unknown request 'entities.delete' for the report page" });
  assert.equal(heatmapOpened, 1);
});
