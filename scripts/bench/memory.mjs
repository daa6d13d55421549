// The server's memory over many edits of one large design (`node scripts/bench.mjs memory`): a 5,000-line .tdl
// edited 1,000 times over JSON-RPC, the resident size and the live heap at rest every 250 edits (issue #31: flat).
import * as path from "node:path";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { formatCount, heapServer, pct, ROOT } from "./shared.mjs";

/** About `lines` lines of design: the marathon example's tables again and again, each renamed. */
export function largeDesign(lines = 5000) {
  const table = readFileSync(path.join(ROOT, "examples", "marathon.tdl"), "utf8").replace(/^service.*\n/m, "");
  const parts = ["service azure-table\n"];
  let n = 0;
  let count = 1;
  while (count < lines) {
    const copy = table.replace(/table (\w+)/g, (_, name) => `table ${name}${n++}`);
    parts.push(copy);
    count += copy.split("\n").length - 1;
  }
  return parts.join("");
}

async function benchDesignMemory() {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-memory-"));
  try {
    const text = largeDesign(5000);
    const file = path.join(dir, "large.tdl");
    writeFileSync(file, text);
    const uri = pathToFileURL(file).href;
    const { server, atRest } = await heapServer(dir, "tdl");
    await server.init();
    await server.open(uri, text);
    const lines = text.split("\n");
    // A line whose edit keeps the design valid: a property's comment.
    const line = lines.findIndex((l) => /^\s+\w+: /.test(l));
    const variants = [`${lines[line]} // a`, lines[line]];
    const edits = Number(process.env.BENCH_MEMORY_EDITS ?? 1000);
    const memory = [[0, await atRest()]];
    const times = [];
    let current = lines[line];
    for (let i = 0; i < edits; i++) {
      const next = variants[i % 2];
      times.push(await server.edit(uri, i + 2, line, current.length, next));
      current = next;
      if ((i + 1) % Math.max(1, Math.floor(edits / 4)) === 0) memory.push([i + 1, await atRest()]);
    }
    await server.stop();
    return { lines: lines.length, edits, p50: pct(times, 50), memory };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The section. */
export async function run() {
  const r = await benchDesignMemory();
  console.log(
    `\nOne design of ${formatCount(r.lines)} lines, ${formatCount(r.edits)} edits over JSON-RPC (edit p50 ${r.p50.toFixed(0)} ms)`,
  );
  console.log(
    `server at rest after N edits, live heap / resident (MB): ${r.memory.map(([n, m]) => `${n}: ${m.heap.toFixed(0)} / ${m.rss.toFixed(0)}`).join(", ")}; target: flat`,
  );
  const [first, last] = [r.memory[0][1], r.memory[r.memory.length - 1][1]];
  console.log(`resident growth ${(last.rss - first.rss).toFixed(0)} MB (${((100 * (last.rss - first.rss)) / first.rss).toFixed(0)} %)`);
}
