// The fidelity layer's added latency: the same reads straight to Azurite and
// through `tdl emulator` (`node scripts/bench.mjs fidelity`).
import * as path from "node:path";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { ROOT, require } from "./shared.mjs";

/** p50 of GET point reads sent at a fixed rate (open loop), over keep-alive connections. */
async function fixedRateLatency(endpoint, sas, table, rate, seconds) {
  const http = require("node:http");
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(`${endpoint}/${table}(PartitionKey='p',RowKey='r')?${sas}`);
  const samples = [];
  const one = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = http.get(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          agent,
          headers: { accept: "application/json;odata=nometadata", "x-ms-version": "2019-02-02" },
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            samples.push(performance.now() - t0);
            resolve();
          });
        },
      );
      req.on("error", () => resolve());
    });
  const pending = [];
  const started = performance.now();
  let sent = 0;
  // Paced: every millisecond, the requests due by then (2 at 2,000/s), not bursts.
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - started;
      if (elapsed >= seconds * 1000) {
        clearInterval(timer);
        resolve();
        return;
      }
      const due = Math.floor((elapsed / 1000) * rate);
      while (sent < due) {
        pending.push(one());
        sent++;
      }
    }, 1);
  });
  await Promise.all(pending);
  agent.destroy();
  samples.sort((a, b) => a - b);
  return {
    p50: samples[Math.floor(samples.length / 2)],
    p90: samples[Math.floor(samples.length * 0.9)],
    n: samples.length,
    rate: samples.length / seconds,
  };
}

/** The fidelity layer's added latency: the same reads straight to Azurite and through `tdl emulator`. */
function printFidelity(fidelity) {
  console.log(`\nFidelity layer: GET point reads at a fixed 2,000 requests/s, straight to Azurite and through the layer (ms)\n`);
  console.log(
    `${"round".padEnd(6)} ${"direct p50".padStart(11)} ${"layer p50".padStart(10)} ${"added p50".padStart(10)}   (p90 direct / layer, requests/s achieved)`,
  );
  fidelity.forEach((r, i) =>
    console.log(
      `${(i ? String(i) : "warm").padEnd(6)} ${r.direct.p50.toFixed(3).padStart(11)} ${r.proxied.p50.toFixed(3).padStart(10)} ${(r.proxied.p50 - r.direct.p50).toFixed(3).padStart(10)}   (${r.direct.p90.toFixed(2)} / ${r.proxied.p90.toFixed(2)}, ${r.direct.rate.toFixed(0)} / ${r.proxied.rate.toFixed(0)})`,
    ),
  );
  const measured = fidelity.slice(1);
  const added = measured.reduce((s, r) => s + r.proxied.p50 - r.direct.p50, 0) / measured.length;
  console.log(`mean added p50 of the measured rounds: ${added.toFixed(3)} ms; target < 0.3 ms`);
}

async function benchFidelity() {
  const child = spawn(process.execPath, [path.join(ROOT, "dist/cli.js"), "emulator", "--port", "0"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const info = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]));
    });
    child.once("exit", (c) => reject(new Error(`tdl emulator exited ${c}`)));
  });
  try {
    const { TableClient, AzureNamedKeyCredential, generateTableSas } = require("@azure/data-tables");
    const table = "latency";
    const client = TableClient.fromConnectionString(info.connectionString, table, { allowInsecureConnection: true });
    await client.createTable();
    await client.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
    const sas = generateTableSas(
      table,
      new AzureNamedKeyCredential(
        "devstoreaccount1",
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
      ),
      { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600_000) },
    );
    const rows = [];
    // Round 0 warms up both paths (JIT, connection pools); rounds 1 and 2 are measured.
    for (let round = 0; round < 3; round++) {
      const direct = await fixedRateLatency(info.upstreamEndpoint, sas, table, 2000, 3);
      const proxied = await fixedRateLatency(info.tableEndpoint, sas, table, 2000, 3);
      rows.push({ direct, proxied });
    }
    return rows;
  } finally {
    child.kill("SIGINT");
  }
}

/** The section. */
export async function run() {
  printFidelity(await benchFidelity());
}
