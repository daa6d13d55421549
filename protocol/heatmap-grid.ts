/**
 * The key-space heatmap's grid and colour scale, in one place for every
 * heatmap: the emulator's live panel (webview/heatmap/), the panel of a
 * service's logs, and the HTML page `tdl heatmap --logs` writes
 * (runtime/logs/html.ts). Partition keys in key order grouped into rows
 * labelled by their first key, a cell per row and column with the entities
 * of its keys added up, and colour on a log scale (viridis) for entities
 * served; throttled entities are drawn apart (outlined). Pure: no DOM, no Node.
 */
import type { PartitionTraffic } from "./traffic";
import { formatCount } from "@core/text/words";

export type Cell = PartitionTraffic;

export interface Grid {
  /** Each row's keys, in key order. */
  rows: string[][];
  /** cells[column][row]; undefined where nothing happened. */
  cells: Array<Array<Cell | undefined>>;
  /** The largest entities served (read and written) of a cell (at least 1). */
  max: number;
  /** Partition keys in the grid. */
  keys: number;
}

/** Key order as the service orders PartitionKeys: by UTF-16 code units (JavaScript's own `<`). */
export function keyOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The grid of `columns` (each the cells of its keys; a key may come more
 * than once in a column, and is added up): the keys `inRange` keeps, in key
 * order, grouped into at most `maxRows` rows.
 */
export function keyGrid(
  columns: ReadonlyArray<Iterable<readonly [string, Cell]> | undefined>,
  maxRows: number,
  inRange: (key: string) => boolean = () => true,
): Grid {
  const seen = new Set<string>();
  for (const column of columns) for (const [k] of column ?? []) if (inRange(k)) seen.add(k);
  const keys = [...seen].sort(keyOrder);
  const perRow = Math.max(1, Math.ceil(keys.length / Math.max(1, maxRows)));
  const rows: string[][] = [];
  for (let i = 0; i < keys.length; i += perRow) rows.push(keys.slice(i, i + perRow));
  const rowOf = new Map<string, number>();
  rows.forEach((r, i) => r.forEach((k) => rowOf.set(k, i)));
  let max = 1;
  const cells = columns.map((column) => {
    const out: Array<Cell | undefined> = new Array(rows.length);
    for (const [k, c] of column ?? []) {
      const r = rowOf.get(k);
      if (r === undefined) continue;
      const cell = (out[r] ??= { reads: 0, writes: 0, throttled: 0 });
      cell.reads += c.reads;
      cell.writes += c.writes;
      cell.throttled += c.throttled;
      max = Math.max(max, cell.reads + cell.writes);
    }
    return out;
  });
  return { rows, cells, max, keys: keys.length };
}

/** Viridis at five stops: even steps in lightness, readable by people with colour-vision deficiencies, distinct from light and dark backgrounds. */
const STOPS: Array<[number, number, number]> = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** The colour of `v` in 0..1. */
export function scaleColour(v: number): string {
  const x = Math.max(0, Math.min(1, v)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [STOPS[i], STOPS[i + 1]];
  const mix = (k: number) => Math.round(a[k] + (b[k] - a[k]) * f);
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** Where 0..1 of the scale sits for `rate` when the largest cell has `max` (log scale: quiet keys stay visible). */
export function scalePosition(rate: number, max: number): number {
  return rate > 0 ? Math.log1p(rate) / Math.log1p(Math.max(1, max)) : 0;
}

/** The rate at position `v` of the scale (the legend's labels). */
export function rateAt(v: number, max: number): number {
  return Math.round(Math.expm1(v * Math.log1p(Math.max(1, max))));
}

/** A row's label and its keys in words: the key, or `first … last (N keys)`. */
export function rowLabel(keys: readonly string[]): string {
  return keys.length === 1 ? keys[0] : `${keys[0]} … ${keys[keys.length - 1]} (${formatCount(keys.length)} keys)`;
}
