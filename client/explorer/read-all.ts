/**
 * Reads every entity a filter returns (or the whole table), page by page,
 * reporting how many have been read, until the service has no continuation
 * token left or the signal aborts. An abort is not an error: the caller
 * learns that the read is incomplete and writes nothing.
 */
import type { AccountSession } from "@runtime";
import type { EntityRow } from "@protocol";

export interface ReadAll {
  rows: EntityRow[];
  /** False when the read was cancelled before the last page. */
  complete: boolean;
}

export async function readAll(
  session: AccountSession,
  table: string,
  query: { filter?: string; select?: string[] },
  onProgress: (read: number) => void,
  signal: AbortSignal,
): Promise<ReadAll> {
  const rows: EntityRow[] = [];
  let token: string | undefined;
  do {
    if (signal.aborted) return { rows, complete: false };
    let page;
    try {
      page = await session.page(table, { ...query, continuationToken: token, signal });
    } catch (e) {
      if (signal.aborted) return { rows, complete: false };
      throw e;
    }
    for (const r of page.entities) rows.push(r);
    token = page.continuationToken;
    onProgress(rows.length);
  } while (token);
  return { rows, complete: true };
}
