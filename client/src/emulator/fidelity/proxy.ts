/**
 * The fidelity layer: a loopback reverse proxy in front of Azurite that
 * rejects what Azure rejects and throttles what Azure throttles, before
 * anything is written; everything else — signed requests included — passes
 * through unchanged.
 */
import { Agent, createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { keyConstraint, normalize } from "../../../../server/src/odata/classify";
import { parseFilter } from "../../../../server/src/odata/parser";
import { parseBatch, parseTablePath, TableRequest } from "./requests";
import { rejection } from "./rejections";
import { Throttle, ThrottleSettings } from "./throttle";
import { TrafficRecorder } from "./recorder";

export interface ProxyOptions {
  upstreamPort: number;
  account: string;
  /** Off: a plain pass-through (still recorded). */
  fidelity: boolean;
  throttle: ThrottleSettings;
  recorder: TrafficRecorder;
}

interface Charge {
  table: string;
  partitionKey?: string;
  cost: number;
  what: "reads" | "writes";
  /** Entities added to (or removed from) the partition when the request succeeds. */
  delta: number;
}

export class FidelityProxy {
  private readonly server: Server;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly throttle: Throttle;

  constructor(private readonly o: ProxyOptions) {
    this.throttle = new Throttle(o.throttle);
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
  }

  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => resolve((this.server.address() as { port: number }).port));
    });
  }

  close(): Promise<void> {
    this.agent.destroy();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? "GET";
    // Requests without a body go straight on: the fast path for reads.
    if (method === "GET" || method === "DELETE" || method === "HEAD") {
      this.process(req, res, undefined);
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => this.process(req, res, Buffer.concat(chunks)));
  }

  private process(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): void {
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const text = body?.length ? body.toString("utf8") : undefined;
    const parsed = parseTablePath(method, url, this.o.account, text);
    if (parsed.kind === "batch" && text) parsed.operations = parseBatch(String(req.headers["content-type"] ?? ""), text, this.o.account);
    const charge = this.charge(parsed);
    if (this.o.fidelity) {
      const r = rejection(parsed);
      if (r) return this.error(res, r.status, r.code, r.message);
      if (charge && !this.throttle.admit(charge.table, charge.partitionKey, charge.cost)) {
        this.o.recorder.add(charge.table, charge.partitionKey ?? "*", "throttled", charge.cost);
        return this.error(res, 503, "ServerBusy", "The server is busy.");
      }
    }
    this.forward(req, res, body, charge);
  }

  /** What a request costs, in entities, and where (the service counts entities, scanned ones included). */
  private charge(r: TableRequest): Charge | undefined {
    switch (r.kind) {
      case "insert": case "update":
        return r.table ? { table: r.table, partitionKey: r.partitionKey, cost: 1, what: "writes", delta: r.kind === "insert" || r.method === "PUT" ? 1 : 0 } : undefined;
      case "delete":
        return r.table ? { table: r.table, partitionKey: r.partitionKey, cost: 1, what: "writes", delta: -1 } : undefined;
      case "read":
        return r.table ? { table: r.table, partitionKey: r.partitionKey, cost: 1, what: "reads", delta: 0 } : undefined;
      case "batch": {
        const ops = r.operations ?? [];
        const first = ops.find((o) => o.table);
        if (!first?.table) return undefined;
        const delta = ops.reduce((d, o) => d + (o.kind === "insert" ? 1 : o.kind === "delete" ? -1 : 0), 0);
        return { table: first.table, partitionKey: first.partitionKey, cost: ops.length, what: "writes", delta };
      }
      case "query": {
        if (!r.table) return undefined;
        const pk = pinnedPartition(r.filter);
        return { table: r.table, partitionKey: pk, cost: this.throttle.scanned(r.table, pk), what: "reads", delta: 0 };
      }
      default:
        return undefined;
    }
  }

  private forward(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, charge: Charge | undefined): void {
    const headers = { ...req.headers, host: `127.0.0.1:${this.o.upstreamPort}` };
    const up = httpRequest({ host: "127.0.0.1", port: this.o.upstreamPort, method: req.method, path: req.url, headers, agent: this.agent }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, upRes.headers);
      upRes.pipe(res);
      const ok = (upRes.statusCode ?? 500) < 300;
      if (ok && charge) {
        this.o.recorder.add(charge.table, charge.partitionKey ?? "*", charge.what, charge.cost);
        if (charge.delta && charge.partitionKey !== undefined) this.throttle.wrote(charge.table, charge.partitionKey, charge.delta);
      }
    });
    up.on("error", (e) => {
      if (!res.headersSent) this.error(res, 502, "UpstreamUnavailable", `the emulator behind the fidelity layer did not answer: ${e.message}`);
      else res.destroy();
    });
    if (body) up.end(body);
    else req.pipe(up);
  }

  private error(res: ServerResponse, status: number, code: string, message: string): void {
    const requestId = randomUUID();
    const body = JSON.stringify({ "odata.error": { code, message: { lang: "en-US", value: `${message}\nRequestId:${requestId}\nTime:${new Date().toISOString()}` } } });
    res.writeHead(status, {
      "content-type": "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
      "x-ms-error-code": code, "x-ms-request-id": requestId, "x-ms-version": "2019-02-02", "content-length": Buffer.byteLength(body),
    });
    res.end(body);
  }
}

/** The PartitionKey a filter pins exactly, if any (the classifier's reading of the filter). */
function pinnedPartition(filter: string | undefined): string | undefined {
  if (!filter) return undefined;
  const p = parseFilter(filter);
  if (!p.ok) return undefined;
  const c = keyConstraint(normalize(p.expr), "PartitionKey");
  return c.kind === "exact" ? c.value : undefined;
}
