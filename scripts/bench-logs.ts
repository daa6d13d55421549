/**
 * The log heatmap's section of `npm run bench` (`node scripts/bench.mjs
 * logs` alone): StorageTableLogs files of 250,000 and 1,000,000 lines as a
 * diagnostic setting writes them (JSON lines: point reads, inserts by
 * object key, query pages with a $filter, batches with their operation
 * rows, throttled answers, a malformed line now and then), over an hour of
 * 5,000 partitions, read by `tdl heatmap --logs`'s own code. Each is read
 * in a fresh process so its peak memory is its own. The targets: one
 * million lines in under 30 s, and memory that does not grow with the
 * file (the peak for 1,000,000 lines near the peak for 250,000).
 */
import { spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { readLogHeatmap } from "@runtime/logs/read-logs";
import { formatCount } from "@core/text/words";

const PARTITIONS = 5000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 24, 13, 0, 0);

/** Writes `lines` log lines to `file`; one in 10,000 is malformed. */
async function generate(file: string, lines: number): Promise<void> {
  const out = createWriteStream(file);
  const host = "https://acct.table.core.windows.net";
  let written = 0;
  let batch = 0;
  const write = async (line: string) => {
    if (!out.write(line + "\n")) await once(out, "drain");
    written++;
  };
  while (written < lines) {
    const i = written;
    const time = new Date(T0 + Math.floor((i / lines) * HOUR)).toISOString();
    // A skewed key: a tenth of the traffic goes to ten partitions.
    const pk = i % 10 === 0 ? `shop-${i % 10}` : `shop-${(i * 7919) % PARTITIONS}`;
    const base = {
      TimeGenerated: time,
      AccountName: "acct",
      StatusCode: i % 97 === 0 ? 503 : 200,
      StatusText: i % 97 === 0 ? "ThrottlingError" : "Success",
    };
    const kind = i % 20;
    if (i % 10_000 === 5) await write(`{"TimeGenerated": "${time}", "OperationName": "QueryEnt`);
    else if (kind < 10)
      await write(JSON.stringify({ ...base, OperationName: "QueryEntity", Uri: `${host}/Orders(PartitionKey='${pk}',RowKey='r${i}')` }));
    else if (kind < 15)
      await write(JSON.stringify({ ...base, OperationName: "InsertEntity", Uri: `${host}/Orders`, ObjectKey: `/acct/Orders/${pk}/r${i}` }));
    else if (kind < 18)
      await write(
        JSON.stringify({
          ...base,
          OperationName: "QueryEntities",
          Uri: `${host}/Orders()?$filter=PartitionKey%20eq%20'${pk}'%20and%20RowKey%20ge%20'r'`,
        }),
      );
    else {
      const id = `batch-${batch++}`;
      await write(
        JSON.stringify({
          ...base,
          OperationName: "EntityGroupTransaction",
          Uri: `${host}/$batch`,
          ObjectKey: `/acct/Orders/${pk}`,
          CorrelationId: id,
          OperationCount: 0,
        }),
      );
      for (let k = 1; k <= 4 && written < lines; k++)
        await write(
          JSON.stringify({
            ...base,
            OperationName: "InsertEntity",
            Uri: `${host}/Orders`,
            ObjectKey: `/acct/Orders/${pk}/b${i}-${k}`,
            CorrelationId: id,
            OperationCount: k,
          }),
        );
    }
  }
  out.end();
  await once(out, "finish");
}

/** Reads `file` in this process: seconds, lines, partitions, and the peak resident and heap memory sampled every 50 ms. */
async function measure(file: string): Promise<void> {
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 50);
  const t0 = performance.now();
  const h = await readLogHeatmap(file);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  sample();
  // What the heatmap keeps once read (the garbage of reading collected): the figure that must not grow with the file.
  (globalThis as { gc?: () => void }).gc?.();
  const retained = process.memoryUsage().heapUsed;
  console.log(JSON.stringify({ seconds, lines: h.lines, skipped: h.skipped, partitions: h.partitionCount, rss, heap, retained }));
}

async function main(): Promise<void> {
  if (process.argv[2] === "--read") return measure(process.argv[3]);
  if (process.argv[2] === "--write") return generate(process.argv[3], Number(process.argv[4]));
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-bench-logs-"));
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  try {
    console.log(
      `${"lines".padStart(10)} ${"file".padStart(8)} ${"seconds".padStart(8)} ${"lines/s".padStart(10)} ${"skipped".padStart(8)} ${"partitions".padStart(10)} ${"peak RSS".padStart(9)} ${"peak heap".padStart(10)} ${"retained".padStart(9)}`,
    );
    const retained: number[] = [];
    const peaks: number[] = [];
    let slowest = 0;
    for (const lines of [250_000, 1_000_000]) {
      const file = path.join(dir, `StorageTableLogs-${lines}.json`);
      await generate(file, lines);
      const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", __filename, "--read", file], {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      });
      if (r.status !== 0) throw new Error(r.stderr);
      const m = JSON.parse(r.stdout.trim().split("\n").pop()!) as {
        seconds: number;
        lines: number;
        skipped: number;
        partitions: number;
        rss: number;
        heap: number;
        retained: number;
      };
      peaks.push(m.rss);
      retained.push(m.retained);
      if (lines === 1_000_000) slowest = m.seconds;
      console.log(
        `${formatCount(m.lines).padStart(10)} ${mb(statSync(file).size).padStart(8)} ${m.seconds.toFixed(1).padStart(8)} ${formatCount(Math.round(m.lines / m.seconds)).padStart(10)} ${String(m.skipped).padStart(8)} ${String(m.partitions).padStart(10)} ${mb(m.rss).padStart(9)} ${mb(m.heap).padStart(10)} ${mb(m.retained).padStart(9)}`,
      );
      rmSync(file);
    }
    console.log(
      `1,000,000 lines in ${slowest.toFixed(1)} s (target < 30 s); kept after reading: ${mb(retained[1])} for 4× the lines of ${mb(retained[0])}, peak RSS ${mb(peaks[1])} against ${mb(peaks[0])} (target: about the same — memory does not grow with the file)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
