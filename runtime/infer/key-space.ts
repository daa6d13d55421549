/**
 * Arithmetic on the PartitionKey space, for spreading reads over it: the
 * size of the gap between two keys (as a base-10 logarithm, so that keys
 * sharing a long prefix still compare) and a key strictly between two
 * keys. Keys order as the service orders them, by UTF-16 code units;
 * probe keys use printable ASCII only.
 */

/** Past the last key: probes never go beyond it. */
export const END = "\uffff";

const LO = 0x20;
const HI = 0x7e;
const BASE = HI - LO + 2;
/** Characters after a common prefix that a width looks at. */
const DIGITS = 6;

function digit(s: string, i: number): number {
  if (i >= s.length) return 0;
  const c = s.charCodeAt(i);
  return c < LO ? 0.5 : c > HI ? BASE - 1 : c - LO + 1;
}

/** How many leading characters the two keys share. */
export function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** log10 of the width of [a, b) in a space where the whole key space is 1; −Infinity when a ≥ b. */
export function logWidth(a: string, b: string): number {
  if (a >= b) return -Infinity;
  const cp = commonPrefix(a, b);
  let va = 0;
  let vb = 0;
  for (let i = 0; i < DIGITS; i++) {
    va = va * BASE + digit(a, cp + i);
    vb = vb * BASE + digit(b, cp + i);
  }
  const diff = (vb - va) / BASE ** DIGITS;
  return diff > 0 ? Math.log10(diff) - cp * Math.log10(BASE) : -(cp + DIGITS) * Math.log10(BASE);
}

/**
 * A printable key strictly between `a` and `b` (a < b), near the middle of
 * the gap (by the characters of `alphabet`, sorted code units, where any
 * fall inside it); undefined when none exists (b is a's immediate successor).
 */
export function midpoint(a: string, b: string, alphabet: readonly number[] = []): string | undefined {
  if (a >= b) return undefined;
  const cp = commonPrefix(a, b);
  const prefix = a.slice(0, cp);
  const ca = cp < a.length ? a.charCodeAt(cp) : LO - 1;
  const cb = cp < b.length ? Math.min(b.charCodeAt(cp), HI + 1) : LO - 1;
  const lo = Math.max(ca, LO - 1);
  if (cb - lo > 1) {
    // Characters the table's keys use go first: digits between '0' and '9', not the whole of ASCII.
    const known = alphabet.filter((c) => c > lo && c < cb);
    const code = known.length ? known[Math.floor(known.length / 2)] : Math.floor((lo + cb) / 2);
    const m = prefix + String.fromCharCode(code);
    return m > a && m < b ? m : undefined;
  }
  // Adjacent characters: keep a's character and go halfway between the rest of a and the top of the space.
  if (cp >= a.length) return undefined;
  const rest = midpoint(a.slice(cp + 1), String.fromCharCode(HI + 1), alphabet);
  const candidate = rest === undefined ? undefined : prefix + a[cp] + rest;
  return candidate !== undefined && candidate > a && candidate < b ? candidate : undefined;
}
