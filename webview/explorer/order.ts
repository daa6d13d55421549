/**
 * Where an entity belongs among the rows the service returned: Azure Table
 * Storage returns entities in PartitionKey, then RowKey order, comparing
 * strings by their UTF-16 code units (JavaScript's own `<`), so a row added
 * by the page goes where the service would have put it.
 */

interface Keyed {
  partitionKey: string;
  rowKey: string;
}

/** Negative, zero or positive as `a` sorts before, with or after `b`. */
export function compareKeys(a: Keyed, b: Keyed): number {
  if (a.partitionKey !== b.partitionKey) return a.partitionKey < b.partitionKey ? -1 : 1;
  if (a.rowKey !== b.rowKey) return a.rowKey < b.rowKey ? -1 : 1;
  return 0;
}

/** The first index whose row sorts at or after `row` (binary search: the rows are in the service's order). */
export function insertionIndex(rows: readonly Keyed[], row: Keyed): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(rows[mid], row) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export type Placement =
  /** Shown at `index`. */
  | { where: "shown"; index: number }
  /** Sorts after the last loaded row while more pages remain: the next page brings it. */
  | { where: "later" };

/**
 * Where a new row goes in the loaded rows. With more pages to come, a row
 * that sorts after the last loaded one is left to them (shown now, it
 * would sit out of order and come again with its page).
 */
export function placeRow(rows: readonly Keyed[], row: Keyed, moreToCome: boolean): Placement {
  const index = insertionIndex(rows, row);
  if (moreToCome && index === rows.length) return { where: "later" };
  return { where: "shown", index };
}
