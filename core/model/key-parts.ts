/**
 * What each part of a key expression does to order, width, alphabet,
 * cardinality, skew and time: the facts the key, partition and query rules
 * and the classifier reason with.
 */
import { CallArg, Expr, isExpr, isNumberLit, isStringLit, KeyFunction, Part } from "../tdl/ast";
import { Charset, DIGITS, parseCharset } from "./charset";
import { DATE_TOKENS, dateFormatParts, isDateToken } from "./key-functions";
import { maxPartChars } from "./keys";
import { PropertyInfo } from "./properties";
import { timeBucket, TimeBucket } from "./time-buckets";

export type Order = "preserving" | "reversing" | "none";
export type Monotonic = "increasing" | "decreasing" | "bucket";

export interface KeyPartInfo {
  part: Part;
  /** For string literal parts, their text. */
  literal?: string;
  /** Properties the part's value depends on. */
  props: string[];
  /** The single property the part renders, when there is exactly one. */
  prop?: PropertyInfo;
  fn?: KeyFunction;
  /** Every value renders with the same number of characters. */
  fixedWidth: boolean;
  /** Some value may be a proper prefix of another (what breaks composite order). */
  prefixProne: boolean;
  maxChars: number;
  /** How the lexical order of the rendered text follows the order of `prop`'s values. */
  order: Order;
  orderReason?: string;
  /**
   * How the part's value moves for newly written entities: larger than all
   * before (`increasing`), smaller (`decreasing`), or the same for every
   * entity written at the same moment (`bucket`: a time bucket, hashed or not).
   */
  monotonic?: Monotonic;
  /** The time bucket the part renders or hashes, with how many the table holds. */
  timeBucket?: TimeBucket;
  /** Distinct rendered values; undefined = unknown, treated as high. */
  distinct?: number;
  /** Share of rows and traffic taken by the most frequent value (0 when unknown or high). */
  hotShare: number;
  /** Alphabet of the rendered text; undefined = unknown. */
  charset?: Charset;
}

const HEX = parseCharset("0-9a-f") as Charset;

