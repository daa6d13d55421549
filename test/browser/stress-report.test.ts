/**
 * The stress report page with two designs side by side, from the fixed
 * runs of report-runs.ts (controlled, so the figures do not depend on how
 * fast this machine happened to be).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Metrics } from "@runtime/stress/metrics";
import { buildReport } from "@runtime/stress/report";
import { StressReport } from "@protocol/stress-report";
import { analyzeTdl, designCost, SNAPSHOT } from "@core";
import report from "@client/pages/report";
import { servePage } from "../helpers/page-services";
import { Harness, openHarness } from "../helpers/webview-harness";
import { designAndFix, designTexts } from "./report-runs";
import { dollars, formatCount } from "@core/text/words";

let harness: Harness<"report">;
let heatmapOpened = 0;
let onHeatmap: () => void = () => undefined;
const runs: Array<{ label: string; report: StressReport }> = [];

before(async () => {
  runs.push(...designAndFix());
  harness = await openHarness(
    servePage(
      report,
      {
        execute: async (name) => {
          assert.equal(name, "showHeatmap");
          heatmapOpened++;
          onHeatmap();
        },
      },
      { title: "Stress test", runs },
    ).spec,
  );
});
after(async () => harness?.close());

test("two designs side by side: verdicts, figures and three charts each", async () => {
  const { page } = harness;
  await page.locator(".run").nth(1).waitFor();
  assert.deepEqual(await page.locator(".run h1").allInnerTexts(), ["as designed", "with the fix"]);
  assert.equal(await page.locator(".run canvas").count(), 6);
  // The hot seller takes a quarter of 10,000 entities/s: above the target as designed, far below it with the fix.
  const [hot, fixed] = runs.map((r) => r.report);
  assert.ok(
    hot.verdict.hottestPartitionEntitiesPerSecond > 2000 && fixed.verdict.hottestPartitionEntitiesPerSecond < 100,
    `${hot.verdict.hottestPartitionEntitiesPerSecond} and ${fixed.verdict.hottestPartitionEntitiesPerSecond}`,
  );
  assert.deepEqual(await page.locator(".run .verdict").evaluateAll((els) => els.map((e) => e.className)), ["verdict hot", "verdict ok"]);
  // Paragraphs and list items a line each (innerText puts a blank line between paragraphs).
  const verdicts = (await page.locator(".run .verdict").allInnerTexts()).map((t) => t.replace(/\n+/g, "\n"));
  runs.forEach((r, i) => {
    const figure = formatCount(r.report.verdict.hottestPartitionEntitiesPerSecond);
    // A sentence of verdict, a sentence of cause; the rest under them, a sentence an item.
    assert.ok(
      verdicts[i].startsWith(
        `${r.report.verdict.verdictSentence}\n${r.report.verdict.cause}\nHottest partition: ${figure} entities/s (target 2,000 entities/s).\nOn the emulator`,
      ),
      verdicts[i],
    );
  });
  assert.match(
    verdicts[0],
    /^HOT: partition '[^']+' would run hot on Azure\.\nIt served [\d,.]+ entities\/s, above the target of 2,000\.\n/,
  );
  assert.match(
    verdicts[1],
    /^OK: no partition would run hot\.\nThe hottest partition served [\d,.]+ entit(y|ies)\/s, under the target of 2,000\.\n/,
  );
  assert.match(verdicts[0], /Hot: partition '[^']+' took more than the 2,000 entities\/s partition target: on Azure it would run hot/);
  assert.match(verdicts[1], /No partition reached the 2,000 entities\/s partition target\./);
  // The figures: 12,000 inserts in 1.2 s, latencies 1–9 ms, no errors in words (not "{}"); the metadata line of each run.
  const ops = await page.locator(".run table.ops").allInnerTexts();
  for (const table of ops) assert.match(table, /insert\s+12,000\s+12,000\s+10,000\s+5\s+9\s+9\s+9\s+none\s+0/);
  assert.ok(
    ops.every((t) => !t.includes("{")),
    ops.join("\n"),
  );
  assert.deepEqual(await page.locator(".run .errors-line").allInnerTexts(), ["No errors.", "No errors."]);
  // Each design's declared 10,000 inserts/s priced as tdl cost prices it (the hot one's throttled retries included), whatever the
  // run was throttled to; then what each run billed: 12,000 requests at $0.00036 per 10,000 = $0.000432.
  const months = designTexts().map(
    (text) =>
      designCost(analyzeTdl(text), { prices: SNAPSHOT, table: "PurchasesBySeller", services: ["azure-table"] })[0].estimates[0].monthlyUsd!,
  );
  assert.deepEqual(
    await page.locator(".run .run-cost").allInnerTexts(),
    months.map(
      (month) =>
        `The design's declared load (table PurchasesBySeller) costs ≈ ${dollars(month)} a month on Table Storage, as tdl cost prices it (prices of ${SNAPSHOT.region} on ${SNAPSHOT.date}). This run billed 12,000 requests ≈ $0.00043 (each call, query page and batch is one; retries and refused requests too) — prices of ${SNAPSHOT.region} on ${SNAPSHOT.date}.`,
    ),
  );
  assert.deepEqual(
    await page.locator(".run .meta").allInnerTexts(),
    Array(2).fill("design · emulator · 1.2 s · concurrency 8 · table stress0123456789"),
  );
  // The composite key spreads the writes: at most 40 partitions as designed, thousands with the fix; the chart shows the 20 hottest.
  const headings = await page.locator(".run h2", { hasText: "Hottest partitions" }).allInnerTexts();
  assert.deepEqual(
    headings,
    runs.map((r) => `Hottest partitions (20 of ${formatCount(r.report.partitionCount)})`),
  );
  assert.ok(hot.partitionCount <= 40 && fixed.partitionCount > 1000, `${hot.partitionCount} and ${fixed.partitionCount}`);
  // Far below the target, the fix's partitions get a logarithmic axis that still reaches the target line; the hot design's a linear one.
  const axes = await page.locator(".run canvas.partitions").evaluateAll((els) => els.map((e) => ({ ...(e as HTMLElement).dataset })));
  assert.deepEqual(axes[0], { scale: "linear", min: "0", max: "5000" });
  assert.equal(axes[1].scale, "logarithmic");
  assert.ok(Number(axes[1].max) >= 2000 && Number(axes[1].min) <= fixed.partitions[19].entitiesPerSecond, JSON.stringify(axes[1]));
  const captions = await page.locator(".run .partitions-note").allInnerTexts();
  assert.match(
    captions[0],
    /^The hottest partition took 2,705 entities\/s, 135 % of the 2,000 entities\/s partition target \(dashed line\)\.$/,
  );
  assert.match(captions[1], /% of the 2,000 entities\/s partition target \(dashed line\); the axis is logarithmic/);
  // The last 0.2 s is too short to be a point of its own: it joins the second before it, at the same rate (no drop at the end).
  assert.deepEqual(
    hot.timeline.map((t) => [t.tMs, t.entitiesPerSecond]),
    [[1200, 10000]],
  );
  // The charts drew something: a canvas with non-blank pixels.
  const drawn = await page.evaluate(() =>
    [...document.querySelectorAll("canvas")].map((c) => {
      const d = (c as HTMLCanvasElement).getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
      return n;
    }),
  );
  assert.ok(
    drawn.every((n) => n > 500),
    JSON.stringify(drawn),
  );
});

test("one partition, one entity a second, a throttled call: singular nouns and errors in words", async () => {
  const metrics = new Metrics(0);
  metrics.success("insert", "only", 1, 3, 100);
  metrics.failure("insert", 503, "ServerBusy", 500);
  const one = buildReport({
    metrics,
    durationMs: 1000,
    target: "emulator",
    table: "stress0123456789",
    design: { file: "one.tdl", table: "One" },
    mode: "spread",
    concurrency: 1,
    partitionTarget: 2000,
  });
  const single = await openHarness(
    servePage(report, { execute: async () => undefined }, { title: "Stress test", runs: [{ label: "one", report: one }] }).spec,
  );
  try {
    const { page } = single;
    await page.locator(".run").waitFor();
    const verdict = (await page.locator(".run .verdict").innerText()).replace(/\n+/g, "\n");
    assert.ok(
      verdict.startsWith(
        "OK: no partition would run hot.\nThe hottest partition served 1 entity/s, under the target of 2,000.\nHottest partition: 1 entity/s (target 2,000 entities/s).",
      ),
      verdict,
    );
    assert.match(verdict, /\(1 partition touched\)/);
    assert.doesNotMatch(verdict, /1 partitions|1 entities/);
    assert.equal(await page.locator(".run h2", { hasText: "Hottest partitions" }).innerText(), "Hottest partitions (1 partition)");
    assert.match(await page.locator(".run table.ops").innerText(), /insert\s+2\s+1\s+1\s+3\s+3\s+3\s+3\s+1 ServerBusy\s+0/);
    assert.equal(await page.locator(".run .errors-line").innerText(), "Errors: 1 ServerBusy.");
    // The refused call is billed too; a run that is not the design's own patterns has no month figure.
    assert.equal(
      await page.locator(".run .run-cost").innerText(),
      `This run billed 2 requests ≈ under $0.0001 (each call, query page and batch is one; retries and refused requests too) — prices of ${SNAPSHOT.region} on ${SNAPSHOT.date}.`,
    );
  } finally {
    await single.close();
  }
});

test("at 400 px the two runs stack and the page does not scroll sideways", async () => {
  const { page } = harness;
  await page.setViewportSize({ width: 400, height: 800 });
  try {
    const boxes = await page
      .locator(".run")
      .evaluateAll((els) =>
        els
          .map((e) => e.getBoundingClientRect())
          .map((b) => ({ left: Math.round(b.left), top: Math.round(b.top), width: Math.round(b.width) })),
      );
    assert.equal(boxes[0].left, boxes[1].left, JSON.stringify(boxes));
    assert.ok(boxes[1].top > boxes[0].top && boxes.every((b) => b.width <= 400), JSON.stringify(boxes));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the window`);
  } finally {
    await page.setViewportSize({ width: 1400, height: 900 });
  }
});

test("the heatmap button asks the host, which answers; a request of another page is refused", async () => {
  const { page } = harness;
  const asked = new Promise<void>((resolve) => {
    onHeatmap = resolve;
  });
  await page.locator("button.open-heatmap").click();
  await asked;
  await harness.host.settled();
  assert.equal(heatmapOpened, 1);
  assert.ok(
    harness.sent.some((m) => m.type === "response" && m.ok),
    "the button's request was answered",
  );
  // The report page has no entities.delete: the host answers with an error instead of leaving the request unanswered.
  const answer = await harness.sendRaw(
    { type: "request", id: 9001, method: "entities.delete", params: { table: "Orders", entities: [] } },
    9001,
  );
  assert.deepEqual(answer, {
    type: "response",
    id: 9001,
    ok: false,
    kind: "usage",
    error: "refused: unknown request 'entities.delete' for the report page",
  });
  assert.equal(heatmapOpened, 1);
});
