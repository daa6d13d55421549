/**
 * How many calls per second one Locust worker sends, measured for sizing:
 * the exported workload runs for a few seconds in one Locust process
 * against a stand-in of the Table service on loopback that answers every
 * call at once (so the figure is the worker's, not a service's), as a
 * closed load; the worker's records give the rate. An engine on Azure Load
 * Testing is sized as one such worker.
 */
import { createServer, type Server } from "node:http";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Metrics } from "../stress/metrics";
import type { ExportedFile } from "./export";
import { LocustProcesses, findLocust } from "./processes";
import { absorbRecords, recordFiles, RECORDS_DIR } from "./records";
import { sleep } from "../net/deadline";
import { UnavailableError } from "@core/errors";
import { OP_TYPES } from "@protocol/stress-report";

/** Answers like the Table service, at once: writes 204, a point read an empty entity, a query no entity, a batch its parts. */
function standIn(): Promise<{ server: Server; endpoint: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const url = req.url ?? "";
      if (url.includes("$batch")) {
        const body = "--batchresponse_x\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n--batchresponse_x--\r\n";
        res.writeHead(202, { "Content-Type": "multipart/mixed; boundary=batchresponse_x" }).end(body);
      } else if (req.method === "GET") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(url.includes("()") ? '{"value":[]}' : "{}");
      } else res.writeHead(204).end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const addr = server.address();
      resolve({ server, endpoint: `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/devstoreaccount1` });
    });
  });
}

/** Calls per second one worker with `users` users sustained over `ms` (after its start). */
export async function calibrateWorker(
  files: readonly ExportedFile[],
  o: { users: number; ms?: number; locust?: string; signal?: AbortSignal },
): Promise<number> {
  const locust = o.locust ?? findLocust();
  const ms = o.ms ?? 3000;
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-locust-size-"));
  const { server, endpoint } = await standIn();
  const procs = new LocustProcesses();
  try {
    for (const f of files) {
      mkdirSync(path.dirname(path.join(dir, f.name)), { recursive: true });
      writeFileSync(path.join(dir, f.name), f.text);
    }
    mkdirSync(path.join(dir, RECORDS_DIR));
    const env = {
      TDL_ENDPOINT: endpoint,
      TDL_TABLE: "sizing",
      // The stand-in checks no signature: this token only satisfies the worker's need for a credential.
      TDL_SAS: "sv=2019-02-02&sig=stand-in",
      TDL_WORKERS: "1",
      TDL_RATE: "0",
      TDL_DURATION: String(ms / 1000),
      TDL_PRELOAD: "0",
      TDL_RECORDS: path.join(dir, RECORDS_DIR),
    };
    procs.spawn(
      "worker",
      locust,
      [
        "-f",
        "locustfile.py",
        "--headless",
        "--users",
        String(o.users),
        "--spawn-rate",
        String(o.users),
        "--run-time",
        `${Math.ceil(ms / 1000) + 20}s`,
        "--only-summary",
        "--stop-timeout",
        "2",
      ],
      dir,
      env,
    );
    // The load starts once the worker has started (its records say when) and is measured for `ms` after that.
    const started = Date.now() + 60_000;
    while (!recordFiles(dir).some((f) => readFileSync(f, "utf8").includes('"start":')) && !o.signal?.aborted) {
      procs.check();
      if (Date.now() > started) throw new UnavailableError(`the Locust worker did not start within 60 s${procs.lastWords()}`);
      await sleep(100, o.signal);
    }
    await procs.until(Date.now() + ms + 500, o.signal);
    await procs.stop();
    const metrics = new Metrics(0);
    const read = await absorbRecords(dir, metrics);
    const calls = OP_TYPES.reduce((n, op) => n + metrics.ops[op].requests, 0);
    return calls / Math.max(0.5, read.durationMs / 1000);
  } finally {
    await procs.stop();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
