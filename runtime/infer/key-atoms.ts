/**
 * The pieces a key is made of, as the inference sees them: literals,
 * properties rendered as the language renders them (raw, lower/upper,
 * padded, as a date, as inverted ticks), the functions solved over a whole
 * column (hash, bucket, reverse) and `free` segments not yet explained.
 * Each atom renders for a row exactly as the core's `renderKey` would.
 */
import { bucketOf, DATE_TOKENS, dateTokenTexts, formatDate, invertedTicks, md5hex, padDigits, reverseInteger, TICKS_DIGITS } from "@core";
import { keyText, millisOf, paddable, Row } from "./values";

export type Atom =
  | { kind: "lit"; text: string }
  | { kind: "ref"; prop: string }
  | { kind: "lower" | "upper"; prop: string }
  | { kind: "pad"; prop: string; width: number }
  | { kind: "date"; prop: string; format: string }
  /** `reverse(P)` of a datetime: DateTime.MaxValue.Ticks − ticks, 19 digits. */
  | { kind: "revTicks"; prop: string }
  /** `reverse(P)` of an integer whose range ends at `max`. */
  | { kind: "reverse"; prop: string; max: number; width?: number }
  | { kind: "hash"; prop: string; n: number }
  | { kind: "bucket"; prop: string; n: number }
  /** A segment no property explains yet; solved per column (key-columns.ts). */
  | { kind: "free" };

/** Price of a free segment: a fixed part (a literal that could explain it is cheaper) and a part by the character. */
export const FREE_COST = 6;
export const FREE_CHAR_COST = 0.5;

/** What one atom costs in a template (a free segment's characters are counted by the caller): literals by the character, explained parts little, free segments much. */
export function atomCost(a: Atom): number {
  switch (a.kind) {
    case "lit":
      return a.text.length;
    case "free":
      return FREE_COST;
    case "ref":
    case "revTicks":
      return 0.3;
    case "pad":
      return 0.32;
    case "date":
      return 0.35;
    default:
      return 0.4;
  }
}

export function templateCost(t: readonly Atom[]): number {
  return t.reduce((s, a) => s + atomCost(a), 0);
}

/** A stable text of a template, for de-duplication. */
export function signature(t: readonly Atom[]): string {
  return t.map((a) => JSON.stringify(a)).join("|");
}

/** Per-row caches: a property's key text, digest and date tokens are computed once however many templates ask. */
export class RowView {
  private readonly texts = new Map<string, string | undefined>();
  private readonly digests = new Map<string, string>();

  constructor(readonly row: Row) {}

  text(prop: string): string | undefined {
    if (this.texts.has(prop)) return this.texts.get(prop);
    const v = this.row.props.get(prop);
    const t = v === undefined ? undefined : keyText(v);
    this.texts.set(prop, t);
    return t;
  }

  md5(prop: string): string | undefined {
    const t = this.text(prop);
    if (t === undefined) return undefined;
    let d = this.digests.get(prop);
    if (d === undefined) this.digests.set(prop, (d = md5hex(t)));
    return d;
  }
}

/** What an atom renders to for a row; undefined when the row lacks the value (a `free` atom renders nothing fixed). */
export function renderAtom(a: Atom, view: RowView): string | undefined {
  switch (a.kind) {
    case "lit":
      return a.text;
    case "free":
      return undefined;
    case "ref":
      return view.text(a.prop);
    case "lower":
      return view.text(a.prop)?.toLowerCase();
    case "upper":
      return view.text(a.prop)?.toUpperCase();
    case "pad": {
      const v = view.row.props.get(a.prop);
      return v && paddable(v) ? padDigits(v.value, a.width) : undefined;
    }
    case "date":
    case "revTicks": {
      const v = view.row.props.get(a.prop);
      const ms = v && millisOf(v);
      if (ms === undefined) return undefined;
      return a.kind === "date" ? formatDate(new Date(ms), a.format) : invertedTicks(ms);
    }
    case "reverse": {
      const v = view.row.props.get(a.prop);
      if (!v || !paddable(v)) return undefined;
      const value = Number(v.value);
      if (value > a.max) return undefined;
      const text = reverseInteger(a.max, value, String(a.max).length);
      return a.width ? padDigits(text, a.width) : text;
    }
    case "hash":
      return view.md5(a.prop)?.slice(0, a.n);
    case "bucket": {
      const t = view.text(a.prop);
      return t === undefined ? undefined : bucketOf(t, a.n);
    }
  }
}

/**
 * Matches a key against a template: the texts of its free segments, or
 * undefined when the key does not follow it. A free segment ends where the
 * next atom's text begins (its first occurrence), or at the key's end.
 */
