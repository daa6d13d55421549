/**
 * Reads Table REST requests: which table, which keys, what kind of
 * operation, with `$filter`, `$top` and `$select`; and the parts of a
 * `$batch` multipart body. Only what fidelity needs: anything it does not
 * recognise passes through untouched.
 */

export type OpKind = "insert" | "update" | "delete" | "read" | "query" | "batch" | "table" | "other";

export interface TableRequest {
  kind: OpKind;
  method: string;
  table?: string;
  partitionKey?: string;
  rowKey?: string;
  filter?: string;
  top?: number;
  /** For entity writes: the JSON body, parsed. */
  entity?: Record<string, unknown>;
  /** For `$batch`: its operations. */
  operations?: TableRequest[];
}

/** `Orders(PartitionKey='a',RowKey='b')` → table and keys (quotes doubled inside values). */
const ENTITY_PATH = /^([A-Za-z][A-Za-z0-9]*)\(PartitionKey='((?:[^']|'')*)',\s*RowKey='((?:[^']|'')*)'\)$/;
const TABLE_PATH = /^([A-Za-z][A-Za-z0-9]*)(\(\))?$/;

export function parseTablePath(method: string, pathAndQuery: string, account: string, body?: string): TableRequest {
  const url = new URL(pathAndQuery, "http://x");
  const segments = url.pathname.split("/").filter(Boolean).map((s) => safeDecode(s));
  // Path-style: /account/resource (Azurite); the account segment is skipped.
  const resource = segments[0] === account ? segments.slice(1).join("/") : segments.join("/");
  const m = method.toUpperCase();
  if (resource === "$batch") return { kind: "batch", method: m };
  if (/^Tables(\(|$)/.test(resource)) return { kind: "table", method: m };
  const entity = ENTITY_PATH.exec(resource);
  if (entity) {
    const [, table, pk, rk] = entity;
    const keys = { table, partitionKey: pk.replace(/''/g, "'"), rowKey: rk.replace(/''/g, "'") };
    if (m === "GET") return { kind: "read", method: m, ...keys };
    if (m === "DELETE") return { kind: "delete", method: m, ...keys };
    return { kind: "update", method: m, ...keys, entity: parseJson(body) };
  }
  const t = TABLE_PATH.exec(resource);
  if (t) {
    if (m === "POST") {
      const entity = parseJson(body);
      return { kind: "insert", method: m, table: t[1], entity, partitionKey: str(entity?.PartitionKey), rowKey: str(entity?.RowKey) };
    }
    if (m === "GET") {
      const top = url.searchParams.get("$top");
      return { kind: "query", method: m, table: t[1], filter: url.searchParams.get("$filter") ?? undefined, top: top === null ? undefined : Number(top) };
    }
  }
  return { kind: "other", method: m };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function parseJson(body: string | undefined): Record<string, unknown> | undefined {
  if (!body) return undefined;
  try {
    const v = JSON.parse(body);
    return v && typeof v === "object" ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/**
 * The operations of a `$batch` body: a multipart/mixed request whose
 * changeset holds one HTTP request per part (request line, headers, body).
 */
export function parseBatch(contentType: string, body: string, account: string): TableRequest[] {
  const outer = boundaryOf(contentType);
  if (!outer) return [];
  const ops: TableRequest[] = [];
  for (const part of splitParts(body, outer)) {
    const { headers, content } = splitHeaders(part);
    const inner = boundaryOf(headers["content-type"] ?? "");
    const requests = inner ? splitParts(content, inner) : [part];
    for (const req of requests) {
      const { content: http } = splitHeaders(req);
      const lineEnd = http.indexOf("\n");
      const requestLine = (lineEnd < 0 ? http : http.slice(0, lineEnd)).trim();
      const m = /^(GET|POST|PUT|MERGE|PATCH|DELETE)\s+(\S+)/.exec(requestLine);
      if (!m) continue;
      const { content: json } = splitHeaders(http.slice(lineEnd + 1));
      const url = m[2].replace(/^https?:\/\/[^/]+/, "");
      ops.push(parseTablePath(m[1], url, account, json.trim() || undefined));
    }
  }
  return ops;
}

function boundaryOf(contentType: string): string | undefined {
  return /boundary=("?)([^";]+)\1/i.exec(contentType)?.[2];
}

function splitParts(body: string, boundary: string): string[] {
  const parts = body.split(`--${boundary}`);
  return parts.slice(1).filter((p) => !p.startsWith("--")).map((p) => p.replace(/^\r?\n/, ""));
}

function splitHeaders(part: string): { headers: Record<string, string>; content: string } {
  const sep = /\r?\n\r?\n/.exec(part);
  if (!sep) return { headers: {}, content: part };
  const headers: Record<string, string> = {};
  for (const line of part.slice(0, sep.index).split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, content: part.slice(sep.index + sep[0].length) };
}
