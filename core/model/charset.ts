/**
 * A property's `charset`: a regex character-class body ("a-z0-9", "0-9A-F",
 * "^/\\\\#?") turned into sorted UTF-16 code-unit ranges, so rules can ask
 * for its lowest and highest character or whether it admits a forbidden one.
 */

export interface Charset {
  /** Sorted, non-overlapping inclusive ranges of UTF-16 code units. */
  ranges: Array<[number, number]>;
  source: string;
}

export interface CharsetError {
  message: string;
  /** Index in the source string. */
  index: number;
}

const CLASS_ESCAPES: Record<string, Array<[number, number]>> = {
  d: [[48, 57]],
  w: [
    [48, 57],
    [65, 90],
    [95, 95],
    [97, 122],
  ],
  s: [
    [9, 13],
    [32, 32],
  ],
};

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, "0": 0 };

/** Parses a character-class body; returns an error with its index when it is malformed. */
export function parseCharset(source: string): Charset | CharsetError {
  let i = 0;
  let negate = false;
  if (source[0] === "^") {
    negate = true;
    i = 1;
  }
  const ranges: Array<[number, number]> = [];
  const readAtom = (): number | Array<[number, number]> | CharsetError => {
    const ch = source.charCodeAt(i);
    if (ch !== 92 /* \ */) {
      i++;
      return ch;
    }
    const e = source[i + 1];
    if (e === undefined) return { message: "charset ends with a lone '\\'", index: i };
    if (e in CLASS_ESCAPES) {
      i += 2;
      return CLASS_ESCAPES[e];
    }
    if (e in SIMPLE_ESCAPES) {
      i += 2;
      return SIMPLE_ESCAPES[e];
    }
    if (e === "u") {
      const hex = source.slice(i + 2, i + 6);
      if (!/^[0-9A-Fa-f]{4}$/.test(hex)) return { message: "charset: \\u needs four hex digits", index: i };
      i += 6;
      return parseInt(hex, 16);
    }
    if (e === "x") {
      const hex = source.slice(i + 2, i + 4);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return { message: "charset: \\x needs two hex digits", index: i };
      i += 4;
      return parseInt(hex, 16);
    }
    i += 2;
    return e.charCodeAt(0);
  };
  if (i >= source.length) return { message: 'charset is empty: list the characters values may contain, such as "a-z0-9"', index: 0 };
  while (i < source.length) {
    const at = i;
    const lo = readAtom();
    if (typeof lo === "object" && "message" in lo) return lo;
    if (Array.isArray(lo)) {
      ranges.push(...lo);
      continue;
    }
    if (source[i] === "-" && i + 1 < source.length) {
      i++;
      const hi = readAtom();
      if (typeof hi === "object" && "message" in hi) return hi;
      if (Array.isArray(hi)) return { message: "charset: a range cannot end in a class such as \\d", index: at };
      if (hi < lo) return { message: `charset: range '${source.slice(at, i)}' is out of order`, index: at };
      ranges.push([lo, hi]);
    } else {
      ranges.push([lo, lo]);
    }
  }
  const merged = merge(ranges);
  return { ranges: negate ? complement(merged) : merged, source };
}

export function isCharsetError(c: Charset | CharsetError): c is CharsetError {
  return "message" in c;
}

function merge(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

function complement(ranges: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0xffff) out.push([next, 0xffff]);
  return out;
}

export function charsetHas(cs: Charset, code: number): boolean {
  return cs.ranges.some(([lo, hi]) => code >= lo && code <= hi);
}

export function charsetMin(cs: Charset): number {
  return cs.ranges.length ? cs.ranges[0][0] : -1;
}

export function charsetMax(cs: Charset): number {
  return cs.ranges.length ? cs.ranges[cs.ranges.length - 1][1] : -1;
}

/** The first character in the set for which `pred` holds, or -1. */
export function charsetFind(cs: Charset, pred: (code: number) => boolean): number {
  for (const [lo, hi] of cs.ranges) for (let c = lo; c <= hi; c++) if (pred(c)) return c;
  return -1;
}

/** True when every character is ASCII (1 UTF-8 byte). */
export function charsetIsAscii(cs: Charset): boolean {
  return charsetMax(cs) < 0x80;
}

/** Characters that digits, ISO dates and such render with. */
export const DIGITS: Charset = { ranges: [[48, 57]], source: "0-9" };