/** `spanSeconds`: the time the table retains, which sizes time buckets (`time-buckets.ts`). */
export function analyzePart(part: Part, props: ReadonlyMap<string, PropertyInfo>, spanSeconds?: number): KeyPartInfo {
  const maxChars = maxPartChars(part, props);
  if (part.kind === "string") {
    const cs = parseCharset(escapeChars(part.value));
    return {
      part,
      literal: part.value,
      props: [],
      fixedWidth: true,
      prefixProne: false,
      maxChars,
      order: "preserving",
      distinct: 1,
      hotShare: 1,
      charset: "message" in cs ? undefined : cs,
    };
  }
  if (part.kind === "ref") return refPart(part, props.get(part.name.text), maxChars);
  const inner = isExpr(part.args[0]) ? part.args[0] : undefined;
  const innerInfo = inner ? analyzeInner(inner, props, spanSeconds) : undefined;
  const n = numArg(part.args[1]);
  const base = {
    part,
    fn: part.fnName,
    props: innerInfo?.props ?? [],
    prop: innerInfo?.prop,
    maxChars,
    fixedWidth: true,
    prefixProne: false,
  };
  // A hash or bucket of a time bucket is the same for every entity of the moment; of anything else it scatters.
  const sameAtOnce = innerInfo?.monotonic === "bucket";
  // Unknown when it hashes time buckets of an unknown number: a cap would be a guess.
  const hashedDistinct = (limit: number) =>
    innerInfo?.timeBucket && innerInfo.timeBucket.count === undefined ? undefined : cap(innerInfo?.distinct, limit);
  switch (part.fnName) {
    case "pad": {
      const negative = (innerInfo?.prop?.min ?? 0) < 0;
      const order: Order = innerInfo?.order === "reversing" ? "reversing" : negative ? "none" : "preserving";
      return {
        ...base,
        order,
        orderReason: negative ? "negative numbers do not sort as text" : undefined,
        monotonic: innerInfo?.monotonic,
        distinct: innerInfo?.distinct,
        hotShare: innerInfo?.hotShare ?? 0,
        charset: DIGITS,
      };
    }
    case "hash":
    case "bucket": {
      // Both scatter consecutive values over a fixed number of buckets: 16^n hex texts, or n bucket numbers.
      const hash = part.fnName === "hash";
      const buckets = hash ? 16 ** Math.min(n ?? 32, 13) : Math.max(1, n ?? 1);
      return {
        ...base,
        order: "none",
        orderReason: hash ? "a hash scatters consecutive values" : "a bucket number scatters consecutive values",
        monotonic: sameAtOnce ? "bucket" : undefined,
        timeBucket: innerInfo?.timeBucket,
        distinct: hashedDistinct(buckets),
        hotShare: Math.max(innerInfo?.hotShare ?? 0, 1 / buckets),
        charset: hash ? HEX : DIGITS,
      };
    }
    case "reverse":
      return {
        ...base,
        order: "reversing",
        monotonic: flip(innerInfo?.monotonic),
        distinct: innerInfo?.distinct,
        hotShare: innerInfo?.hotShare ?? 0,
        charset: DIGITS,
      };
    case "date": {
      const fmt = isStringLit(part.args[1]) ? part.args[1].value : "";
      const parts = dateFormatParts(fmt) ?? [];
      const tokens = parts.filter(isDateToken);
      const ordered = tokens.length > 0 && tokens.every((t, i) => t === DATE_TOKENS[i]);
      const literalChars = [...new Set(parts.filter((t) => !isDateToken(t)).join(""))].join("");
      const cs = parseCharset("0-9" + escapeChars(literalChars));
      // Of a property that moves with time, every entity written in the same bucket gets the same value.
      const moving = !!innerInfo?.monotonic;
      // How many buckets: the time the table keeps over the bucket's width (a format without a year cycles), never
      // the rows — a day key over 50M rows has a few thousand values, not 50M. Unknown without a span.
      const tb = innerInfo?.prop?.type === "datetime" ? timeBucket(innerInfo.prop.name, fmt, spanSeconds) : undefined;
      const distinct = tb?.count;
      return {
        ...base,
        order: ordered ? "preserving" : "none",
        orderReason: ordered ? undefined : `the format "${fmt}" does not run from the year down`,
        monotonic: moving ? "bucket" : undefined,
        timeBucket: tb,
        distinct,
        hotShare: distinct ? 1 / distinct : 0,
        charset: "message" in cs ? DIGITS : cs,
      };
    }
    default:
      // lower, upper: the inner value, case-mapped.
      if (!innerInfo) return { ...base, order: "none", hotShare: 0 };
      return { ...innerInfo, part, fn: part.fnName, maxChars, charset: undefined };
  }
}

function refPart(part: Part, info: PropertyInfo | undefined, maxChars: number): KeyPartInfo {
  const base = { part, props: info ? [info.name] : [], prop: info, maxChars };
  if (!info) return { ...base, fixedWidth: false, prefixProne: true, order: "none", hotShare: 0 };
  const t = info.type;
  const isInt = t === "int" || t === "int64";
  const sameLength =
    t === "string"
      ? info.decl.type.min !== undefined && info.decl.type.min.value === info.decl.type.max?.value
      : t === "enum"
        ? new Set(info.enumValues?.map((v) => v.length)).size <= 1
        : t === "guid" || t === "datetime" || (isInt && info.min === info.max);
  const prefixProne = t === "enum" ? someIsPrefixOfAnother(info.enumValues ?? []) : t === "bool" ? false : !sameLength;
  const order: Order = isInt ? "none" : t === "double" ? "none" : "preserving";
  const orderReason = isInt ? 'an unpadded number sorts as text ("111" < "2")' : t === "double" ? "a double sorts as text" : undefined;
  return {
    ...base,
    fixedWidth: !!sameLength,
    prefixProne,
    order,
    orderReason,
    monotonic: info.increasing ? "increasing" : info.decreasing ? "decreasing" : undefined,
    distinct: info.distinct,
    hotShare: info.hot ?? (info.distinct ? 1 / info.distinct : 0),
    charset: info.charset,
  };
}

