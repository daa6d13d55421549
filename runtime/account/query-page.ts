/**
 * One page of a query, sent through the table client's own pipeline (its
 * credential, retries, the service's API version and our policies) and read
 * straight from the service's JSON into rows. The SDK's `listEntities` maps
 * each entity twice (its serializer's mappers, then its own Edm
 * deserializer) before we map it a third time: on a bulk export that was
 * most of the client's CPU, competing with the service on a small machine.
 * The request is the SDK's (`GET /T()?$filter&$select&$top&NextPartitionKey&
 * NextRowKey`, same headers); the continuation token is the SDK's encoding
 * (base64 JSON), so tokens pass between the two.
 */
import { createPipelineRequest } from "@azure/core-rest-pipeline";
import type { TableClient } from "@azure/data-tables";
import { EDM_TYPES, EdmType, EntityRow, PageResult, TypedValue } from "@protocol/entities";
import { InputError } from "@core/errors";
import { sendThrough, serviceError } from "./client-request";
import { typed } from "./values";

/** What the SDK sends with a query (its generated operation's constants). */
const HEADERS = {
  Accept: "application/json;odata=minimalmetadata",
  "x-ms-version": "2019-02-02",
  DataServiceVersion: "3.0",
};

export interface PageQuery {
  filter?: string;
  select?: string[];
  continuationToken?: string;
  pageSize?: number;
}

/** One page of `table`'s entities that `q` selects, as rows (the SDK's `listEntities(…).byPage()`, one request). */
export async function queryPage(client: TableClient, table: string, q: PageQuery, abortSignal: AbortSignal): Promise<PageResult> {
  const params: string[] = [];
  const add = (name: string, value: string | undefined) => {
    if (value) params.push(`${name}=${encodeURIComponent(urlSafe(name, value))}`);
  };
  add("$top", q.pageSize === undefined ? undefined : String(q.pageSize));
  add("$select", selectList(q.select));
  add("$filter", q.filter);
  const next = q.continuationToken ? decodeToken(q.continuationToken) : undefined;
  add("NextPartitionKey", next?.nextPartitionKey);
  add("NextRowKey", next?.nextRowKey);
  const base = client.url.replace(/\/+$/, "");
  const query = params.length ? `?${params.join("&")}` : "";
  const request = createPipelineRequest({
    url: `${base}/${encodeURIComponent(table)}()${query}`,
    method: "GET",
    abortSignal,
    allowInsecureConnection: base.startsWith("http:"),
  });
  for (const [name, value] of Object.entries(HEADERS)) request.headers.set(name, value);
  const response = await sendThrough(client, request);
  const body = response.bodyAsText ?? "";
  if (response.status >= 300) throw serviceError(body, response.status, request, response, `the service answered ${response.status}`);
  // The client's pipeline parses a JSON body already (its deserialization policy, without an operation to map it to).
  const already = (response as { parsedBody?: unknown }).parsedBody;
  const parsed = (already && typeof already === "object" ? already : body ? JSON.parse(body) : {}) as {
    value?: Array<Record<string, unknown>>;
  };
  return {
    entities: (parsed.value ?? []).map(rowOfWire),
    continuationToken: encodeToken(
      response.headers.get("x-ms-continuation-NextPartitionKey"),
      response.headers.get("x-ms-continuation-NextRowKey"),
    ),
  };
}

/**
 * A query parameter a URL can carry: a lone surrogate (half of an astral
 * character) has no UTF-8 form, so it is refused with its position instead
 * of failing inside encodeURIComponent as "URI malformed".
 */
function urlSafe(name: string, value: string): string {
  const at = value.search(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  if (at >= 0)
    throw new InputError(
      `the query's ${name} holds a lone surrogate (U+${value.charCodeAt(at).toString(16).toUpperCase()}) at character ${at + 1}: a request cannot carry half of a character`,
    );
  return value;
}

/** The names of `$select`, as the SDK sends them (keys by their wire names; the ETag always comes). */
function selectList(select: string[] | undefined): string | undefined {
  if (!select?.length) return undefined;
  const wire: Record<string, string> = { partitionKey: "PartitionKey", rowKey: "RowKey", timestamp: "Timestamp" };
  const names = select.filter((p) => p !== "etag" && p !== "odata.etag").map((p) => wire[p] ?? p);
  return names.length ? names.join(",") : undefined;
}

const EDM = new Set<string>(EDM_TYPES);

/**
 * An entity as the service writes it in JSON (minimal metadata) to a row: a
 * property's type is its `@odata.type` annotation, else what JSON says — a
 * boolean, a string, an integer within 32 bits (Int32), another number
 * (Double; the pipeline's Double policy annotates `5.0`).
 */
export function rowOfWire(o: Record<string, unknown>): EntityRow {
  const properties: Record<string, TypedValue> = {};
  const row: EntityRow = { partitionKey: "", rowKey: "", properties };
  for (const key in o) {
    const value = o[key];
    switch (key) {
      case "PartitionKey":
        row.partitionKey = String(value ?? "");
        continue;
      case "RowKey":
        row.rowKey = String(value ?? "");
        continue;
      case "odata.etag":
        row.etag = String(value);
        continue;
      case "Timestamp":
        row.timestamp = String(value);
        continue;
      case "odata.metadata":
        continue;
    }
    if (key.includes("@odata.type")) continue;
    const annotation = o[`${key}@odata.type`];
    if (annotation !== undefined) {
      const type = String(annotation).replace(/^Edm\./, "");
      if (!EDM.has(type)) throw new Error(`the service returned ${key} as ${String(annotation)}, a type Table storage does not have`);
      properties[key] = { type: type as EdmType, value: String(value) };
    } else properties[key] = typed(value);
  }
  return row;
}

/** The SDK's continuation token: base64 of `{"nextPartitionKey","nextRowKey"}`. */
function encodeToken(nextPartitionKey: string | null | undefined, nextRowKey: string | null | undefined): string | undefined {
  if (!nextPartitionKey) return undefined;
  return Buffer.from(JSON.stringify({ nextPartitionKey, ...(nextRowKey ? { nextRowKey } : {}) }), "utf8").toString("base64");
}

function decodeToken(token: string): { nextPartitionKey?: string; nextRowKey?: string } {
  try {
    const t = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as { nextPartitionKey?: unknown; nextRowKey?: unknown };
    return {
      nextPartitionKey: typeof t.nextPartitionKey === "string" ? t.nextPartitionKey : undefined,
      nextRowKey: typeof t.nextRowKey === "string" ? t.nextRowKey : undefined,
    };
  } catch {
    throw new Error("the continuation token is not one a query returned");
  }
}
