/**
 * Passes one request on to Azurite and its answer back, unchanged — except
 * where passing on would break the client: an upstream that is gone or
 * silent becomes a 500 in the service's shape, an Azurite error without a
 * body gets the service's code and message, and a client that leaves
 * midway stops the upstream request instead of leaving it hanging.
 */
import { type Agent, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse, ClientRequest } from "node:http";
import { Answer, codeForStatus, errorAnswer } from "./answers";

export interface RelayOptions {
  upstreamPort: number;
  agent: Agent;
  /** How long the upstream may take before the client gets 500 OperationTimedOut. */
  timeoutMs: number;
  /** Dress bodiless upstream errors in the service's shape (fidelity on). */
  dress: boolean;
  /** The body, already read (writes); undefined streams the request through (reads). */
  body: Buffer | undefined;
  /** Called once when the upstream answers with a 2xx status. */
  onSuccess?: () => void;
  /** Writes an answer unless one was written. */
  answer: (a: Answer) => void;
  /** Runs a callback so that a throw becomes a logged internal error, never an uncaught exception. */
  guard: (fn: () => void) => void;
}

/** Headers that belong to one connection, not to the request (RFC 9110 §7.6.1), and the Host the upstream gets anew. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "expect", "host"]);
/** The same for answers: the connection to Azurite is not the client's (its keep-alive must not keep the client's open). */
const HOP_BY_HOP_ANSWER = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade"]);

function answerHeaders(upRes: IncomingMessage): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(upRes.headers)) if (!HOP_BY_HOP_ANSWER.has(k) && v !== undefined) out[k] = v;
  return out;
}

/** An upstream error body larger than this is passed on as it comes, not held to be dressed. */
const HELD_ERROR_MAX = 64 * 1024;

function header(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(",") : (v ?? "");
}

/** Relays `req` to the upstream and its answer to `res`. */
export function relay(req: IncomingMessage, res: ServerResponse, o: RelayOptions): void {
  const accept = header(req, "accept");
  const version = header(req, "x-ms-version");
  const headers: OutgoingHttpHeaders = { host: `127.0.0.1:${o.upstreamPort}` };
  for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = v;
  if (o.body) {
    delete headers["transfer-encoding"];
    headers["content-length"] = o.body.length;
  }
  let up: ClientRequest;
  try {
    // ClientRequest, not http.request: VS Code's extension host patches the latter with a per-request proxy agent that drops keep-alive.
    up = new ClientRequest({ host: "127.0.0.1", port: o.upstreamPort, method: req.method, path: req.url, headers, agent: o.agent });
  } catch {
    // Node refuses to send a path or header holding characters HTTP does not allow.
    o.answer(
      errorAnswer(
        { status: 400, code: "InvalidUri", message: "The requested URI does not represent any resource on the server." },
        accept,
        version,
      ),
    );
    return;
  }
  up.setTimeout(o.timeoutMs, () => up.destroy(Object.assign(new Error(`no answer within ${o.timeoutMs / 1000} s`), { code: "ETIMEDOUT" })));
  up.on("response", (upRes) => o.guard(() => respond(upRes)));
  up.on("error", (e: NodeJS.ErrnoException) =>
    o.guard(() => {
      if (res.headersSent) return void res.destroy();
      o.answer(
        errorAnswer(
          e.code === "ETIMEDOUT"
            ? { status: 500, code: "OperationTimedOut", message: "The operation could not be completed within the permitted time." }
            : {
                status: 500,
                code: "InternalError",
                message: `The server encountered an internal error. Please retry the request. (The table emulator behind the fidelity layer did not answer: ${e.code ?? "no connection"}.)`,
              },
          accept,
          version,
        ),
      );
    }),
  );
  // The client left (or never finished sending): the upstream request goes too.
  res.on("close", () => {
    if (!res.writableFinished) up.destroy();
  });
  req.on("close", () => {
    if (!req.complete) up.destroy();
  });
  if (o.body) up.end(o.body);
  else req.pipe(up);

  function respond(upRes: IncomingMessage): void {
    upRes.on("error", () => res.destroy());
    const status = upRes.statusCode ?? 500;
    if (status >= 200 && status < 300) o.onSuccess?.();
    if (!o.dress || status < 400) {
      res.writeHead(status, upRes.statusMessage, answerHeaders(upRes));
      upRes.pipe(res);
      return;
    }
    // An error: held until it is known whether it has a body and a code (Azurite answers some with neither).
    const held: Buffer[] = [];
    let size = 0;
    let passing = false;
    const pass = () => {
      passing = true;
      res.writeHead(status, upRes.statusMessage, answerHeaders(upRes));
      for (const c of held) res.write(c);
      held.length = 0;
    };
    upRes.on("data", (c: Buffer) =>
      o.guard(() => {
        if (passing) return void res.write(c);
        held.push(c);
        size += c.length;
        if (size > HELD_ERROR_MAX) pass();
      }),
    );
    upRes.on("end", () =>
      o.guard(() => {
        if (passing) return void res.end();
        if (size > 0 && upRes.headers["x-ms-error-code"]) {
          pass();
          return void res.end();
        }
        // No body, or no code (Azurite's `<Code/>`): the service's code for the status, with Azurite's words when it had some.
        const said = /<Message>([^<\n]+)/.exec(Buffer.concat(held).toString("utf8"))?.[1]?.trim();
        const e = codeForStatus(status);
        o.answer(errorAnswer(said ? { ...e, message: said } : e, accept, version));
      }),
    );
  }
}
