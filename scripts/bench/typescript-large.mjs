// One large TypeScript file: edit latency beside TypeScript's check, and the
// server's memory over many edits (`node scripts/bench.mjs typescript-large`).
import * as path from "node:path";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { languageService } from "../ts-service.mjs";
import { formatCount, heapServer, ROOT, pct, require, BENCH_TSCONFIG } from "./shared.mjs";

/**
 * One large TypeScript file (issue #24: ≈ 5,000 lines, an SDK call every 100 lines): each edit in our
 * server (edit → diagnostics over JSON-RPC) beside the same edit's semantic check in TypeScript's
 * LanguageService, alternating over the first 30 edits (its check takes seconds), and our server's
 * resident memory over BENCH_LARGE_EDITS edits (1,000).
 */
const TS_LARGE_SAMPLES = 30;

async function benchLargeTypeScript() {
  const ts = require("typescript");
  const { largeModule } = await import("../ts-modules.mjs");
  const dir = mkdtempSync(path.join(ROOT, "test", "fixtures", "ts", ".tmp-bench-large-"));
  try {
    const tsconfig = BENCH_TSCONFIG;
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    const file = path.join(dir, "large.ts");
    const text = largeModule(5000);
    writeFileSync(file, text);
    const lines = text.split("\n");
    const editLine = lines.findIndex((l) => l.includes("let total = 0;"));
    const variants = ["  let total = 1;", "  let total = 0;"];
    const parsed = ts.parseJsonConfigFileContent(tsconfig, ts.sys, dir);
    const texts = new Map([[file, { text, version: 1 }]]);
    const ls = languageService(ts, dir, [file], parsed.options, texts);
    ls.getSemanticDiagnostics(file);
    const { server, atRest } = await heapServer(dir, "typescript");
    await server.init();
    await server.open(pathToFileURL(file).href, text);
    const edits = Number(process.env.BENCH_LARGE_EDITS ?? 1000);
    const memory = [[0, await atRest()]];
    const ours = [];
    const theirs = [];
    let current = lines[editLine];
    for (let i = 0; i < edits; i++) {
      const next = variants[i % 2];
      ours.push(await server.edit(pathToFileURL(file).href, i + 2, editLine, current.length, next));
      current = next;
      lines[editLine] = next;
      // TypeScript's own check of the file, on the first edits only: it costs seconds an edit.
      if (i < TS_LARGE_SAMPLES) {
        const entry = texts.get(file);
        const t0 = performance.now();
        entry.text = lines.join("\n");
        entry.version++;
        ls.getSemanticDiagnostics(file);
        theirs.push(performance.now() - t0);
      }
      if ((i + 1) % Math.max(1, Math.floor(edits / 4)) === 0) memory.push([i + 1, await atRest()]);
    }
    await server.stop();
    return {
      lines: lines.length,
      bytes: Buffer.byteLength(text),
      edits,
      oursP50: pct(ours, 50),
      oursMax: Math.max(...ours),
      tsP50: pct(theirs, 50),
      tsMax: Math.max(...theirs),
      memory,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printLargeTypeScript(r) {
  console.log(
    `\nOne TypeScript file of ${formatCount(r.lines)} lines (${Math.round(r.bytes / 1024)} KB), ${formatCount(r.edits)} edits (ms)\n`,
  );
  console.log(`${"".padEnd(44)} ${"edit p50".padStart(9)} ${"edit max".padStart(9)}`);
  console.log(
    `${"ours: tdl server over JSON-RPC, ts/* rules".padEnd(44)} ${r.oursP50.toFixed(1).padStart(9)} ${r.oursMax.toFixed(0).padStart(9)}`,
  );
  console.log(
    `${"TypeScript LanguageService, semantic check".padEnd(44)} ${r.tsP50.toFixed(1).padStart(9)} ${r.tsMax.toFixed(0).padStart(9)}`,
  );
  console.log(
    `ratio at p50 (TypeScript's check on the first ${TS_LARGE_SAMPLES} edits): ${(r.oursP50 / r.tsP50).toFixed(2)}; target ≤ 1.20`,
  );
  console.log(
    `our server at rest after N edits, live heap after its idle collection / resident (MB): ${r.memory.map(([n, m]) => `${n}: ${m.heap.toFixed(0)} / ${m.rss.toFixed(0)}`).join(", ")}; target: flat`,
  );
}

/** The section: one large file. */
export async function run() {
  printLargeTypeScript(await benchLargeTypeScript());
}
