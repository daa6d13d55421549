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
import { commonPrefix, END, midpoint } from "../infer/key-space";

export interface KeyRange {
  from: string;
  to?: string;
}

/** At most `n` ranges covering every key, split at evenly spaced keys of `partitionKeys` (anchors, or a sample's keys). */
export function splitRanges(partitionKeys: readonly string[], n: number): KeyRange[] {
  // A key holding half of a character is no split point: no request can carry it in a filter.
  const keys = [...new Set(partitionKeys)].filter((k) => !LONE_SURROGATE.test(k)).sort(byCodeUnits);
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

/** Probes that find a key the plan makes at most, by default. */
export const PLAN_PROBES = 15;
/** Probes that find nothing (they narrow a stretch down to where the keys are), at most. */
const EMPTY_PROBES = 24;
/** Probes sent at once. */
const ROUND = 8;

/** What the plan found: partition keys spread over the key space, and a key nothing lies at or after (when one was met). */
export interface Anchors {
  keys: string[];
  ceiling?: string;
}

/**
 * Partition keys spread over the table's key space (sorted, distinct), found
 * with requests of one key each, ROUND at a time: at most `probes` that find
 * a key and EMPTY_PROBES that do not. A probe asks for the first key of a
 * stretch (`PartitionKey ge 'a' and PartitionKey lt 'b'`): bounded, it costs
 * the service only that stretch. The open stretch above the highest key
 * found is probed at points closer and closer to that key (each a quarter
 * of the way of the one before), so one round finds how far the keys reach,
 * however long their common prefix; the widest other stretches are probed
 * at their middles. An empty table gives no key.
 */
export async function anchorKeys(reader: PageReader, probes = PLAN_PROBES, signal?: AbortSignal): Promise<Anchors> {
  /** The first key in [from, to). */
  const first = async (from: string | undefined, to: string) => {
    const bounds = [from === undefined ? "" : `PartitionKey ge ${quote(from)}`, to === END ? "" : `PartitionKey lt ${quote(to)}`];
    const page = await reader.page(
      { filter: bounds.filter(Boolean).join(" and ") || undefined, select: ["PartitionKey"], pageSize: 1 },
      signal,
    );
    return page.entities[0]?.partitionKey;
  };
  const lowest = await first(undefined, END);
  if (lowest === undefined) return { keys: [] };
  const keys = [lowest];
  /** Stretches a probe found empty: [at, until). */
  const emptied: Array<{ at: string; until: string }> = [];
  /** Stretches not known to be empty: (from, to), `from` a key found, `to` a key found, a probed point or END. */
  let gaps: Array<{ from: string; to: string }> = [{ from: lowest, to: END }];
  let found = 0;
  let empty = 0;
  while (found < probes && empty < EMPTY_PROBES && gaps.length && !signal?.aborted) {
    const space = new KeySpace(keys);
    // Points for this round: the widest stretches first, several in the open one.
    const budget = Math.min(ROUND, probes - found, EMPTY_PROBES - empty);
    const ranked = gaps.map((g) => ({ ...g, width: space.width(g.from, g.to) })).sort((a, b) => b.width - a.width);
    const planned: Array<{ gap: (typeof ranked)[number]; points: string[] }> = [];
    let left = budget;
    for (const g of ranked) {
      if (left <= 0 || g.width <= 0) break;
      const want = g.to === END ? Math.min(left, Math.max(1, Math.ceil(budget / 2))) : 1;
      const points = g.to === END ? space.approaching(g.from, g.to, want) : [space.middle(g.from, g.to)].filter((k): k is string => !!k);
      if (!points.length) continue;
      planned.push({ gap: g, points });
      left -= points.length;
    }
    if (!planned.length) break;
    const asked = planned.flatMap(({ gap, points }) => points.map((at, i) => ({ gap, at, until: points[i + 1] ?? gap.to })));
    const answers = await Promise.all(asked.map((q) => first(q.at, q.until)));
    const probed = new Set(planned.map((p) => p.gap));
    gaps = ranked.filter((g) => !probed.has(g)).map(({ from, to }) => ({ from, to }));
    for (const { gap, points } of planned) gaps.push({ from: gap.from, to: points[0] });
    asked.forEach((q, i) => {
      const k = answers[i];
      if (k === undefined) {
        empty++;
        emptied.push({ at: q.at, until: q.until });
      } else {
        found++;
        keys.push(k);
        gaps.push({ from: k, to: q.until });
      }
    });
  }
  return { keys: [...new Set(keys)].sort(byCodeUnits), ceiling: ceilingOf(emptied) };
}

/** The lowest key from which empty stretches reach the end without a gap: nothing lies at or after it. */
function ceilingOf(emptied: ReadonlyArray<{ at: string; until: string }>): string | undefined {
  let ceiling = END;
  for (let moved = true; moved;) {
    moved = false;
    for (const e of emptied)
      if (e.at < ceiling && e.until >= ceiling) {
        ceiling = e.at;
        moved = true;
      }
  }
  return ceiling === END ? undefined : ceiling;
}

/**
 * The characters a table's keys are likely made of, from those seen: a digit
 * stands for 0–9, a lowercase letter for a–f when every one seen is a hex
 * digit (GUIDs, hashes) and a–z otherwise, the same for uppercase; any other
 * character for itself. Keys met one at a time show few characters (`p0000`
 * shows `p` and `0`): the middle of a stretch is then a key the table could
 * hold (`p05`), not one of characters it never uses (`p01111`).
 */
function alphabetOf(seen: Iterable<number>): number[] {
  const chars = new Set<number>();
  const all = [...seen];
  const within = (lo: string, hi: string) => (c: number) => c >= lo.charCodeAt(0) && c <= hi.charCodeAt(0);
  const span = (lo: string, hi: string) => {
    for (let c = lo.charCodeAt(0); c <= hi.charCodeAt(0); c++) chars.add(c);
  };
  const lower = all.filter(within("a", "z"));
  const upper = all.filter(within("A", "Z"));
  for (const c of all) if (!within("0", "9")(c) && !lower.includes(c) && !upper.includes(c)) chars.add(c);
  if (all.some(within("0", "9"))) span("0", "9");
  if (lower.length) span("a", lower.every(within("a", "f")) ? "f" : "z");
  if (upper.length) span("A", upper.every(within("A", "F")) ? "F" : "Z");
  return [...chars].sort((a, b) => a - b);
}

/** Key characters the key space tells apart. */
const DIGITS = 16;

/**
 * The key space as the table's own keys count it: a key is a number whose
 * digits are its characters' places, position by position, in the alphabet
 * of the characters the keys seen hold at that position (alphabetOf; 0 for
 * the key's end). So the middle of `p0000` and `p0400` is `p0200`, and the
 * middle of `2024-01-01` and `2024-03-01` is a date, not a key of characters
 * no key uses. Exact (BigInt) over DIGITS characters.
 */
export class KeySpace {
  private readonly alphabets: number[][];
  /** Digits per position: the alphabet's places doubled (odd digits fall between two characters), and the key's end. */
  private readonly bases: bigint[];
  /** Weight of each position's digit: the product of the bases after it. */
  private readonly weights: bigint[];
  private readonly size: bigint;

  constructor(keys: Iterable<string>) {
    const seen: Array<Set<number>> = Array.from({ length: DIGITS }, () => new Set());
    const union = new Set<number>();
    for (const k of keys)
      for (let i = 0; i < k.length && i < DIGITS; i++) {
        seen[i].add(k.charCodeAt(i));
        union.add(k.charCodeAt(i));
      }
    if (!union.size) for (let c = 0x20; c <= 0x7e; c++) union.add(c);
    this.alphabets = seen.map((s) => alphabetOf(s.size ? s : union));
    this.bases = this.alphabets.map((a) => BigInt(2 * a.length + 2));
    this.weights = new Array<bigint>(DIGITS);
    let w = 1n;
    for (let i = DIGITS - 1; i >= 0; i--) {
      this.weights[i] = w;
      w *= this.bases[i];
    }
    this.size = w;
  }

  /** The key's place, from 0 to the size of the space (END). */
  private at(key: string): bigint {
    if (key === END) return this.size;
    let x = 0n;
    for (let i = 0; i < DIGITS && i < key.length; i++) x += BigInt(this.digit(i, key.charCodeAt(i))) * this.weights[i];
    return x;
  }

  /** The share of the whole space between the two keys (0 when `to` is not after `from`). */
  width(from: string, to: string): number {
    const d = this.at(to) - this.at(from);
    return d > 0n ? Number((d << 64n) / this.size) / 2 ** 64 : 0;
  }

  /** A key strictly between the two, near the middle of the stretch; undefined when none is found. */
  middle(from: string, to: string): string | undefined {
    const key = wellFormed(this.key((this.at(from) + this.at(to)) / 2n));
    if (key !== undefined && key > from && key < to) return key;
    const m = wellFormed(midpoint(from, to, this.alphabets[Math.min(commonPrefix(from, to), DIGITS - 1)]));
    return m !== undefined && m > from && m < to ? m : undefined;
  }

  /**
   * Up to `n` keys between the two, ascending, at 1/4ⁿ, …, 1/16, 1/4 of the
   * way from `from`: probes that find how far above `from` the keys reach.
   */
  approaching(from: string, to: string, n: number): string[] {
    const lo = this.at(from);
    const span = this.at(to) - lo;
    const points: string[] = [];
    for (let j = n; j >= 1; j--) {
      const k = wellFormed(this.key(lo + span / 4n ** BigInt(j)));
      if (k !== undefined && k > from && k < to && (!points.length || k > points[points.length - 1])) points.push(k);
    }
    return points;
  }

  /** The shortest key at or just above a place. */
  private key(x: bigint): string {
    let key = "";
    for (let i = 0; i < DIGITS; i++) {
      const d = Number(x / this.weights[i]);
      x -= BigInt(d) * this.weights[i];
      if (d === 0) break;
      const a = this.alphabets[i];
      // An odd digit falls between two characters: the upper one is above the place, and the key ends there.
      if (d % 2 === 1) return key + String.fromCharCode(a[Math.min((d - 1) / 2, a.length - 1)]);
      key += String.fromCharCode(a[d / 2 - 1]);
      if (x === 0n) break;
    }
    return key;
  }

  /** The character's digit: 2 × (1 + its place), or the odd digit between its neighbours for one the alphabet lacks. */
  private digit(i: number, c: number): number {
    const a = this.alphabets[i];
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (a[m] < c) lo = m + 1;
      else hi = m;
    }
    return a[lo] === c ? 2 * (lo + 1) : 2 * lo + 1;
  }
}

/**
 * A key a request can carry: the key space counts UTF-16 code units, so a
 * place between two keys of astral characters (an emoji, 𠀀) may end in a
 * high surrogate alone, which no URL can encode ("URI malformed"). It is
 * completed with the lowest low surrogate (the next key up in code-unit
 * order); a key with a lone surrogate elsewhere is no split point.
 */
export function wellFormed(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const k = /[\ud800-\udbff]$/.test(key) ? `${key}\udc00` : key;
  return LONE_SURROGATE.test(k) ? undefined : k;
}

/** A high surrogate not followed by a low one, or a low one not after a high one. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
