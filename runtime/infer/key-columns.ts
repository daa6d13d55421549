/**
 * Explains the free segments of a key template column by column, over
 * every row that follows it: a constant is a literal; a number that grows
 * as a property shrinks is `reverse` (of an integer, or of a date's
 * milliseconds as in `9999999999999 - t`); fixed-width hex that equals a
 * property's MD5 prefix is `hash`; a fixed-width number that equals a
 * property's MD5 modulo some n is `bucket`. What stays unexplained becomes
 * a key-only property, typed by its values, and is said so.
 */
import { bucketWidth, hash32 } from "@core";
import { DATE_TOKENS, dateFormatParts, formatDate } from "@core/model/key-functions";
import type { EdmType, TypedValue } from "@protocol/entities";
import { Atom, RowView } from "./key-atoms";
import { millisOf, paddable } from "./values";

/** A property the key holds but the entity does not store (or stores another way). */
export interface DerivedProperty {
  name: string;
  type: EdmType;
  /** Its value in each matched row (by row index). */
  values: Map<number, TypedValue>;
  /** What it is, for the design's comment. */
  note: string;
}

export interface SolvedKey {
  template: Atom[];
  derived: DerivedProperty[];
  /** Upper bounds a property's declared range must have (reverse uses the range's max). */
  maxima: Map<string, number>;
  /** Free columns nothing explained (each became a key-only property of its own). */
  unexplained: number;
}

const DIGITS = /^\d+$/;
const HEX = /^[0-9a-f]+$/;
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Bucket counts are searched up to 10^5 (five digits). */
const MAX_BUCKET_DIGITS = 5;

/**
 * Replaces each free atom of `template` by what explains its column.
 * `rows` are the matched rows' indices, `views` all rows' views, `frees`
 * each matched row's free segments; `prefix` names key-only properties.
 */
export function solveColumns(
  template: Atom[],
  rows: readonly number[],
  views: readonly RowView[],
  frees: readonly string[][],
  prefix: string,
): SolvedKey {
  const out: Atom[] = [];
  const derived: DerivedProperty[] = [];
  const maxima = new Map<string, number>();
  let column = 0;
  let unexplained = 0;
  for (const atom of template) {
    if (atom.kind !== "free") {
      push(out, atom);
      continue;
    }
    const whole = frees.map((f) => f[column]);
    column++;
    const solve = (segs: readonly string[]) =>
      constant(segs) ??
      reverseOf(segs, rows, views, maxima, derived) ??
      hashOf(segs, rows, views) ??
      bucketOf(segs, rows, views) ??
      keyOnlyDate(`${prefix}Part${derived.length + 1}`, segs, rows, derived) ??
      keyOnlyCountdown(`${prefix}Part${derived.length + 1}`, segs, rows, views, maxima, derived);
    let solved = solve(whole);
    let segs = whole;
    // What every row's segment starts and ends with is literal text ("v1" before a hash): the rest is the column.
    const [head, tail] = solved ? ["", ""] : commonEnds(whole);
    if (head || tail) {
      segs = whole.map((x) => x.slice(head.length, x.length - tail.length));
      solved = solve(segs);
      if (head) push(out, { kind: "lit", text: head });
    }
    if (solved) push(out, solved);
    else {
      unexplained++;
      const d = keyOnly(`${prefix}Part${derived.length + 1}`, segs, rows);
      derived.push(d.property);
      push(out, d.atom);
    }
    if (tail) push(out, { kind: "lit", text: tail });
  }
  return { template: out, derived, maxima, unexplained };
}

function push(out: Atom[], a: Atom): void {
  const last = out[out.length - 1];
  if (a.kind === "lit" && last?.kind === "lit") out[out.length - 1] = { kind: "lit", text: last.text + a.text };
  else if (a.kind === "date" && !mergeDate(out, a)) out.push(a);
  else if (a.kind !== "date") out.push(a);
}

/**
 * One date part where the search found several of the same property in a
 * row (`date(P, "yyyy") + date(P, "MM") + "-" + date(P, "dd")` is
 * `date(P, "yyyyMM-dd")`): merged when the formats, with the date
 * separator between them, read as one format with its tokens in order.
 */
