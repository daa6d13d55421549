/**
 * Requests this project builds itself (a page of a query, a `$batch`), sent
 * through a table client's own pipeline — its credential, retries, the
 * service's API version and our policies — over one shared HTTP client, and
 * the service's refusal of one as the SDK throws it.
 */
import { createDefaultHttpClient, HttpClient, PipelineRequest, PipelineResponse, RestError } from "@azure/core-rest-pipeline";
import type { TableClient } from "@azure/data-tables";

let http: HttpClient | undefined;

export function sendThrough(client: TableClient, request: PipelineRequest): Promise<PipelineResponse> {
  return client.pipeline.sendRequest((http ??= createDefaultHttpClient()), request);
}

/**
 * A refusal: the message and code of the body's JSON `odata.error` (the code
 * from the `x-ms-error-code` header when the body has none), else the body's
 * text, else `fallback`; with the status it came with.
 */
export function serviceError(
  body: string,
  statusCode: number,
  request: PipelineRequest,
  response: PipelineResponse,
  fallback: string,
): RestError {
  let error: { code?: string; message?: { value?: string } } | undefined;
  let message: string | undefined;
  try {
    error = (JSON.parse(body) as { "odata.error"?: typeof error })["odata.error"];
    message = error?.message?.value;
  } catch {
    message = body.trim() ? body.slice(0, 500) : undefined;
  }
  const code = error?.code || response.headers.get("x-ms-error-code") || undefined;
  return new RestError(message ?? fallback, { code, statusCode, request, response });
}
