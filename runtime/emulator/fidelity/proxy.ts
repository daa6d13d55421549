/**
 * The fidelity layer: a loopback reverse proxy in front of Azurite that
 * rejects what Azure rejects and throttles what Azure throttles, before
 * anything is written; everything else — signed requests included — passes
 * through unchanged.
 *
 * It cannot be knocked over: every request, however malformed, gets an
 * answer in the service's shape (or is passed through), every handler and
 * stream event runs guarded, and a failure inside the layer is a logged
 * 500 InternalError for that one request, never an exit.
 */
import { Agent, createServer, IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { Answer, batchFailureAnswer, errorAnswer, reason, ServiceError } from "./answers";
import { BatchOperation, parseBatch } from "./batch";
import { Charge, chargeOf } from "./charges";
import { relay } from "./relay";
import { batchRejection, rejection } from "./rejections";
import { escapeLineSeparators, misreadKeys } from "./batch-keys";
import { parseTablePath, TableRequest } from "./requests";
import { Throttle, ThrottleSettings } from "./throttle";
import { TrafficRecorder } from "./recorder";
import { asksForSelf, describeSelf, SELF_HEADER, selfHeader } from "./self";

export interface ProxyOptions {
  upstreamPort: number;
  account: string;
  /** Off: a plain pass-through (still recorded, still guarded). */
  fidelity: boolean;
  throttle: ThrottleSettings;
  recorder: TrafficRecorder;
  /** Where internal failures of the layer are logged, with their stack (never a secret: no query strings). */
  log?: (line: string) => void;
  /** The largest request body read (default 4 MiB, an entity group transaction's limit). */
  maxBodyBytes?: number;
  /** How long Azurite may take to answer (default 60 s). */
  upstreamTimeoutMs?: number;
}

/** Counts since start: what the layer answered and what it survived. */
export interface ProxyStats {
  requests: number;
  /** Requests the HTTP parser refused before a handler saw them (bad request line, huge headers…). */
  malformed: number;
  /** Failures inside the layer, each answered with a 500 and logged. */
  internalErrors: number;
}

/** Methods of the Table REST API (MERGE and PATCH update; OPTIONS is CORS). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "MERGE", "PATCH", "DELETE", "OPTIONS"]);
/** Methods whose requests carry no body worth reading: they stream through. */
const BODILESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

const INTERNAL: ServiceError = {
  status: 500,
  code: "InternalError",
  message: "The server encountered an internal error. Please retry the request.",
};

function header(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(",") : (v ?? "");
}

export class FidelityProxy {
  private readonly server: Server;
  /** What `process` read of each request, for the request log (only while the recorder logs requests). */
  private readonly seen = new WeakMap<IncomingMessage, { request: TableRequest; operations?: BatchOperation[] }>();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  /** The targets in force (the stress test scales them to the machine for its run). */
  readonly throttle: Throttle;
  private readonly maxBody: number;
  readonly stats: ProxyStats = { requests: 0, malformed: 0, internalErrors: 0 };

  constructor(private readonly o: ProxyOptions) {
    this.throttle = new Throttle(o.throttle);
    this.maxBody = o.maxBodyBytes ?? 4 * 1024 * 1024;
    // Host is checked here, to answer its absence as the service does.
    this.server = createServer({ requireHostHeader: false }, (req, res) => this.accept(req, res));
    this.server.keepAliveTimeout = 60_000;
    this.server.requestTimeout = 120_000;
    this.server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => this.clientError(err, socket));
  }

  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => {
        this.server.off("error", reject);
        this.server.on("error", (e) => this.log(`fidelity layer: server error: ${e.stack ?? e}`));
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  close(): Promise<void> {
    this.agent.destroy();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private log(line: string): void {
    try {
      this.o.log?.(line);
    } catch {
      // A logger that throws must not take the layer down with it.
    }
  }

  /** Every request enters here: one guard around all of its handling. */
  private accept(req: IncomingMessage, res: ServerResponse): void {
    this.stats.requests++;
    req.on("error", () => undefined); // a client that resets midway: nothing to answer
    res.on("error", () => undefined);
    if (this.o.recorder.wantsRequests) this.logWhenAnswered(req, res);
    // Every answer says what answered it (self.ts): a client that did not start this emulator can tell it throttles.
    res.setHeader(SELF_HEADER, selfHeader(this.self()));
    this.guard(req, res, () => this.handle(req, res));
  }

  /** Whether the layer is on and throttles, and at which scale, as `GET <endpoint>/$tdl-emulator` answers it. */
  self() {
    return describeSelf(this.o.fidelity, this.throttle.settings);
  }

  /** Hands the recorder the request and its answer once the answer is sent (or the client has left). */
  private logWhenAnswered(req: IncomingMessage, res: ServerResponse): void {
    const start = Date.now();
    const t0 = performance.now();
    res.once("close", () => {
      try {
        const method = (req.method ?? "").toUpperCase();
        const seen = this.seen.get(req) ?? { request: parseTablePath(method, req.url ?? "/", this.o.account) };
        const answered = res.headersSent ? res.statusCode : 0;
        const size = Number(res.getHeader("content-length"));
        this.o.recorder.request({
          start,
          durationMs: performance.now() - t0,
          method,
          target: req.url ?? "/",
          host: header(req, "host"),
          account: this.o.account,
          status: answered,
          errorCode: String(res.getHeader("x-ms-error-code") ?? "") || undefined,
          requestId: String(res.getHeader("x-ms-request-id") ?? "") || undefined,
          clientRequestId: header(req, "x-ms-client-request-id") || undefined,
          version: header(req, "x-ms-version") || undefined,
          userAgent: header(req, "user-agent") || undefined,
          ifMatch: !!req.headers["if-match"],
          authorization: header(req, "authorization") || undefined,
          callerIp: req.socket.remoteAddress ? `${req.socket.remoteAddress}:${req.socket.remotePort}` : undefined,
          requestBytes: Number(header(req, "content-length")) || 0,
          responseBytes: Number.isFinite(size) ? size : 0,
          request: seen.request,
          operations: seen.operations,
        });
      } catch (e) {
        this.log(`fidelity layer: the request log could not take a request: ${(e as Error)?.stack ?? e}`);
      }
    });
  }

  /** Runs `fn`; a throw is logged with its stack and answered 500 InternalError. */
  private guard(req: IncomingMessage, res: ServerResponse, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.stats.internalErrors++;
      // The path only: a query string may hold a SAS signature.
      this.log(
        `fidelity layer: internal error on ${req.method} ${(req.url ?? "").split("?")[0].slice(0, 200)}: ${(e as Error)?.stack ?? e}`,
      );
      try {
        this.answer(res, errorAnswer(INTERNAL, header(req, "accept"), header(req, "x-ms-version")));
      } catch {
        res.destroy();
      }
    }
  }

  private answer(res: ServerResponse, a: Answer): void {
    if (res.headersSent || res.destroyed) return void res.destroy();
    res.writeHead(a.status, reason(a.status), a.headers);
    res.end(a.body);
  }

  private refuse(req: IncomingMessage, res: ServerResponse, e: ServiceError, close = false): void {
    const a = errorAnswer(e, header(req, "accept"), header(req, "x-ms-version"));
    if (close) a.headers.connection = "close";
    this.answer(res, a);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const method = (req.method ?? "").toUpperCase();
    if (method === "GET" && asksForSelf(req.url ?? "/", this.o.account)) {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify(this.self()));
    }
    if (!METHODS.has(method))
      return this.refuse(req, res, {
        status: 405,
        code: "UnsupportedHttpVerb",
        message: "The resource doesn't support the specified HTTP verb.",
      });
    if (req.httpVersion === "1.1" && !req.headers.host) {
      return this.refuse(req, res, {
        status: 400,
        code: "HostInformationNotPresent",
        message:
          "The required host information is not present in the request. You must send a non-empty Host header or include the absolute URI in the request line.",
      });
    }
    const tooLarge: ServiceError = {
      status: 413,
      code: "RequestBodyTooLarge",
      message: `The size of the request body exceeds the maximum size permitted (${this.maxBody / 1024 / 1024} MiB).`,
    };
    // Declared too large: refused before a byte of it is read.
    if (Number(header(req, "content-length")) > this.maxBody) return this.refuse(req, res, tooLarge, true);
    if (BODILESS.has(method)) return this.process(req, res, undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (c: Buffer) =>
      this.guard(req, res, () => {
        if (refused) return;
        size += c.length;
        if (size <= this.maxBody) return void chunks.push(c);
        // Sent too large (chunked, or a lying Content-Length): answered now, the rest discarded, the connection closed.
        refused = true;
        chunks.length = 0;
        this.refuse(req, res, tooLarge, true);
      }),
    );
    req.on("end", () =>
      this.guard(req, res, () => {
        if (!refused) this.process(req, res, Buffer.concat(chunks));
      }),
    );
  }

  private process(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): void {
    const method = (req.method ?? "GET").toUpperCase();
    const text = body?.length ? body.toString("utf8") : undefined;
    const contentType = header(req, "content-type");
    const parsed = parseTablePath(method, req.url ?? "/", this.o.account, text, contentType);
    let operations: BatchOperation[] | undefined;
    if (parsed.kind === "batch" && method === "POST") {
      const b = parseBatch(contentType, text ?? "", this.o.account);
      if (b.ok) operations = b.operations;
      else if (this.o.fidelity)
        return this.refuse(req, res, {
          status: 400,
          code: "InvalidInput",
          message: `One of the request inputs is not valid: ${b.reason}.`,
        });
    }
    if (this.o.recorder.wantsRequests) this.seen.set(req, { request: parsed, operations });
    const charge = chargeOf(parsed, operations, this.throttle);
    if (this.o.fidelity) {
      if (parsed.badUri)
        return this.refuse(req, res, {
          status: 400,
          code: "InvalidUri",
          message: "The requested URI does not represent any resource on the server.",
        });
      if (operations) {
        const failed = batchRejection(operations) ?? misreadKeys(operations);
        if (failed) return this.answer(res, batchFailureAnswer(failed, header(req, "x-ms-version")));
      } else {
        const r = rejection(parsed);
        if (r) return this.refuse(req, res, r);
      }
      const refused =
        charge &&
        this.throttle.check(charge.table, charge.partitionKey, charge.cost, charge.what === "writes" ? Math.max(0, charge.delta) : 0);
      if (charge && refused) {
        this.o.recorder.add(charge.table, charge.partitionKey ?? "*", "throttled", charge.cost);
        // Azure's two ServerBusy messages: a partition (server) past its target, or the account past its own.
        return this.refuse(req, res, {
          status: 503,
          code: "ServerBusy",
          message: refused === "account" ? "Operations per second is over the account limit." : "The server is busy.",
        });
      }
    }
    // Azurite loses a $batch operation's body at a raw U+2028/U+2029: sent on as JSON escapes, the same strings (batch-keys.ts).
    const sent =
      operations && this.o.fidelity && text && /[\u2028\u2029]/.test(text) ? Buffer.from(escapeLineSeparators(text), "utf8") : body;
    relay(req, res, {
      upstreamPort: this.o.upstreamPort,
      agent: this.agent,
      timeoutMs: this.o.upstreamTimeoutMs ?? 60_000,
      dress: this.o.fidelity,
      body: sent,
      onSuccess: charge && (() => this.record(charge)),
      answer: (a) => this.answer(res, a),
      guard: (fn) => this.guard(req, res, fn),
    });
  }

  private record(charge: Charge): void {
    this.o.recorder.add(charge.table, charge.partitionKey ?? "*", charge.what, charge.cost);
    if (charge.delta && charge.partitionKey !== undefined) this.throttle.wrote(charge.table, charge.partitionKey, charge.delta);
  }

  /**
   * A request the HTTP parser refused (no handler sees it): answered in the
   * service's shape when the socket can still take an answer, then closed.
   */
  private clientError(err: NodeJS.ErrnoException, socket: Duplex): void {
    try {
      // A socket error (the client reset or went away) is no request to answer.
      if (!err.code?.startsWith("HPE_") && err.code !== "ERR_HTTP_REQUEST_TIMEOUT") return void socket.destroy();
      this.stats.malformed++;
      if (!socket.writable) return void socket.destroy();
      const e: ServiceError =
        err.code === "HPE_INVALID_METHOD"
          ? { status: 400, code: "InvalidHttpVerb", message: "The HTTP verb specified was not recognized by the server." }
          : err.code === "HPE_HEADER_OVERFLOW"
            ? {
                status: 400,
                code: "InvalidInput",
                message: "One of the request inputs is not valid: the request line and headers exceed the 16 KiB the emulator reads.",
              }
            : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
              ? { status: 500, code: "OperationTimedOut", message: "The operation could not be completed within the permitted time." }
              : {
                  status: 400,
                  code: "InvalidInput",
                  message: "One of the request inputs is not valid: the request is not valid HTTP/1.1.",
                };
      const a = errorAnswer(e, "application/json");
      const head = Object.entries({ ...a.headers, connection: "close" })
        .map(([k, v]) => `${k}: ${v}`)
        .join("\r\n");
      socket.end(`HTTP/1.1 ${a.status} ${reason(a.status)}\r\n${head}\r\n\r\n${a.body}`);
    } catch {
      socket.destroy();
    }
  }
}
