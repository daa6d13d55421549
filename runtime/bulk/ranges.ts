/**
 * Splits a table into PartitionKey ranges to read in parallel. The split
 * points are partition keys found by bisecting the key space: each probe
 * asks for the first key at or after the middle of the widest gap between
 * keys already found (one key, PartitionKey only, a tiny response), a round
 * of probes at a time. The anchors follow where the keys are — a probe into
 * an empty stretch lands on the next key — so the ranges between them hold
 * about equal shares of the table's keys. A split point is a partition key,
 * so a partition never spans two ranges (its entities stay in one file, in
 * order, and an import batches them together).
 */
import { stringLiteral as quote } from "@core";
import type { PageReader } from "../infer/sample";
import { END, midpoint } from "../infer/key-space";

export interface KeyRange {
  from: string;
  to?: string;
}

/** At most `n` ranges covering every key, split at evenly spaced keys of `partitionKeys` (anchors, or a sample's keys). */
export function splitRanges(partitionKeys: readonly string[], n: number): KeyRange[] {
  const keys = [...new Set(partitionKeys)].sort(byCodeUnits);
  const points: string[] = [];
  for (let i = 1; i < n; i++) {
    const k = keys[Math.floor((i * keys.length) / n)];
    if (k !== undefined && k !== keys[0] && k !== points[points.length - 1]) points.push(k);
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

/** Probes that find a key the plan makes at most: 2⁶ − 1, in rounds of 1, 2, 4 … */
export const PLAN_PROBES = 63;
/** Probes that find nothing (they narrow a gap down to where the keys are, and cost a tiny response), at most. */
const EMPTY_PROBES = 64;

/**
 * Partition keys spread over the table's key space (sorted, distinct), found
 * with requests of one key each: at most `probes` that find one and
 * `EMPTY_PROBES` that do not. A round's probes run at once. An empty table
 * gives none.
 */
export async function anchorKeys(reader: PageReader, probes = PLAN_PROBES, signal?: AbortSignal): Promise<string[]> {
  const one = async (from: string | undefined) => {
    const page = await reader.page(
      { filter: from === undefined ? undefined : `PartitionKey ge ${quote(from)}`, select: ["PartitionKey"], pageSize: 1 },
      signal,
    );
    return page.entities[0]?.partitionKey;
  };
  const first = await one(undefined);
  if (first === undefined) return [];
  const keys: string[] = [];
  const chars = new Set<number>();
  const learn = (k: string) => {
    keys.push(k);
    for (let i = 0; i < k.length && i < 64; i++) chars.add(k.charCodeAt(i));
  };
  learn(first);
  /** Stretches of the key space not known to be empty: after a key found, before the next key or a bound nothing lies at or past. */
  let gaps: Array<{ from: string; to: string }> = [{ from: first, to: END }];
  let found = 1;
  let empty = 0;
  for (let round = 1; found < probes + 1 && empty < EMPTY_PROBES && gaps.length && !signal?.aborted; round *= 2) {
    const space = new KeySpace([...chars].sort((a, b) => a - b));
    const measured = gaps.map((g) => ({ ...g, width: space.width(g.from, g.to), mid: space.middle(g.from, g.to) }));
    const widest = measured
      .filter((g): g is typeof g & { mid: string } => g.mid !== undefined && g.width > 0)
      .sort((a, b) => b.width - a.width)
      .slice(0, Math.max(1, Math.min(round, probes + 1 - found)));
    if (!widest.length) break;
    const next = await Promise.all(widest.map((g) => one(g.mid)));
    const probed = new Set<object>(widest);
    gaps = measured.filter((g) => !probed.has(g));
    widest.forEach((g, i) => {
      const k = next[i];
      if (k === undefined || k >= g.to) {
        // Nothing at or after the middle, up to the gap's end: the keys, if any, are in its first half.
        empty++;
        gaps.push({ from: g.from, to: g.mid });
      } else {
        found++;
        learn(k);
        gaps.push({ from: g.from, to: g.mid }, { from: k, to: g.to });
      }
    });
  }
  return [...new Set(keys)].sort(byCodeUnits);
}

/**
 * The key space as the table's own characters count it: a key is a number
 * in [0, 1) whose digits are its characters' places in the alphabet of the
 * keys found so far (0 for the key's end), so the middle of `p0000` and
 * `p0400` is `p0200`, not a key of characters no key uses.
 */
export class KeySpace {
  private readonly base: number;
  constructor(private readonly alphabet: readonly number[]) {
    this.base = alphabet.length + 1;
  }

  private static readonly DIGITS = 8;

  /** The key's place in [0, 1]; END is 1. */
  at(key: string): number {
    if (key === END) return 1;
    let x = 0;
    let unit = 1;
    for (let i = 0; i < KeySpace.DIGITS && i < key.length; i++) {
      unit /= this.base;
      x += this.digit(key.charCodeAt(i)) * unit;
    }
    return x;
  }

  width(from: string, to: string): number {
    return this.at(to) - this.at(from);
  }

  /** A key strictly between the two, near the middle of the stretch; undefined when none is found. */
  middle(from: string, to: string): string | undefined {
    let x = (this.at(from) + this.at(to)) / 2;
    let key = "";
    for (let i = 0; i < KeySpace.DIGITS; i++) {
      x *= this.base;
      const d = Math.min(this.base - 1, Math.floor(x));
      x -= d;
      if (d === 0) break;
      key += String.fromCharCode(this.alphabet[d - 1]);
    }
    if (key > from && key < to) return key;
    const m = midpoint(from, to, this.alphabet);
    return m !== undefined && m > from && m < to ? m : undefined;
  }

  /** 1 + the character's place in the alphabet; halfway between two places for a character it does not hold. */
  private digit(c: number): number {
    let lo = 0;
    let hi = this.alphabet.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (this.alphabet[m] < c) lo = m + 1;
      else hi = m;
    }
    return this.alphabet[lo] === c ? lo + 1 : lo + 0.5;
  }
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
