// `tdl mcp`'s answer time per tool (`node scripts/bench.mjs mcp`), as an agent sees it: `node dist/cli.js
// mcp` over stdio, driven by the MCP SDK's client, each design or filter tool
// called on the examples (after warm-up calls: the first check_code loads the
// TypeScript compiler, reported on its own). p50, p95 and max per tool;
// target p95 ≤ 200 ms (issue 36).
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT } from "./shared.mjs";

const CALLS = 100;
const WARMUP = 5;
const TARGET_P95_MS = 200;
const DESIGNS = ["examples/ledger.tdl", "examples/marathon.tdl", "examples/telemetry.tdl", "examples/student-cards/by-order-number.tdl"];

/** Each tool's calls, taken in turn. */
const CASES = {
  check_design: DESIGNS.map((p) => ({ path: p })),
  check_code: [{ paths: ["examples/typescript/registrations.ts"] }],
  classify_query: [
    { filter: "PartitionKey eq 'Boston__Full' and RowKey ge 'BIB:00100' and RowKey lt 'BIB:00200'", path: "examples/marathon.tdl" },
    { filter: "RowKey eq 'b'" },
    { filter: "PartitionKey ge 'a' and PartitionKey lt 'b' and Amount gt 10" },
  ],
  preview_fix: [{ path: "examples/telemetry.tdl" }, { path: "examples/ledger.tdl", code: "transaction/cross-partition" }],
  estimate_cost: DESIGNS.map((p) => ({ path: p })),
  explain_rule: [{ code: "partition/hot" }, { code: "ts/table-scan" }],
};

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** Each design or filter tool's first call, p50, p95 and max over stdio; exit code 1 when a p95 is over the target. */
export async function run() {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, "dist/cli.js"), "mcp", "--workspace", ROOT],
    stderr: "inherit",
  });
  const client = new Client({ name: "tdl-bench", version: "1.0.0" });
  await client.connect(transport);
  console.log(`\ntdl mcp: answer time per tool over stdio, ${CALLS} calls each on the examples after ${WARMUP} warm-up calls (ms)\n`);
  console.log(`${"tool".padEnd(16)} ${"first".padStart(8)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"max".padStart(8)}`);
  let over = 0;
  for (const [name, cases] of Object.entries(CASES)) {
    const once = async (i) => {
      const started = performance.now();
      const r = await client.callTool({ name, arguments: cases[i % cases.length] });
      if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
      return performance.now() - started;
    };
    const first = await once(0);
    for (let i = 1; i < WARMUP; i++) await once(i);
    const times = [];
    for (let i = 0; i < CALLS; i++) times.push(await once(i));
    times.sort((a, b) => a - b);
    const p95 = quantile(times, 0.95);
    if (p95 > TARGET_P95_MS) over++;
    console.log(
      `${name.padEnd(16)} ${first.toFixed(1).padStart(8)} ${quantile(times, 0.5).toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${times[times.length - 1].toFixed(1).padStart(8)}`,
    );
  }
  await client.close();
  console.log(`\ntarget p95 ≤ ${TARGET_P95_MS} ms per tool: ${over ? `${over} over` : "met"}`);
  if (over) process.exitCode = 1;
}
