/**
 * Deletes the entities the page shows, each only if it is still the version
 * the page read: one conditional delete (If-Match: its ETag) per entity, a
 * few at a time. The SDK's transactions always delete unconditionally, so
 * batches cannot carry the ETags; one request each also means a changed
 * entity keeps only itself, not its whole batch.
 */
import { AccountError, ConflictError, type AccountSession } from "@runtime";
import type { EntityVersion } from "@protocol/pages";

/** Conditional deletes in flight at once: quick on a real account, gentle on the emulator. */
const PARALLEL = 8;

export interface DeleteOutcome {
  deleted: number;
  /** Changed since the page read them (ETag mismatch): left as they are. */
  kept: number;
  /** Already gone when asked. */
  missing: number;
}

export async function deleteVersions(
  session: AccountSession,
  table: string,
  entities: EntityVersion[],
  onProgress: (done: number, total: number) => void,
  signal: AbortSignal,
): Promise<DeleteOutcome> {
  const outcome: DeleteOutcome = { deleted: 0, kept: 0, missing: 0 };
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < entities.length && !signal.aborted && failure === undefined) {
      const e = entities[next++];
      try {
        await session.call(
          (abortSignal) => session.clients.table(table).deleteEntity(e.partitionKey, e.rowKey, { abortSignal, etag: e.etag }),
          signal,
        );
        outcome.deleted++;
      } catch (err) {
        if (err instanceof ConflictError) outcome.kept++;
        else if (err instanceof AccountError && err.code === "ResourceNotFound") outcome.missing++;
        else failure ??= err;
      }
      onProgress(outcome.deleted + outcome.kept + outcome.missing, entities.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, entities.length) }, worker));
  if (failure !== undefined) {
    const why = failure instanceof Error ? failure.message : String(failure);
    throw new AccountError(
      `${why} (${outcome.deleted} of ${entities.length} deleted before that)`,
      failure instanceof AccountError ? failure.code : "Error",
    );
  }
  return outcome;
}