function mergeDate(out: Atom[], a: Extract<Atom, { kind: "date" }>): boolean {
  const last = out[out.length - 1];
  const between = last?.kind === "lit" && last.text.length === 1 && "-:. ".includes(last.text) ? last.text : "";
  const before = out[out.length - 1 - (between ? 1 : 0)];
  if (before?.kind !== "date" || before.prop !== a.prop) return false;
  const format = before.format + between + a.format;
  const tokens = (dateFormatParts(format) ?? []).filter((t) => (DATE_TOKENS as readonly string[]).includes(t));
  const ordered = tokens.every((t, i) => i === 0 || DATE_TOKENS.indexOf(t as never) > DATE_TOKENS.indexOf(tokens[i - 1] as never));
  if (!tokens.length || !ordered) return false;
  out.splice(out.length - 1 - (between ? 1 : 0), between ? 2 : 1, { kind: "date", prop: a.prop, format });
  return true;
}

/**
 * The longest start and end every segment shares, leaving at least one
 * character of each segment between them, and not cutting a run of digits
 * (a padded number's leading zeros are its own: "0042" and "0107" share
 * "0", which is the number's, not a literal). Letters are cut as they come.
 */
function commonEnds(segs: readonly string[]): [string, string] {
  if (segs.length < 2 || segs.every((x) => x === segs[0])) return ["", ""];
  const shortest = Math.min(...segs.map((x) => x.length));
  let h = 0;
  while (h < shortest - 1 && segs.every((x) => x[h] === segs[0][h])) h++;
  while (h > 0 && /\d/.test(segs[0][h - 1]) && segs.every((x) => /\d/.test(x[h] ?? ""))) h--;
  let t = 0;
  while (t < shortest - 1 - h && segs.every((x) => x[x.length - 1 - t] === segs[0][segs[0].length - 1 - t])) t++;
  while (t > 0 && /\d/.test(segs[0][segs[0].length - t]) && segs.every((x) => /\d/.test(x[x.length - 1 - t] ?? ""))) t--;
  return [segs[0].slice(0, h), t ? segs[0].slice(segs[0].length - t) : ""];
}

function constant(segs: readonly string[]): Atom | undefined {
  return segs.length && segs.every((s) => s === segs[0]) ? { kind: "lit", text: segs[0] } : undefined;
}

/** The one width all segments share, or undefined. */
function fixedWidth(segs: readonly string[]): number | undefined {
  const w = segs[0]?.length;
  return w && segs.every((s) => s.length === w) ? w : undefined;
}

/** Properties every matched row has, with their values. */
function columnsOf(rows: readonly number[], views: readonly RowView[]): Map<string, TypedValue[]> {
  const out = new Map<string, TypedValue[]>();
  const first = views[rows[0]]?.row.props;
  if (!first) return out;
  for (const name of first.keys()) {
    const values: TypedValue[] = [];
    for (const r of rows) {
      const v = views[r].row.props.get(name);
      if (!v) break;
      values.push(v);
    }
    if (values.length === rows.length) out.set(name, values);
  }
  return out;
}

/** `C - v` for an integer property, or `C - ms` for a date (then a key-only milliseconds property carries it). */
function reverseOf(
  segs: readonly string[],
  rows: readonly number[],
  views: readonly RowView[],
  maxima: Map<string, number>,
  derived: DerivedProperty[],
): Atom | undefined {
  const w = fixedWidth(segs);
  if (!w || w > 16 || !segs.every((s) => DIGITS.test(s))) return undefined;
  for (const [name, values] of columnsOf(rows, views)) {
    const numbers = values.map((v) => (paddable(v) ? Number(v.value) : millisOf(v)));
    if (numbers.some((n) => n === undefined || !Number.isSafeInteger(n))) continue;
    const c = Number(segs[0]) + numbers[0]!;
    if (String(c).length !== w || !Number.isSafeInteger(c)) continue;
    if (!segs.every((s, i) => Number(s) + numbers[i]! === c)) continue;
    if (values[0].type === "DateTime") {
      const ms = `${name}Ms`;
      derived.push({
        name: ms,
        type: "Int64",
        values: new Map(rows.map((r, i) => [r, { type: "Int64", value: String(numbers[i]) }])),
        note: `${name} in milliseconds since 1970 (the key counts down from ${c})`,
      });
      maxima.set(ms, c);
      return { kind: "reverse", prop: ms, max: c };
    }
    maxima.set(name, c);
    return { kind: "reverse", prop: name, max: c };
  }
  return undefined;
}

