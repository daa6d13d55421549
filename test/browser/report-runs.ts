/**
 * Fixed stress reports for the report page's browser tests: the design
 * `examples/student-cards/by-seller.tdl` and its quick fix, each measured
 * from a controlled run. The real entity generator (seeded) renders each
 * design's keys at the design's peak rate, and the real metrics and report
 * builder measure them with fixed timestamps and latencies — so what the
 * page shows (and the README's screenshot) does not depend on how fast this
 * machine happened to be (a timed run against the emulator is the
 * integration and e2e tiers' job).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { proposedAlternative } from "@runtime/stress/compare";
import { EntityGenerator } from "@runtime/stress/generator";
import { Metrics } from "@runtime/stress/metrics";
import { buildReport, declaredCost } from "@runtime/stress/report";
import { StressReport } from "@protocol/stress-report";
import { analyzeTdl } from "@core";

export const TABLE = "PurchasesBySeller";
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
  const analysis = analyzeTdl(text);
  const tm = analysis.tables.find((t) => t.table.name.text === table)!;
  const gen = new EntityGenerator(tm, seeded(7));
  const metrics = new Metrics(0);
  const count = 12_000;
  for (let i = 0; i < count; i++) {
    const { entity } = gen.next();
    metrics.success("insert", entity.partitionKey, 1, 1 + (i % 9), (i * DURATION_MS) / count);
  }
  return buildReport({
    metrics,
    durationMs: DURATION_MS,
    target: "emulator",
    table: "stress0123456789",
    design: { file: "by-seller.tdl", table },
    mode: "design",
    concurrency: 8,
    partitionTarget: 2000,
    // The design's declared load, priced as tdl cost prices it (the engine does the same when a design run starts).
    cost: declaredCost(analysis, table),
  });
}

/** The design as written and with the analyzer's quick fix: the texts the two runs stress. */
export function designTexts(): [string, string] {
  const text = readFileSync("examples/student-cards/by-seller.tdl", "utf8");
  const alt = proposedAlternative(text, TABLE)!;
  assert.match(alt.text, /partitionKey = SellerID \+ "," \+ pad\(CardID, 6\)/);
  return [text, alt.text];
}

/** The two runs a design comparison shows: as designed, and with the analyzer's quick fix. */
export function designAndFix(): Array<{ label: string; report: StressReport }> {
  const [text, fixed] = designTexts();
  return [
    { label: "as designed", report: controlledRun(text, TABLE) },
    { label: "with the fix", report: controlledRun(fixed, TABLE) },
  ];
}
