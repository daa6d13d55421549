/**
 * Splits a table into PartitionKey ranges to read in parallel: the split
 * points are quantiles of the partition keys a spread-out sample found, so
 * each range holds about as many of the sampled entities. A split point is a
 * partition key, so a partition never spans two ranges (its entities stay in
 * one file, in order, and an import batches them together).
 */
import { stringLiteral as quote } from "@core";

export interface KeyRange {
  from: string;
  to?: string;
}

/** At most `n` ranges covering every key, from the partition keys of a sample (one per sampled entity). */
export function splitRanges(sampledPartitionKeys: string[], n: number): KeyRange[] {
  const keys = [...sampledPartitionKeys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const points: string[] = [];
  for (let i = 1; i < n; i++) {
    const k = keys[Math.floor((i * keys.length) / n)];
    if (k !== undefined && k !== "" && k !== points[points.length - 1]) points.push(k);
  }
  const ranges: KeyRange[] = [];
  let from = "";
  for (const p of points) {
    ranges.push({ from, to: p });
    from = p;
  }
  ranges.push({ from });
  return ranges;
}

/** The filter that reads a range (none for the whole table). */
export function rangeFilter(r: KeyRange): string | undefined {
  const upper = r.to !== undefined ? `PartitionKey lt ${quote(r.to)}` : undefined;
  const lower = r.from !== "" ? `PartitionKey ge ${quote(r.from)}` : undefined;
  return [lower, upper].filter(Boolean).join(" and ") || undefined;
}
