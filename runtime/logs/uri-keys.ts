/**
 * Keys from what a log line says of the request: its URI (a point
 * operation's `Table(PartitionKey='a',RowKey='b')`, a query's `$filter`
 * and continuation token, `$batch`) and its object key. Read by hand, not
 * with `new URL()`: a million lines must go fast, and a malformed URI is
 * still read as far as it goes, never thrown on.
 */

export type UriKind = "entity" | "query" | "batch" | "tables" | "other";

export interface UriKeys {
  kind: UriKind;
  table?: string;
  partitionKey?: string;
  rowKey?: string;
  /** A query's `$filter`, decoded. */
  filter?: string;
  /** The partition a continued query page starts in (`NextPartitionKey`, decoded). */
  nextPartitionKey?: string;
  nextRowKey?: string;
}

/** `Orders(PartitionKey='a',RowKey='b')`: quotes inside a key are doubled. */
const ENTITY = /^([A-Za-z][A-Za-z0-9]{0,62})\(\s*PartitionKey\s*=\s*'((?:[^']|'')*)'\s*,\s*RowKey\s*=\s*'((?:[^']|'')*)'\s*\)$/;
/** `Orders` or `Orders()`: a query of the table. */
const TABLE = /^([A-Za-z][A-Za-z0-9]{0,62})(?:\(\s*\))?$/;

/** The keys and parameters `uri` names. */
export function keysFromUri(uri: string): UriKeys {
  const { path, query } = split(uri);
  const resource = lastSegment(path);
  if (resource === "$batch") return { kind: "batch" };
  if (resource === "Tables" || resource.startsWith("Tables(")) return { kind: "tables" };
  const entity = ENTITY.exec(resource);
  if (entity) return { kind: "entity", table: entity[1], partitionKey: unquote(entity[2]), rowKey: unquote(entity[3]) };
  const table = TABLE.exec(resource);
  if (!table) return { kind: "other" };
  const out: UriKeys = { kind: "query", table: table[1] };
  if (query) readQuery(query, out);
  return out;
}

/**
 * The keys an object key names: `/account/table/pk/rk` (keys cannot hold a
 * `/`, so the segments are unambiguous), `/account/table/pk` (a batch's
 * partition), `/account/table`, or the URI form `/account/Table(PartitionKey='a',RowKey='b')`.
 */
export function keysFromObjectKey(objectKey: string): { table?: string; partitionKey?: string; rowKey?: string } {
  const key = objectKey.trim().replace(/^"|"$/g, "");
  const segments = key.split("/").filter((s, i) => i > 0 || s !== "");
  if (segments.length >= 2) {
    const entity = ENTITY.exec(segments[segments.length - 1]);
    if (entity) return { table: entity[1], partitionKey: unquote(entity[2]), rowKey: unquote(entity[3]) };
  }
  // segments[0] is the account.
  if (segments.length < 2 || !TABLE.test(segments[1])) return {};
  const table = segments[1].replace(/\(\s*\)$/, "");
  if (segments.length === 2) return { table };
  return { table, partitionKey: segments[2], ...(segments.length > 3 ? { rowKey: segments.slice(3).join("/") } : {}) };
}

/**
 * A continuation key as the service writes it: `1!<length>!<base64>` (Azure,
 * base64 with `-`, `_` and `*` for `+`, `/` and `=`), or plain base64
 * (Azurite). Undefined when it is neither.
 */
export function decodeContinuation(token: string): string | undefined {
  const azure = /^1!(\d+)!([A-Za-z0-9+/=_*-]*)$/.exec(token);
  const b64 = azure ? azure[2].replace(/-/g, "+").replace(/_/g, "/").replace(/\*/g, "=") : token;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || (!azure && b64.length % 4 !== 0)) return undefined;
  const bytes = Buffer.from(b64, "base64");
  const text = bytes.toString("utf8");
  // Not UTF-8 (or not base64 at all): not a key this reader can name.
  if (text.includes("\ufffd") || Buffer.byteLength(text) !== bytes.length) return undefined;
  return text;
}

function split(uri: string): { path: string; query: string } {
  let start = 0;
  const scheme = uri.indexOf("://");
  if (scheme >= 0 && scheme < 12) {
    const slash = uri.indexOf("/", scheme + 3);
    start = slash < 0 ? uri.length : slash;
  }
  let end = uri.indexOf("#", start);
  if (end < 0) end = uri.length;
  const q = uri.indexOf("?", start);
  return q >= 0 && q < end ? { path: uri.slice(start, q), query: uri.slice(q + 1, end) } : { path: uri.slice(start, end), query: "" };
}

/** The resource: the last segment of the path (the account comes first in path-style URIs). */
function lastSegment(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47 /* / */) end--;
  const raw = path.slice(path.lastIndexOf("/", end - 1) + 1, end);
  return raw.includes("%") ? decode(raw) : raw;
}

function readQuery(query: string, out: UriKeys): void {
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    const name = pair.slice(0, eq).toLowerCase();
    if (name === "$filter" || name === "%24filter") out.filter = decode(pair.slice(eq + 1));
    else if (name === "nextpartitionkey") out.nextPartitionKey = decodeContinuation(decode(pair.slice(eq + 1)));
    else if (name === "nextrowkey") out.nextRowKey = decodeContinuation(decode(pair.slice(eq + 1)));
  }
}

/** Percent-decoding that never throws: a malformed escape is left as it is. */
export function decode(s: string): string {
  if (!s.includes("%")) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/%[0-9A-Fa-f]{2}/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    });
  }
}

function unquote(v: string): string {
  return v.includes("''") ? v.replace(/''/g, "'") : v;
}
