/**
 * Reads the body of a `$batch` request — an entity group transaction: a
 * multipart/mixed document whose change set holds one HTTP request per
 * part (request line, headers, body). Every part keeps its position, so a
 * rejection can name the failing operation's index as Azure does; a part
 * that is not an HTTP request is kept as a malformed operation, never
 * dropped. Linear in the body's size and never throws.
 */
import { parseTablePath, TableRequest } from "./requests";

/** One operation of a change set, with its position (from 0) and its `Content-ID`. */
export interface BatchOperation extends TableRequest {
  index: number;
  contentId?: string;
  /** The operation carried If-Match (an update or merge, not an insert-or-…). */
  ifMatch?: boolean;
  /** The part holds no readable HTTP request line. */
  malformed?: boolean;
  /** The request target as the part's request line gives it (an absolute URL, as clients send). */
  target?: string;
}

export type BatchParse = { ok: true; operations: BatchOperation[] } | { ok: false; reason: string };

/** The boundary parameter of a multipart Content-Type, quoted or not (read by hand: no backtracking regex over a header). */
export function boundaryOf(contentType: string): string | undefined {
  const at = contentType.toLowerCase().indexOf("boundary=");
  if (at < 0) return undefined;
  let rest = contentType.slice(at + "boundary=".length);
  if (rest.startsWith('"')) {
    const end = rest.indexOf('"', 1);
    rest = end < 0 ? "" : rest.slice(1, end);
  } else {
    const end = rest.search(/[;\s]/);
    rest = end < 0 ? rest : rest.slice(0, end);
  }
  return rest.length > 0 && rest.length <= 200 ? rest : undefined;
}

/** The parts between `--boundary` lines, up to the closing `--boundary--` (text after it is an epilogue). */
function splitParts(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const parts: string[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.startsWith("--", start)) break;
    const next = body.indexOf(delimiter, start);
    const part = body.slice(start, next < 0 ? body.length : next);
    parts.push(part.replace(/^[ \t]*\r?\n/, "").replace(/\r?\n$/, ""));
    at = next;
  }
  return parts;
}

/** Headers (lower-cased names) and content of a MIME part or an HTTP message. */
function splitHeaders(part: string): { headers: Record<string, string>; content: string } {
  const crlf = part.indexOf("\r\n\r\n");
  const lf = part.indexOf("\n\n");
  const [end, sepLength] = crlf >= 0 && (lf < 0 || crlf < lf) ? [crlf, 4] : lf >= 0 ? [lf, 2] : [-1, 0];
  if (end < 0) return { headers: headerLines(part), content: "" };
  return { headers: headerLines(part.slice(0, end)), content: part.slice(end + sepLength) };
}

function headerLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

const METHOD = new Set(["GET", "POST", "PUT", "MERGE", "PATCH", "DELETE"]);

/** One change set part → an operation (a malformed one when its request line cannot be read). */
function operation(part: string, index: number, account: string): BatchOperation {
  const { headers: mime, content } = splitHeaders(part);
  const lineEnd = content.indexOf("\n");
  const requestLine = (lineEnd < 0 ? content : content.slice(0, lineEnd)).trim();
  const [method, target] = requestLine.split(/\s+/, 2);
  if (!method || !target || !METHOD.has(method.toUpperCase()))
    return { kind: "other", method: method?.toUpperCase() ?? "", index, malformed: true };
  const { headers, content: json } = splitHeaders(lineEnd < 0 ? "" : content.slice(lineEnd + 1));
  const contentId = headers["content-id"] ?? mime["content-id"];
  const op = parseTablePath(method, target, account, json.trim() || undefined, headers["content-type"] ?? "application/json");
  return {
    ...op,
    index,
    target,
    ...(contentId !== undefined ? { contentId } : {}),
    ...(headers["if-match"] !== undefined ? { ifMatch: true } : {}),
  };
}

/**
 * The operations of a `$batch` body. Its first change set is the
 * transaction (Azure processes only that one); a request outside any change
 * set (a lone query) counts as one operation.
 */
export function parseBatch(contentType: string, body: string, account: string): BatchParse {
  const outer = boundaryOf(contentType);
  if (!/^multipart\/mixed/i.test(contentType.trim()) || !outer)
    return { ok: false, reason: "the $batch request is not multipart/mixed with a boundary" };
  const parts = splitParts(body, outer);
  if (!parts.length) return { ok: false, reason: "the $batch body holds no part delimited by its boundary" };
  for (const part of parts) {
    const { headers, content } = splitHeaders(part);
    const inner = boundaryOf(headers["content-type"] ?? "");
    if (inner) {
      const requests = splitParts(content, inner);
      if (!requests.length) return { ok: false, reason: "the change set of the $batch holds no operation" };
      return { ok: true, operations: requests.map((r, i) => operation(r, i, account)) };
    }
    if (/^application\/http/i.test(headers["content-type"] ?? "")) return { ok: true, operations: [operation(part, 0, account)] };
  }
  return { ok: false, reason: "the $batch body holds neither a change set nor a request" };
}
