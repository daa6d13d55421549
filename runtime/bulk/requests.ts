/**
 * The requests a bulk job makes, each through the job's throttle-aware path
 * (runtime/net/throttled.ts): the plan's probes, pages of a range, and every
 * page of a filter (a delete's dry run, a verification, the keys an import
 * finds already there).
 */
import type { EntityRow } from "@protocol/entities";
import type { AccountSession } from "../account/session";
import type { PageReader } from "../infer/sample";
import type { ThrottledPath } from "../net/throttled";

/** A page reader whose every request goes through `net` (a probe costs what it returns, at least one). */
export function throttledReader(reader: PageReader, net: ThrottledPath): PageReader {
  return { page: (q, signal) => net.send(() => reader.page(q, signal), { after: (p) => p.entities.length }) };
}

/** Every entity `filter` selects, a page at a time through `net`, handed to `each` as it comes. */
export async function eachPage(
  session: AccountSession,
  table: string,
  net: ThrottledPath,
  q: { filter?: string; select?: string[] },
  each: (entities: EntityRow[]) => void,
): Promise<void> {
  let token: string | undefined;
  do {
    const page = await net.send(() => session.page(table, { ...q, continuationToken: token, pageSize: 1000, signal: net.signal }), {
      before: 1000,
      after: (p) => p.entities.length,
    });
    each(page.entities);
    token = page.continuationToken;
  } while (token && !net.signal?.aborted);
}
