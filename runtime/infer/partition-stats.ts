/**
 * Load facts of a sample: entities per partition, their distribution as a
 * histogram (powers of ten), the hottest partitions, and the average entity
 * size by Azure's formula.
 */
import { formatCount, plural } from "@core/text/words";
import { Row } from "./values";

export interface HistogramBin {
  /** Partitions holding from `from` to `to` sampled entities. */
  from: number;
  to: number;
  partitions: number;
  entities: number;
}

export interface PartitionStats {
  partitions: number;
  /** The histogram and hottest partitions come from a count of the whole table, not the sample. */
  counted: boolean;
  histogram: HistogramBin[];
  hottest: Array<{ partitionKey: string; entities: number; share: number; exact?: number }>;
  /** Average entity size in bytes by Azure's formula (keys, properties, names). */
  averageEntityBytes: number;
}

/** How many hottest partitions are listed. */
const HOTTEST = 5;

/**
 * `rows` are the sample; `propertyBytes(r)` the bytes of a row's
 * properties; `extraBytes` what properties left out of later reads
 * ($select) add on average; `exactCounts` partitions counted in full, and
 * `complete` when that is every partition of the table (the histogram and
 * the hottest partitions then describe the table, not the sample).
 */
export function partitionStats(
  rows: readonly Row[],
  propertyBytes: (r: Row) => number,
  extraBytes = 0,
  exactCounts: ReadonlyMap<string, number> = new Map(),
  complete = false,
): PartitionStats {
  const sampled = new Map<string, number>();
  let bytes = 0;
  for (const r of rows) {
    sampled.set(r.pk, (sampled.get(r.pk) ?? 0) + 1);
    bytes += 4 + 2 * (r.pk.length + r.rk.length) + propertyBytes(r);
  }
  const counts = complete && exactCounts.size ? exactCounts : sampled;
  const total = [...counts.values()].reduce((s, n) => s + n, 0);
  const bins: HistogramBin[] = [];
  for (const n of counts.values()) {
    const from = 10 ** Math.floor(Math.log10(n));
    let bin = bins.find((b) => b.from === from);
    if (!bin) bins.push((bin = { from, to: from * 10 - 1, partitions: 0, entities: 0 }));
    bin.partitions++;
    bin.entities += n;
  }
  bins.sort((a, b) => a.from - b.from);
  const hottest = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, HOTTEST)
    .map(([partitionKey, entities]) => ({
      partitionKey,
      entities,
      share: total ? entities / total : 0,
      exact: exactCounts.get(partitionKey),
    }));
  return {
    partitions: counts.size,
    counted: counts !== sampled,
    histogram: bins,
    hottest,
    averageEntityBytes: rows.length ? bytes / rows.length + extraBytes : 0,
  };
}

/** A histogram as text lines, bars scaled to the largest bin. */
export function histogramLines(bins: readonly HistogramBin[], width = 30): string[] {
  const most = Math.max(1, ...bins.map((b) => b.partitions));
  const label = (b: HistogramBin) => (b.from === 1 ? "1–9" : `${formatCount(b.from)}–${formatCount(b.to)}`);
  const pad = Math.max(0, ...bins.map((b) => label(b).length));
  return bins.map(
    (b) =>
      `${label(b).padEnd(pad)} entities  ${"█".repeat(Math.max(1, Math.round((b.partitions / most) * width)))} ${plural(b.partitions, "partition")}`,
  );
}
