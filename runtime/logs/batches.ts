/**
 * A batch (entity group transaction) counted as what it is: one request
 * on one partition, whose entities are its operations. The request's log
 * line names the partition; when the log also holds its operations as
 * lines of their own — with the batch's CorrelationId (request id) and an
 * OperationCount of 1, 2… — each of them is one of the batch's entities,
 * not another request. Only the most recent batches are remembered, so
 * memory stays bounded; an operation line whose batch is not among them is
 * read as a request of its own.
 */
import type { LogRecord } from "./record";

/** Batches whose operations may still follow (a batch's operations come right after it). */
export const OPEN_BATCHES = 10_000;

export class BatchLinker {
  private readonly open = new Map<string, { batch: LogRecord; operations: number }>();

  /** Notes a batch's request line. */
  batch(r: LogRecord): void {
    if (!r.correlationId) return;
    this.open.delete(r.correlationId);
    this.open.set(r.correlationId, { batch: r, operations: 0 });
    // Maps keep insertion order: the first key is the oldest batch.
    if (this.open.size > OPEN_BATCHES) this.open.delete(this.open.keys().next().value!);
  }

  /** The batch `r` is an operation of, and how many of its operations came before `r`; undefined for a request of its own. */
  operationOf(r: LogRecord): { batch: LogRecord; before: number } | undefined {
    if (!r.correlationId || !r.operationIndex || r.op === "batch") return undefined;
    const open = this.open.get(r.correlationId);
    if (!open) return undefined;
    return { batch: open.batch, before: open.operations++ };
  }

  /** Batches remembered (for the boundedness test). */
  get size(): number {
    return this.open.size;
  }
}
