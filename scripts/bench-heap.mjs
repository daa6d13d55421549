// Preloaded into the language server by `npm run bench` (node --import): after each collection the
// server runs when the editor is idle (server/lsp/idle-gc.ts), appends the live heap in bytes to the
// file BENCH_HEAP_LOG names — what the server really holds, where the resident size also counts
// memory V8 keeps reserved.
import { appendFileSync } from "node:fs";

const collect = globalThis.gc;
const log = process.env.BENCH_HEAP_LOG;
if (collect && log) {
  globalThis.gc = () => {
    collect();
    appendFileSync(log, `${process.memoryUsage().heapUsed}\n`);
  };
}
