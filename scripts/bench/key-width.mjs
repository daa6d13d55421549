// Key width (`node scripts/bench.mjs key-width`): key builders of wide template literals, three helpers deep, from 4 to
// 256 parts a template (issue #33, 8): the analysis time and steps of each width and the steps' growth per doubling.
import * as path from "node:path";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { ROOT, require } from "./shared.mjs";

const WIDTHS = [4, 8, 16, 32, 64, 128, 256];
const LEVELS = 3;

/** The section. */
export async function run() {
  const { wideKeyModule } = await import("../ts-modules.mjs");
  const { TsAnalyzer } = require(path.join(ROOT, "dist/ts-analyzer.js"));
  // Inside the repository, so that the code resolves @azure/data-tables.
  const dir = mkdtempSync(path.join(ROOT, "test", "fixtures", "ts", ".tmp-bench-width-"));
  try {
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
    const analyzer = new TsAnalyzer();
    console.log(`\nKey builders of wide templates, ${LEVELS} helpers deep (the analysis of the file, program built; best of 3)\n`);
    console.log(`${"parts a template".padEnd(18)} ${"ms".padStart(8)} ${"steps".padStart(9)} ${"steps ×".padStart(10)}  budget`);
    let last;
    for (const width of WIDTHS) {
      const file = path.join(dir, `wide-${width}.ts`);
      writeFileSync(file, wideKeyModule(width, LEVELS));
      analyzer.update(file, undefined);
      analyzer.analyze(file);
      let best;
      for (let i = 0; i < 3; i++) {
        const r = analyzer.analyze(file);
        if (!best || r.stats.ms < best.stats.ms) best = r;
      }
      const cut = best.findings.some((f) => f.code === "ts/budget");
      const growth = last ? (best.stats.steps / last).toFixed(2) : "";
      console.log(
        `${String(width).padEnd(18)} ${best.stats.ms.toFixed(1).padStart(8)} ${String(best.stats.steps).padStart(9)} ${growth.padStart(10)}  ${cut ? "cut short" : "held"}`,
      );
      last = best.stats.steps;
    }
    console.log("target: steps ≤ 2× per doubling of the width (linear), every width within the 2 s budget, no stack overflow");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
