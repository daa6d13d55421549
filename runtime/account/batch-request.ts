/**
 * An entity group transaction (one partition, at most 100 operations),
 * written as the service's multipart `$batch` body straight from rows and
 * sent through the table client's own pipeline (its credential, retries,
 * API version and our policies). The SDK's `submitTransaction` builds each
 * operation by running it through its generated client into an intercepting
 * pipeline — on an import that was more than half of the client's CPU,
 * competing with the service on a small machine. The body is the one the
 * SDK sends (the same request line, headers and JSON per operation); the
 * answer is read as the SDK reads it: the first operation the service
 * refused is an error with its status, code and message (`i:…`, the index
 * of the operation).
 */
import { randomUUID } from "node:crypto";
import { createDefaultHttpClient, createPipelineRequest, HttpClient, RestError } from "@azure/core-rest-pipeline";
import type { TableClient } from "@azure/data-tables";
import type { EntityRow } from "@protocol/entities";
import { utcDateTime } from "./values";

/** What a transaction holds: whole-entity upserts (Replace) and deletes, each delete only if the entity has `etag` (any, without). */
export type BatchAction = { kind: "upsert"; row: EntityRow } | { kind: "delete"; partitionKey: string; rowKey: string; etag?: string };

const CRLF = "\r\n";
let http: HttpClient | undefined;

/** Sends `actions` on `table` as one transaction; throws the service's refusal (RestError) when it wrote nothing. */
export async function submitBatch(
  client: TableClient,
  table: string,
  actions: readonly BatchAction[],
  abortSignal?: AbortSignal,
): Promise<void> {
  const [base, sas] = client.url.replace(/\/+(\?|$)/, "$1").split("?");
  const batch = `batch_${randomUUID()}`;
  const changeset = `changeset_${randomUUID()}`;
  const parts = [`--${batch}${CRLF}content-type: multipart/mixed; boundary=${changeset}${CRLF}${CRLF}`];
  for (const a of actions) parts.push(operation(a, `${base}/${table}`, changeset));
  const body = `${parts.join(CRLF)}${CRLF}--${changeset}--${CRLF}--${batch}--${CRLF}`;
  const request = createPipelineRequest({
    url: `${base}/$batch${sas ? `?${sas}` : ""}`,
    method: "POST",
    body,
    abortSignal,
    allowInsecureConnection: base.startsWith("http:"),
  });
  for (const [name, value] of Object.entries({
    Accept: "application/json",
    "x-ms-version": "2019-02-02",
    DataServiceVersion: "3.0;",
    MaxDataServiceVersion: "3.0;NetFx",
    "Content-Type": `multipart/mixed; boundary=${batch}`,
    "Accept-Charset": "UTF-8",
  }))
    request.headers.set(name, value);
  const response = await client.pipeline.sendRequest((http ??= createDefaultHttpClient()), request);
  const text = response.bodyAsText ?? "";
  if (response.status < 200 || response.status >= 300) throw refusal(text, response.status, request, response);
  // Each operation's answer follows a changeset boundary; a refused one carries the error (the service answers only up to it).
  for (const answer of text.split("--changesetresponse_").slice(1, -1)) {
    const status = Number(/HTTP\/1\.1 (\d+)/.exec(answer)?.[1]);
    if (!Number.isInteger(status))
      throw new RestError(`an answer of the transaction has no status: ${answer.slice(0, 200)}`, { request, response });
    const json = /\{(.*)\}/.exec(answer);
    if (status >= 300) throw refusal(json?.[0] ?? "", status, request, response);
  }
}

/** One operation of the changeset: its request line, headers and JSON body. */
function operation(a: BatchAction, tableUrl: string, changeset: string): string {
  const head = `--${changeset}${CRLF}content-type: application/http${CRLF}content-transfer-encoding: binary${CRLF}${CRLF}`;
  const keys = a.kind === "upsert" ? a.row : a;
  const url = `${tableUrl}(PartitionKey='${key(keys.partitionKey)}',RowKey='${key(keys.rowKey)}')`;
  if (a.kind === "delete")
    return `${head}DELETE ${url} HTTP/1.1${CRLF}Accept: application/json;odata=minimalmetadata${CRLF}DataServiceVersion: 3.0${CRLF}If-Match: ${a.etag ?? "*"}${CRLF}${CRLF}`;
  return `${head}PUT ${url} HTTP/1.1${CRLF}Content-Type: application/json${CRLF}DataServiceVersion: 3.0${CRLF}Accept: application/json${CRLF}${CRLF}${JSON.stringify(wireEntity(a.row))}`;
}

/** A key in an entity's address: quotes doubled, then URL-encoded. */
function key(k: string): string {
  return encodeURIComponent(k.replace(/'/g, "''"));
}

/**
 * The entity as the SDK writes it in JSON: strings and booleans as they are,
 * an Int32 as a number, every other type as text, each typed one with its
 * `@odata.type` (an Int32 too: a number alone could be a Double).
 */
export function wireEntity(row: EntityRow): Record<string, unknown> {
  const o: Record<string, unknown> = { PartitionKey: row.partitionKey, RowKey: row.rowKey };
  for (const name in row.properties) {
    const { type, value } = row.properties[name];
    if (type === "String") o[name] = value;
    else if (type === "Boolean") o[name] = value === "true";
    else {
      // An Int32 goes as a JSON number: the service refuses one written as a string (400 InvalidInput).
      o[name] = type === "Int32" ? Number(value) : type === "DateTime" ? utcDateTime(value) : value;
      o[`${name}@odata.type`] = `Edm.${type}`;
    }
  }
  return o;
}

/** The service's refusal as the SDK throws it: the message and code of its JSON error, the status. */
function refusal(body: string, statusCode: number, request: RestError["request"], response: RestError["response"]): RestError {
  let error: { code?: string; message?: { value?: string } } | undefined;
  try {
    error = (JSON.parse(body) as { "odata.error"?: typeof error })["odata.error"];
  } catch {
    error = undefined;
  }
  return new RestError(error?.message?.value ?? "Transaction Failed", { code: error?.code, statusCode, request, response });
}
