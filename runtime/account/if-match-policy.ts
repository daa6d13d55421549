/**
 * Conditional deletes in an entity group transaction. The SDK's batch
 * delete (`["delete", entity]`) always sends `If-Match: *`: it deletes
 * whatever is there, even an entity changed since it was read. This
 * pipeline policy gives each DELETE of a batch sent inside `withIfMatch`
 * the ETag its caller read, in order, so the service refuses the whole
 * batch (412) when any of them changed. The ETags travel in an
 * AsyncLocalStorage context (the SDK passes no per-request header of a
 * transaction to its pipeline), so concurrent batches never mix them up.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { PipelinePolicy } from "@azure/core-rest-pipeline";

const etagsOfBatch = new AsyncLocalStorage<string[]>();

/** Runs `send` (one batch of deletes) with `etags`, one per delete, in the batch's order. */
export function withIfMatch<T>(etags: string[], send: () => Promise<T>): Promise<T> {
  return etagsOfBatch.run(etags, send);
}

export const ifMatchPolicy: PipelinePolicy = {
  name: "tdlBatchIfMatch",
  async sendRequest(request, next) {
    const etags = etagsOfBatch.getStore();
    if (etags && request.url.includes("$batch")) {
      if (typeof request.body !== "string") throw new Error("a conditional batch must have a text body");
      let i = 0;
      request.body = request.body.replace(/^(DELETE [^\r\n]*\r\n(?:[^\r\n]+\r\n)*?)If-Match: \*\r\n/gm, (_, head: string) => {
        const etag = etags[i++];
        if (etag === undefined) throw new Error("more deletes in the batch than ETags given");
        return `${head}If-Match: ${etag}\r\n`;
      });
      if (i !== etags.length) throw new Error(`the batch has ${i} deletes, ${etags.length} ETags were given`);
      // The SDK set the length of the body it built: the body is longer now.
      if (request.headers.has("content-length")) request.headers.set("content-length", Buffer.byteLength(request.body));
    }
    return next(request);
  },
};
