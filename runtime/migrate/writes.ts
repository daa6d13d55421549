/**
 * The three writes a migration makes, one request each, so that the
 * backfill converges with the application's dual writes without a change
 * feed: an insert that only creates what is absent (a row there already is
 * a dual write's, newer than the old table's copy, and is kept); a delete
 * only of the row the backfill itself inserted (its ETag), for an old
 * entity deleted while its copy was on the way; and, for `verify --repair`,
 * a replace and a delete guarded by the ETag read, so a write that lands
 * between the comparison and the repair is never overwritten.
 *
 * Rows come typed as the core re-keys them (TypedEntity): their types are the
 * Edm names read from the service or written by `rekey`, so they are sent as
 * they are.
 */
import type { TypedEntity } from "@core";
import type { EntityRow } from "@protocol/entities";
import type { AccountSession } from "../account/session";
import { toEntity } from "../account/values";
import { submitBatch } from "../account/batch-request";

const statusOf = (e: unknown) => (e as { status?: number; statusCode?: number }).status ?? (e as { statusCode?: number }).statusCode;

/** Inserts the row if its keys are free: its ETag, or undefined when a row with those keys is there (409). */
export async function insertIfAbsent(
  session: AccountSession,
  table: string,
  row: TypedEntity,
  signal?: AbortSignal,
): Promise<string | undefined> {
  try {
    const r = await session.call(
      (abortSignal) => session.clients.table(table).createEntity(toEntity(row as EntityRow), { abortSignal }),
      signal,
    );
    return r.etag ?? "*";
  } catch (e) {
    if (statusOf(e) === 409) return undefined;
    throw e;
  }
}

/**
 * Inserts rows of one partition (at most a transaction's) in one entity
 * group transaction where none exists; when one does (409, nothing written),
 * each alone. For each row: whether it was inserted, and its ETag when the
 * answer gave it.
 */
export async function insertAllIfAbsent(
  session: AccountSession,
  table: string,
  rows: readonly TypedEntity[],
  signal?: AbortSignal,
): Promise<Array<{ inserted: boolean; etag?: string }>> {
  if (rows.length > 1)
    try {
      const actions = rows.map((row) => ({ kind: "insert" as const, row: row as EntityRow }));
      const etags = await session.call(
        (abortSignal) => submitBatch(session.clients.table(table), table, actions, abortSignal),
        signal,
        "batchUpsert",
      );
      return etags.map((etag) => ({ inserted: true, etag }));
    } catch (e) {
      if (statusOf(e) !== 409) throw e;
    }
  const out: Array<{ inserted: boolean; etag?: string }> = [];
  for (const row of rows) {
    const etag = await insertIfAbsent(session, table, row, signal);
    out.push({ inserted: etag !== undefined, etag });
  }
  return out;
}

/** Deletes the row only while it has `etag` (`*`: whatever it holds): true when deleted, false when gone or changed (404, 412). */
export async function deleteIfMatch(
  session: AccountSession,
  table: string,
  key: { partitionKey: string; rowKey: string },
  etag: string,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    await session.call(
      (abortSignal) => session.clients.table(table).deleteEntity(key.partitionKey, key.rowKey, { abortSignal, etag }),
      signal,
    );
    return true;
  } catch (e) {
    const status = statusOf(e);
    if (status === 404 || status === 412) return false;
    throw e;
  }
}

/** Replaces the row while it has `etag`, or inserts it when `etag` is undefined (absent): false when someone wrote first. */
export async function writeIfUnchanged(
  session: AccountSession,
  table: string,
  row: TypedEntity,
  etag: string | undefined,
  signal?: AbortSignal,
): Promise<boolean> {
  if (etag === undefined) return (await insertIfAbsent(session, table, row, signal)) !== undefined;
  try {
    await session.call(
      (abortSignal) => session.clients.table(table).updateEntity(toEntity(row as EntityRow), "Replace", { abortSignal, etag }),
      signal,
    );
    return true;
  } catch (e) {
    const status = statusOf(e);
    if (status === 404 || status === 412) return false;
    throw e;
  }
}