/** An argument expression: one part is analysed as such; several combine (distinct multiply, order is lost). */
function analyzeInner(expr: Expr, props: ReadonlyMap<string, PropertyInfo>, spanSeconds?: number): KeyPartInfo {
  if (expr.parts.length === 1) return analyzePart(expr.parts[0], props, spanSeconds);
  const parts = expr.parts.map((p) => analyzePart(p, props, spanSeconds));
  const varying = parts.filter((p) => p.props.length);
  // Time buckets only: the same text for the whole moment. Led by a moving part: new texts sit together at one end.
  const lead = varying[0]?.monotonic;
  const monotonic = varying.length && varying.every((p) => p.monotonic === "bucket") ? "bucket" : lead === "bucket" ? "increasing" : lead;
  return {
    part: expr.parts[0],
    props: [...new Set(parts.flatMap((p) => p.props))],
    fixedWidth: false,
    prefixProne: true,
    maxChars: parts.reduce((s, p) => s + p.maxChars, 0),
    order: "none",
    monotonic,
    timeBucket: parts.find((p) => p.timeBucket)?.timeBucket,
    distinct: product(parts.map((p) => p.distinct)),
    hotShare: parts.reduce((s, p) => s * p.hotShare, 1),
  };
}

/**
 * Whether one value is a proper prefix of another. Sorted, a value's prefix
 * extensions follow it directly, so comparing neighbours suffices: n log n,
 * not n² (an enum may list thousands of values).
 */
function someIsPrefixOfAnother(values: readonly string[]): boolean {
  const sorted = [...new Set(values)].sort();
  for (let i = 0; i + 1 < sorted.length; i++) if (sorted[i + 1].startsWith(sorted[i])) return true;
  return false;
}

function flip(m: Monotonic | undefined): Monotonic | undefined {
  return m === "increasing" ? "decreasing" : m === "decreasing" ? "increasing" : m;
}

function numArg(arg: CallArg | undefined): number | undefined {
  return isNumberLit(arg) && Number.isFinite(arg.value) ? arg.value : undefined;
}

function cap(distinct: number | undefined, limit: number): number {
  return distinct === undefined ? limit : Math.min(distinct, limit);
}

/** Product of counts; undefined if any is unknown. */
export function product(xs: Array<number | undefined>): number | undefined {
  let p = 1;
  for (const x of xs) {
    if (x === undefined) return undefined;
    p *= x;
  }
  return p;
}

function escapeChars(chars: string): string {
  return [...chars].map((c) => ("\\-^]".includes(c) ? "\\" + c : c)).join("");
}

export interface KeyInfo {
  expr: Expr;
  parts: KeyPartInfo[];
  props: Set<string>;
  /** Distinct key values (product of the parts', capped at rows); undefined = unknown/high. */
  distinct?: number;
  /** A time bucket whose number is unknown (no span): `distinct` is then unknown, not guessed from `rows`. */
  unknownBuckets?: TimeBucket;
  /** Share of the hottest key value (product of the parts' shares). */
  hotShare: number;
  /**
   * Load is temporal when a part moves with time (increasing, decreasing or a
   * time bucket): every entity written at one moment shares that part's value
   * or its end of the key order, so writes spread only over the other parts.
   */
  temporal?: {
    /** The parts that move with time, the leading one first. */
    parts: KeyPartInfo[];
    /** Share of the moment's writes on its hottest key: the product of the other parts' hottest shares. */
    writeShare: number;
  };
}

/** Analyses a key; `rows` caps its distinct values and `spanSeconds` sizes its time buckets. */
export function analyzeKey(expr: Expr, props: ReadonlyMap<string, PropertyInfo>, rows?: number, spanSeconds?: number): KeyInfo {
  const parts = expr.parts.map((p) => analyzePart(p, props, spanSeconds));
  const unknownBuckets = parts.find((p) => p.timeBucket && p.timeBucket.count === undefined)?.timeBucket;
  let distinct = product(parts.map((p) => p.distinct));
  if (rows !== undefined && !unknownBuckets) distinct = distinct === undefined ? rows : Math.min(distinct, rows);
  const moving = parts.filter((p) => p.props.length && p.monotonic);
  return {
    expr,
    parts,
    props: new Set(parts.flatMap((p) => p.props)),
    distinct,
    unknownBuckets,
    hotShare: parts.reduce((s, p) => s * p.hotShare, 1),
    temporal: moving.length ? { parts: moving, writeShare: parts.reduce((s, p) => (p.monotonic ? s : s * p.hotShare), 1) } : undefined,
  };
}