/** Fixed-width lowercase hex equal to the first n characters of a property's MD5. */
function hashOf(segs: readonly string[], rows: readonly number[], views: readonly RowView[]): Atom | undefined {
  const n = fixedWidth(segs);
  if (!n || n > 32 || !segs.every((s) => HEX.test(s))) return undefined;
  for (const name of columnsOf(rows, views).keys()) {
    if (rows.every((r, i) => views[r].md5(name)?.slice(0, n) === segs[i])) return { kind: "hash", prop: name, n };
  }
  return undefined;
}

/** Fixed-width numbers equal to (MD5 of a property as uint32) mod n, padded to n − 1's width. */
function bucketOf(segs: readonly string[], rows: readonly number[], views: readonly RowView[]): Atom | undefined {
  const w = fixedWidth(segs);
  if (!w || w > MAX_BUCKET_DIGITS || !segs.every((s) => DIGITS.test(s))) return undefined;
  const buckets = segs.map(Number);
  const least = Math.max(Math.max(...buckets) + 1, w === 1 ? 1 : 10 ** (w - 1) + 1);
  for (const name of columnsOf(rows, views).keys()) {
    const hashes = rows.map((r) => {
      const t = views[r].text(name);
      return t === undefined ? undefined : hash32(t);
    });
    if (hashes.some((h) => h === undefined)) continue;
    for (let n = least; n <= 10 ** w; n++) {
      if (bucketWidth(n) !== w || hashes[0]! % n !== buckets[0]) continue;
      if (hashes.every((h, i) => h! % n === buckets[i])) return { kind: "bucket", prop: name, n };
    }
  }
  return undefined;
}

/** Date formats a key-only column is read as, most specific first (the language's tokens and separators). */
const KEY_DATE_FORMATS = [
  "yyyy-MM-dd HH:mm:ss",
  "yyyyMMddHHmmss",
  "yyyy-MM-dd HH:mm",
  "yyyyMMddHHmm",
  "yyyy-MM-dd HH",
  "yyyyMMddHH",
  "yyyy-MM-dd",
  "yyyyMMdd",
  "yyyy-MM",
  "yyyyMM",
];
/** Years a key-only date may carry: outside them, digits are more likely a number than a date. */
const DATE_YEARS = { min: 1990, max: 2200 };

/**
 * A fixed-width column every segment of which reads back as a date in one
 * of the language's formats (`2026-01-05`, `2026010512`): a key-only
 * datetime, and the key part `date(P, format)` — so the design gets its
 * time bucket (and, from the Timestamps, `increasing`).
 */
function keyOnlyDate(name: string, segs: readonly string[], rows: readonly number[], derived: DerivedProperty[]): Atom | undefined {
  const w = fixedWidth(segs);
  if (!w) return undefined;
  for (const format of KEY_DATE_FORMATS) {
    if (formatDate(new Date(0), format).length !== w) continue;
    const dates = segs.map((s) => parseKeyDate(s, format));
    if (dates.some((d) => d === undefined)) continue;
    derived.push({
      name,
      type: "DateTime",
      values: new Map(rows.map((r, i) => [r, { type: "DateTime", value: new Date(dates[i]!).toISOString() }])),
      note: `a date (${format}) no property of the entity explains`,
    });
    return { kind: "date", prop: name, format };
  }
  return undefined;
}

/** The UTC time a key's date text stands for, when it reads back as the same text in `format` and its year is plausible. */
function parseKeyDate(text: string, format: string): number | undefined {
  const fields: Record<string, number> = { yyyy: 1970, MM: 1, dd: 1, HH: 0, mm: 0, ss: 0, fff: 0 };
  let at = 0;
  for (const part of dateFormatParts(format) ?? []) {
    if ((DATE_TOKENS as readonly string[]).includes(part)) {
      const digits = text.slice(at, at + part.length);
      if (!/^\d+$/.test(digits) || digits.length !== part.length) return undefined;
      fields[part] = Number(digits);
      at += part.length;
    } else if (text[at++] !== part) return undefined;
  }
  if (at !== text.length || fields.yyyy < DATE_YEARS.min || fields.yyyy > DATE_YEARS.max) return undefined;
  const ms = Date.UTC(fields.yyyy, fields.MM - 1, fields.dd, fields.HH, fields.mm, fields.ss, fields.fff);
  return formatDate(new Date(ms), format) === text ? ms : undefined;
}

