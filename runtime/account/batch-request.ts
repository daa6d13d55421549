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
import { createPipelineRequest, RestError } from "@azure/core-rest-pipeline";
import type { TableClient } from "@azure/data-tables";
import type { EntityRow } from "@protocol/entities";
import { InputError } from "@core/errors";
import { sendThrough, serviceError } from "./client-request";
import { wireEntity } from "./values";

/**
 * What a transaction holds: whole-entity upserts (Replace), upserts that
 * merge the row's properties into an entity that exists (Merge), inserts
 * (refused, 409, when the entity exists: the whole transaction then writes
 * nothing), and deletes, each delete only if the entity has `etag` (any,
 * without).
 */
export type BatchAction =
  | { kind: "upsert"; row: EntityRow }
  | { kind: "insert"; row: EntityRow }
  | { kind: "merge"; row: EntityRow }
  | { kind: "delete"; partitionKey: string; rowKey: string; etag?: string };

const CRLF = "\r\n";

/**
 * Sends `actions` on `table` as one transaction; throws the service's
 * refusal (RestError) when it wrote nothing. Returns each operation's ETag
 * as the service answered it (undefined for a delete).
 */
export async function submitBatch(
  client: TableClient,
  table: string,
  actions: readonly BatchAction[],
  abortSignal?: AbortSignal,
): Promise<Array<string | undefined>> {
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
  const response = await sendThrough(client, request);
  const text = response.bodyAsText ?? "";
  if (response.status < 200 || response.status >= 300) throw serviceError(text, response.status, request, response, "Transaction Failed");
  // Each operation's answer follows a changeset boundary; a refused one carries the error (the service answers only up to it).
  const etags: Array<string | undefined> = [];
  for (const answer of text.split("--changesetresponse_").slice(1, -1)) {
    const status = Number(/HTTP\/1\.1 (\d+)/.exec(answer)?.[1]);
    if (!Number.isInteger(status))
      throw new RestError(`an answer of the transaction has no status: ${answer.slice(0, 200)}`, { request, response });
    const json = /\{(.*)\}/.exec(answer);
    if (status >= 300) throw serviceError(json?.[0] ?? "", status, request, response, "Transaction Failed");
    etags.push(/^etag: *(.+?)\r?$/im.exec(answer)?.[1]);
  }
  return etags;
}

/** One operation of the changeset: its request line, headers and JSON body. */
function operation(a: BatchAction, tableUrl: string, changeset: string): string {
  const head = `--${changeset}${CRLF}content-type: application/http${CRLF}content-transfer-encoding: binary${CRLF}${CRLF}`;
  const keys = a.kind === "delete" ? a : a.row;
  const url = `${tableUrl}(PartitionKey='${key(keys.partitionKey)}',RowKey='${key(keys.rowKey)}')`;
  if (a.kind === "insert")
    return `${head}POST ${tableUrl} HTTP/1.1${CRLF}Content-Type: application/json${CRLF}Accept: application/json;odata=minimalmetadata${CRLF}Prefer: return-no-content${CRLF}DataServiceVersion: 3.0${CRLF}${CRLF}${json(wireEntity(a.row))}`;
  if (a.kind === "delete")
    return `${head}DELETE ${url} HTTP/1.1${CRLF}Accept: application/json;odata=minimalmetadata${CRLF}DataServiceVersion: 3.0${CRLF}If-Match: ${a.etag ?? "*"}${CRLF}${CRLF}`;
  // Insert-or-merge is MERGE without If-Match, as insert-or-replace is PUT without it.
  return `${head}${a.kind === "merge" ? "MERGE" : "PUT"} ${url} HTTP/1.1${CRLF}Content-Type: application/json${CRLF}DataServiceVersion: 3.0${CRLF}Accept: application/json${CRLF}${CRLF}${json(wireEntity(a.row))}`;
}

/**
 * An operation's JSON with U+2028 and U+2029 escaped: JSON allows them raw,
 * but a multipart reader that splits lines on them (Azurite's) cuts the body
 * there and answers 500; escaped, every reader gets the same string.
 */
function json(o: unknown): string {
  return JSON.stringify(o).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A key in an entity's address: quotes doubled, then URL-encoded; a lone surrogate is refused by name (no URL can carry it). */
function key(k: string): string {
  const at = k.search(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  if (at >= 0)
    throw new InputError(
      `the key '${k.slice(0, 40)}' holds a lone surrogate (U+${k.charCodeAt(at).toString(16).toUpperCase()}) at character ${at + 1}: a request cannot address it`,
    );
  return encodeURIComponent(k.replace(/'/g, "''"));
}
