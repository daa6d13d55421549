/**
 * Reads Table REST requests: which table, which keys, what kind of
 * operation, with `$filter` and `$top`, and the entity a write carries.
 * Only what fidelity needs: anything it does not recognise is `other` and
 * passes through untouched. Never throws, whatever the request target or
 * body holds (a hostile client sends `GET //`, `/%zz` or half a JSON object).
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
  /** An entity write whose JSON body is missing or is not a JSON object. */
  badBody?: boolean;
  /** A path segment that is not valid percent-encoding (`/%zz`), or an account path that names no resource (`T(PartitionKey='a`). */
  badUri?: boolean;
}

/** `Orders(PartitionKey='a',RowKey='b')` → table and keys (quotes doubled inside values; the alternatives start differently, so matching is linear). */
const ENTITY_PATH = /^([A-Za-z][A-Za-z0-9]*)\(PartitionKey='((?:[^']|'')*)',\s*RowKey='((?:[^']|'')*)'\)$/;
const TABLE_PATH = /^([A-Za-z][A-Za-z0-9]*)(\(\))?$/;
/** `http://host:port` in front of an absolute request target (batch sub-requests carry one). */
const ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/** Path and query of a request target, without throwing on anything. */
export function splitTarget(target: string): { path: string; query: string } {
  const origin = ORIGIN.exec(target);
  const rest = origin ? target.slice(origin[0].length) : target;
  const hash = rest.indexOf("#");
  const noHash = hash < 0 ? rest : rest.slice(0, hash);
  const q = noHash.indexOf("?");
  return q < 0 ? { path: noHash, query: "" } : { path: noHash.slice(0, q), query: noHash.slice(q + 1) };
}

/**
 * Classifies one request. `contentType` decides whether the body is read as
 * JSON (the Table API's format since 2015; an Atom body passes through to
 * be refused upstream).
 */
export function parseTablePath(
  method: string,
  target: string,
  account: string,
  body?: string,
  contentType = "application/json",
): TableRequest {
  const m = method.toUpperCase();
  const { path, query } = splitTarget(target);
  let badUri = false;
  const segments = path
    .split("/")
    .filter(Boolean)
    .map((s) => {
      const d = safeDecode(s);
      if (d === undefined) badUri = true;
      return d ?? s;
    });
  if (badUri) return { kind: "other", method: m, badUri };
  // Path-style: /account/resource (Azurite); the account segment is skipped.
  const ours = segments[0] === account;
  const resource = ours ? segments.slice(1).join("/") : segments.join("/");
  if (resource === "$batch") return { kind: "batch", method: m };
  if (resource === "Tables" || resource.startsWith("Tables(")) return { kind: "table", method: m };
  const json = !contentType || /json/i.test(contentType);
  const entity = ENTITY_PATH.exec(resource);
  if (entity) {
    const [, table, pk, rk] = entity;
    const keys = { table, partitionKey: pk.replace(/''/g, "'"), rowKey: rk.replace(/''/g, "'") };
    if (m === "GET") return { kind: "read", method: m, ...keys };
    if (m === "DELETE") return { kind: "delete", method: m, ...keys };
    if (m === "PUT" || m === "MERGE" || m === "PATCH" || m === "POST")
      return { kind: "update", method: m, ...keys, ...jsonBody(body, json) };
    return { kind: "other", method: m, ...keys };
  }
  const t = TABLE_PATH.exec(resource);
  if (t) {
    if (m === "POST") {
      const b = jsonBody(body, json);
      return { kind: "insert", method: m, table: t[1], ...b, partitionKey: str(b.entity?.PartitionKey), rowKey: str(b.entity?.RowKey) };
    }
    if (m === "GET") {
      const params = new URLSearchParams(query);
      const top = params.get("$top");
      return {
        kind: "query",
        method: m,
        table: t[1],
        filter: params.get("$filter") ?? undefined,
        top: top === null ? undefined : Number(top),
      };
    }
  }
  // In this account, a resource that is none of the Table API's (Azurite answers those with an empty 500).
  if (ours && resource && !t) return { kind: "other", method: m, badUri: true };
  return { kind: "other", method: m };
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** The entity of a JSON body; `badBody` when there is no body, or a JSON one that is not a JSON object. */
function jsonBody(body: string | undefined, json: boolean): { entity?: Record<string, unknown>; badBody?: boolean } {
  if (!body?.trim()) return { badBody: true };
  if (!json) return {};
  try {
    const v: unknown = JSON.parse(body);
    return v && typeof v === "object" && !Array.isArray(v) ? { entity: v as Record<string, unknown> } : { badBody: true };
  } catch {
    return { badBody: true };
  }
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}