export function matchTemplate(t: readonly Atom[], key: string, view: RowView): string[] | undefined {
  const frees: string[] = [];
  let pos = 0;
  for (let i = 0; i < t.length; i++) {
    const a = t[i];
    if (a.kind === "free") {
      const next = t[i + 1];
      let end = key.length;
      if (next) {
        const r = renderAtom(next, view);
        if (r === undefined || r === "") return undefined;
        end = key.indexOf(r, pos + 1);
        if (end < 0) return undefined;
      }
      if (end <= pos) return undefined;
      frees.push(key.slice(pos, end));
      pos = end;
      continue;
    }
    const r = renderAtom(a, view);
    if (r === undefined || !key.startsWith(r, pos)) return undefined;
    pos += r.length;
  }
  return pos === key.length ? frees : undefined;
}

/** A step of the search: an atom that covers key[from, to). */
export interface Step {
  atom: Atom;
  to: number;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const isHex = (c: string | undefined) => isDigit(c) || (c !== undefined && c >= "a" && c <= "f");
const isAlnum = (c: string | undefined) => c !== undefined && /[A-Za-z0-9]/.test(c);
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/;

/** Literal characters a date format may hold between its tokens (letters are tokens only). */
const DATE_LITERALS = new Set(["-", ":", ".", " "]);

/**
 * Every way a property of this row explains text starting at `at`: its
 * rendering raw, in another case, padded, as a date format or as inverted
 * ticks. Unpadded numbers must not touch other digits (that concatenation
 * could not be read back).
 */
export function exactSteps(key: string, at: number, view: RowView): Step[] {
  const out: Step[] = [];
  for (const [prop, v] of view.row.props) {
    const text = view.text(prop);
    if (text === undefined || text === "") continue;
    const numeric = v.type === "Int32" || v.type === "Int64" || v.type === "Double";
    if (key.startsWith(text, at)) {
      const end = at + text.length;
      if (!numeric || (!isDigit(key[at - 1]) && !isDigit(key[end]))) out.push({ atom: { kind: "ref", prop }, to: end });
      // A full-width number may be padded too: only other rows (with shorter values) can tell.
      if (paddable(v) && v.value.length > 1) out.push({ atom: { kind: "pad", prop, width: v.value.length }, to: end });
    } else if (v.type === "String" || v.type === "Guid") {
      if (text.toLowerCase() !== text && key.startsWith(text.toLowerCase(), at))
        out.push({ atom: { kind: "lower", prop }, to: at + text.length });
      if (text.toUpperCase() !== text && key.startsWith(text.toUpperCase(), at))
        out.push({ atom: { kind: "upper", prop }, to: at + text.length });
    }
    if (paddable(v)) {
      for (let k = 1; key[at + k - 1] === "0" && k <= 20; k++) {
        if (key.startsWith(v.value, at + k))
          out.push({ atom: { kind: "pad", prop, width: k + v.value.length }, to: at + k + v.value.length });
      }
    }
    const ms = millisOf(v);
    if (ms !== undefined) {
      if (key.startsWith(invertedTicks(ms), at)) out.push({ atom: { kind: "revTicks", prop }, to: at + TICKS_DIGITS });
      for (const format of dateFormatsAt(key, at, ms))
        out.push({ atom: { kind: "date", prop, format }, to: at + formatDate(new Date(ms), format).length });
    }
  }
  return out;
}

/**
 * Date formats that render this date as the text at `at`: tokens in the
 * language's order (yyyy MM dd HH mm ss fff, any may be left out), with
 * `-` `:` `.` or a space between them. Every prefix that ends on a token
 * is a candidate; the columns decide between them.
 */
export function dateFormatsAt(key: string, at: number, ms: number): string[] {
  const tokens = dateTokenTexts(new Date(ms));
  const out: string[] = [];
  const walk = (pos: number, next: number, format: string, lastWasToken: boolean) => {
    if (out.length >= 24) return;
    for (let t = next; t < DATE_TOKENS.length; t++) {
      const tok = DATE_TOKENS[t];
      if (key.startsWith(tokens[tok], pos)) {
        const f = format + tok;
        out.push(f);
        walk(pos + tokens[tok].length, t + 1, f, true);
      }
    }
    if (lastWasToken && DATE_LITERALS.has(key[pos])) walk(pos + 1, next, format + key[pos], false);
  };
  walk(at, 0, "", false);
  return out;
}

/** Where a free segment starting at `at` may end: runs of digits, hex, letters and digits, a GUID, the next punctuation, the key's end. */
export function freeEnds(key: string, at: number): number[] {
  const ends = new Set<number>();
  const run = (ok: (c: string | undefined) => boolean) => {
    let j = at;
    while (ok(key[j])) j++;
    if (j > at) ends.add(j);
  };
  run(isDigit);
  run(isHex);
  run(isAlnum);
  if (GUID.test(key.slice(at, at + 36))) ends.add(at + 36);
  const seen = new Set<string>();
  for (let j = at + 1; j < key.length && seen.size < 4; j++) {
    const c = key[j];
    if (!isAlnum(c) && !seen.has(c)) {
      seen.add(c);
      ends.add(j);
    }
  }
  ends.add(key.length);
  return [...ends].filter((e) => e > at);
}
