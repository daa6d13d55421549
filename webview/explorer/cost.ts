/**
 * The cost line and the count beside the grid, worded so that they agree:
 * the cost line says what the query (and its Load more pages) returned and
 * what was inserted or deleted since, the count what the grid holds now.
 */
import type { QueryResult } from "@protocol/entities";
import { formatCount, plural } from "@core/text/words";

type QueryCost = QueryResult["cost"];

/** Rows added to or taken from the grid since the query ran. */
export interface Edits {
  inserted: number;
  deleted: number;
}

/**
 * `1 request · 1 page · 0 continuation tokens followed · 4 entities · 12 ms · point · since then 2 inserted`,
 * with the elapsed time apart (it differs from run to run).
 */
export function costLine(c: QueryCost, badge: string | undefined, edits: Edits): { before: string; elapsed: string; after: string } {
  const since = [
    edits.inserted ? `${formatCount(edits.inserted)} inserted` : "",
    edits.deleted ? `${formatCount(edits.deleted)} deleted` : "",
  ].filter(Boolean);
  return {
    before: `${plural(c.requests, "request", "requests")} · ${plural(c.pages, "page", "pages")} · ${plural(c.continuationTokens, "continuation token", "continuation tokens")} followed · ${plural(c.entities, "entity", "entities")}`,
    elapsed: ` · ${formatCount(c.elapsedMs)} ms`,
    after: `${badge ? ` · ${badge}` : ""}${since.length ? ` · since then ${since.join(", ")}` : ""}`,
  };
}

/** `1,200 entities (more available)`. */
export function countLine(n: number, more: boolean): string {
  return `${plural(n, "entity", "entities")}${more ? " (more available)" : ""}`;
}
