/**
 * The stress test's HTTP client for a loopback emulator. VS Code's extension
 * host replaces `http.request` for extensions (its proxy support,
 * `http.proxySupport`: every request gets a fresh proxy-resolving agent and
 * loses the SDK's keep-alive pool — microsoft/vscode#173861), which made the
 * same run 3–10× slower from the command than from `tdl stress`. This client
 * builds requests with `http.ClientRequest`, which that patch leaves alone,
 * over one keep-alive agent, so the command's requests travel as the CLI's
 * do. Only plain-HTTP loopback targets use it (an emulator needs no proxy).
 * The table SDK sends text bodies only; any other body is refused loudly.
 */
import { Agent, ClientRequest, IncomingMessage } from "node:http";
import { gunzipSync, inflateSync } from "node:zlib";
import { HttpClient, HttpHeaders, PipelineRequest, PipelineResponse, RestError } from "@azure/core-rest-pipeline";

/** A client for http://127.0.0.1… endpoints with its own keep-alive pool (`maxSockets` bounds the connections). */
export function directHttpClient(maxSockets = 256): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    sendRequest(request: PipelineRequest): Promise<PipelineResponse> {
      const body = request.body;
      const plain = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
      if (!plain || !request.url.startsWith("http:")) {
        return Promise.reject(
          new RestError(
            `the stress test's loopback client sends text bodies over http only (${request.method} ${new URL(request.url).protocol})`,
            { code: RestError.REQUEST_SEND_ERROR, request },
          ),
        );
      }
      return send(request, agent, body);
    },
  };
}

function send(request: PipelineRequest, agent: Agent, body: string | Uint8Array | undefined | null): Promise<PipelineResponse> {
  return new Promise((resolve, reject) => {
    const signal = request.abortSignal;
    if (signal?.aborted) return reject(abortError());
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers) headers[name] = value;
    const payload = typeof body === "string" ? Buffer.from(body, "utf8") : (body ?? undefined);
    if (payload) headers["content-length"] = String(payload.byteLength);
    let req: ClientRequest;
    const onAbort = () => req.destroy(abortError());
    const done = () => signal?.removeEventListener("abort", onAbort);
    try {
      req = new ClientRequest({
        protocol: "http:",
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: request.method,
        headers,
        agent,
      });
    } catch (e) {
      return reject(new RestError((e as Error).message, { code: RestError.REQUEST_SEND_ERROR, request }));
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    if (request.timeout > 0)
      req.setTimeout(request.timeout, () =>
        req.destroy(new RestError(`no answer within ${request.timeout} ms`, { code: RestError.REQUEST_SEND_ERROR, request })),
      );
    req.on("error", (e: NodeJS.ErrnoException) => {
      done();
      reject(
        e instanceof RestError || e.name === "AbortError"
          ? e
          : new RestError(e.message, { code: e.code ?? RestError.REQUEST_SEND_ERROR, request }),
      );
    });
    req.on("response", (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", (e) => {
        done();
        reject(
          signal?.aborted || e.name === "AbortError" ? abortError() : new RestError(e.message, { code: RestError.PARSE_ERROR, request }),
        );
      });
      res.on("end", () => {
        done();
        try {
          resolve({
            request,
            status: res.statusCode ?? 0,
            headers: headersOf(res),
            bodyAsText: decode(Buffer.concat(chunks), res.headers["content-encoding"]),
          });
        } catch (e) {
          reject(new RestError(`Error reading response as text: ${(e as Error).message}`, { code: RestError.PARSE_ERROR, request }));
        }
      });
    });
    req.end(payload);
  });
}

/** The response's headers as the SDK reads them: names in lower case, repeated values joined. */
function headersOf(res: IncomingMessage): HttpHeaders {
  const map = new Map<string, string>();
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) map.set(name.toLowerCase(), Array.isArray(value) ? value.join(", ") : value);
  const headers: HttpHeaders = {
    get: (name) => map.get(name.toLowerCase()),
    has: (name) => map.has(name.toLowerCase()),
    set: (name, value) => void map.set(name.toLowerCase(), String(value)),
    delete: (name) => void map.delete(name.toLowerCase()),
    toJSON: () => Object.fromEntries(map),
    [Symbol.iterator]: () => map.entries(),
  };
  return headers;
}

/** The body as text; gzip and deflate undone (an emulator does not compress, but a proxy in front of one might). */
function decode(raw: Buffer, encoding: string | undefined): string {
  const e = encoding?.toLowerCase();
  return (e === "gzip" ? gunzipSync(raw) : e === "deflate" ? inflateSync(raw) : raw).toString("utf8");
}

function abortError(): Error {
  const e = new Error("The operation was aborted.");
  e.name = "AbortError";
  return e;
}
