/**
 * HTTP/1.1 over a bare socket, for requests no client library would send
 * (a broken request line, no Host, 20 KB of headers, half a body): what
 * goes out is exactly the bytes given, and what comes back is read as it
 * is — status, headers and body — or `closed` when the server said nothing.
 */
import { connect } from "node:net";

export interface RawAnswer {
  /** 0 when the connection closed without an answer. */
  status: number;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
}

/** Parses the first HTTP response in `text` (headers lower-cased). */
export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf("\r\n\r\n");
  if (!text.startsWith("HTTP/1.1 ") || end < 0) return { status: 0, headers: {}, body: text, closed: true };
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(":");
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = text.slice(end + 4);
  if (headers["transfer-encoding"] === "chunked") body = unchunk(body);
  else if (headers["content-length"] !== undefined) body = body.slice(0, Number(headers["content-length"]));
  return { status: Number(statusLine.split(" ")[1]), headers, body, closed: false };
}

function unchunk(s: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const lineEnd = s.indexOf("\r\n", at);
    if (lineEnd < 0) return out;
    const size = parseInt(s.slice(at, lineEnd), 16);
    if (!(size > 0)) return out;
    out += s.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

export interface RawOptions {
  /** Close our side after writing this many bytes (a client that leaves midway); no answer is awaited. */
  abortAfterBytes?: number;
  /** Give up waiting after this long (the answer so far is parsed). */
  timeoutMs?: number;
}

/**
 * Sends `request` (with `Connection: close` expected in it, or the server
 * closing) and resolves with the answer once the server closes or one
 * complete answer has arrived.
 */
export function rawRequest(port: number, request: string | Buffer, o: RawOptions = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks).toString("latin1")));
    };
    const timer = setTimeout(finish, o.timeoutMs ?? 15_000);
    socket.on("error", finish);
    socket.on("close", finish);
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const a = parseAnswer(Buffer.concat(chunks).toString("latin1"));
      const length = Number(a.headers["content-length"]);
      if (a.status && Number.isFinite(length) && Buffer.byteLength(a.body, "latin1") >= length) finish();
    });
    socket.on("connect", () => {
      const bytes = typeof request === "string" ? Buffer.from(request, "latin1") : request;
      if (o.abortAfterBytes === undefined) return void socket.write(bytes);
      socket.write(bytes.subarray(0, o.abortAfterBytes), () => finish());
    });
  });
}
