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
  for (const atom of template) {
    if (atom.kind !== "free") {
      push(out, atom);
      continue;
    }
    const segs = frees.map((f) => f[column]);
    column++;
    const solved =
      constant(segs) ?? reverseOf(segs, rows, views, maxima, derived) ?? hashOf(segs, rows, views) ?? bucketOf(segs, rows, views);
    if (solved) {
      push(out, solved);
      continue;
    }
    const d = keyOnly(`${prefix}Part${derived.length + 1}`, segs, rows);
    derived.push(d.property);
    push(out, d.atom);
  }
  return { template: out, derived, maxima };
}

function push(out: Atom[], a: Atom): void {
  const last = out[out.length - 1];
  if (a.kind === "lit" && last?.kind === "lit") out[out.length - 1] = { kind: "lit", text: last.text + a.text };
  else out.push(a);
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

/** A key-only property for an unexplained column, typed by its values. */
function keyOnly(name: string, segs: readonly string[], rows: readonly number[]): { property: DerivedProperty; atom: Atom } {
  const w = fixedWidth(segs);
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