/**
 * Clocks counted down from a constant that code writes to get the newest
 * first: JavaScript's largest date in milliseconds (8640000000000000 −
 * Date.now(), 16 digits) and thirteen nines (9999999999999 − ms).
 * .NET's inverted ticks are read from the entity's own dates (key-atoms.ts).
 */
const COUNTDOWNS = [8_640_000_000_000_000, 9_999_999_999_999];
/** How far a counted-down time may lie from the entity's Timestamp and still be its time of writing. */
const COUNTDOWN_SLACK_MS = 400 * 86_400_000;

/**
 * A column of digits equal to C − t for one of the known countdown
 * constants C, where t is a time near each entity's Timestamp (or a time
 * this century when rows carry none): a key-only milliseconds property and
 * `reverse(P)` with its range ending at C.
 */
function keyOnlyCountdown(
  name: string,
  segs: readonly string[],
  rows: readonly number[],
  views: readonly RowView[],
  maxima: Map<string, number>,
  derived: DerivedProperty[],
): Atom | undefined {
  const w = fixedWidth(segs);
  if (!w || !segs.every((s) => DIGITS.test(s))) return undefined;
  for (const c of COUNTDOWNS) {
    const digits = String(c).length;
    // Written as wide as the constant, or padded wider with zeros (a 19-digit RowKey for .NET's tick width).
    if (w < digits || !segs.every((s) => /^0*$/.test(s.slice(0, w - digits)))) continue;
    const times = segs.map((s) => c - Number(s));
    const plausible = times.every((t, i) => {
      const stamp = views[rows[i]]?.row.timestamp;
      return stamp !== undefined ? Math.abs(t - stamp) <= COUNTDOWN_SLACK_MS : t >= Date.UTC(2000, 0, 1) && t <= Date.UTC(2200, 0, 1);
    });
    if (!plausible) continue;
    derived.push({
      name,
      type: "Int64",
      values: new Map(rows.map((r, i) => [r, { type: "Int64", value: String(times[i]) }])),
      note: `milliseconds since 1970 counted down from ${c} (the newest row first)`,
    });
    maxima.set(name, c);
    return { kind: "reverse", prop: name, max: c, ...(w > digits ? { width: w } : {}) };
  }
  return undefined;
}

/** A key-only property for an unexplained column, typed by its values. */
function keyOnly(name: string, segs: readonly string[], rows: readonly number[]): { property: DerivedProperty; atom: Atom } {
  const w = fixedWidth(segs);
  // Up to 15 digits: the core evaluates keys with JavaScript numbers, exact only below 2^53 (a countdown from
  // 8640000000000000, 16 digits, is read above with its constant).
  const digits = segs.every((s) => DIGITS.test(s) && s.length <= 15);
  const values = (type: EdmType, f: (s: string) => string = (s) => s) => new Map(rows.map((r, i) => [r, { type, value: f(segs[i]) }]));
  if (digits && w && segs.some((s) => s.length > 1 && s.startsWith("0"))) {
    return {
      property: {
        name,
        type: "Int64",
        values: values("Int64", (s) => String(Number(s))),
        note: `a ${w}-digit zero-padded number no property of the entity explains`,
      },
      atom: { kind: "pad", prop: name, width: w },
    };
  }
  if (digits && segs.every((s) => s === "0" || !s.startsWith("0"))) {
    return {
      property: { name, type: "Int64", values: values("Int64"), note: "a number no property of the entity explains" },
      atom: { kind: "ref", prop: name },
    };
  }
  if (segs.every((s) => GUID.test(s) && s === s.toLowerCase())) {
    return {
      property: { name, type: "Guid", values: values("Guid"), note: "a GUID no property of the entity explains" },
      atom: { kind: "ref", prop: name },
    };
  }
  return {
    property: {
      name,
      type: "String",
      values: values("String"),
      note: "unexplained: no property of the entity matches this part, kept as a string",
    },
    atom: { kind: "ref", prop: name },
  };
}
