/**
 * Key-expression evaluation: render a key from property values, and the
 * static facts rules and hovers need — longest value, bytes, sample value.
 */
import { CallArg, Expr, isExpr, isNumberLit, isStringLit, Part } from "../tdl/ast";
import { bucketOf, bucketWidth, formatDate, invertedTicks, md5hex, padDigits, reverseInteger, TICKS_DIGITS } from "./key-functions";
import { PropertyInfo, renderedDigits } from "./properties";
import { Charset, charsetHas } from "./charset";

export type Scalar = string | number | boolean | Date;
export type Values = ReadonlyMap<string, Scalar> | Record<string, Scalar>;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Renders a scalar as the language says keys render it. */
export function renderScalar(v: Scalar): string {
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

function valueOf(values: Values, name: string): Scalar | undefined {
  return values instanceof Map ? values.get(name) : (values as Record<string, Scalar>)[name];
}

export interface EvalContext {
  props: ReadonlyMap<string, PropertyInfo>;
  values: Values;
}

/** Renders a key from values. Unknown properties render as `{Name}`. */
export function renderKey(expr: Expr, ctx: EvalContext): string {
  return expr.parts.map((p) => renderPart(p, ctx)).join("");
}

function renderPart(part: Part, ctx: EvalContext): string {
  if (part.kind === "string") return part.value;
  if (part.kind === "ref") {
    const v = valueOf(ctx.values, part.name.text);
    if (v === undefined) return `{${part.name.text}}`;
    // GUIDs render in lowercase, however the value was written (a value that is no GUID stays as it is).
    return typeof v === "string" && GUID.test(v) && ctx.props.get(part.name.text)?.type === "guid" ? v.toLowerCase() : renderScalar(v);
  }
  const inner = isExpr(part.args[0]) ? part.args[0] : undefined;
  const text = inner ? renderKey(inner, ctx) : "";
  const n = numArg(part.args[1]);
  switch (part.fnName) {
    case "pad":
      return n === undefined ? text : padDigits(text, Math.min(n, MAX_RENDERED_WIDTH));
    case "hash":
      return md5hex(text).slice(0, n ?? 32);
    case "bucket":
      return n && n >= 1 && n <= 2 ** 32 ? bucketOf(text, Math.floor(n)) : text;
    case "lower":
      return text.toLowerCase();
    case "upper":
      return text.toUpperCase();
    case "date": {
      const d = inner ? dateValue(inner, ctx) : undefined;
      const fmt = isStringLit(part.args[1]) ? part.args[1].value : "";
      return d ? formatDate(d, fmt) : text;
    }
    case "reverse":
      return inner ? (reverseValue(inner, ctx) ?? text) : text;
    default:
      return text;
  }
}

/**
 * Examples render at most this many characters of padding: a width beyond
 * any key's limit (reported by `invalid-argument`) must not build a string
 * the engine cannot hold.
 */
const MAX_RENDERED_WIDTH = 1024;

function numArg(arg: CallArg | undefined): number | undefined {
  return isNumberLit(arg) && Number.isFinite(arg.value) ? arg.value : undefined;
}

/** The single property an expression consists of, if it is exactly one reference. */
export function soleRef(expr: Expr): string | undefined {
  const only = expr.parts.length === 1 ? expr.parts[0] : undefined;
  return only?.kind === "ref" ? only.name.text : undefined;
}

function dateValue(inner: Expr, ctx: EvalContext): Date | undefined {
  const name = soleRef(inner);
  const v = name === undefined ? undefined : valueOf(ctx.values, name);
  if (v instanceof Date) return v;
  if (typeof v === "string" || typeof v === "number") {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  return undefined;
}

function reverseValue(inner: Expr, ctx: EvalContext): string | undefined {
  const name = soleRef(inner);
  const info = name === undefined ? undefined : ctx.props.get(name);
  if (!info) return undefined;
  const v = valueOf(ctx.values, info.name);
  if (info.type === "datetime") {
    const d = dateValue(inner, ctx);
    return d ? invertedTicks(d.getTime()) : undefined;
  }
  if (typeof v !== "number" || info.max === undefined) return undefined;
  return reverseInteger(info.max, v, renderedDigits(info.max));
}

/** Longest text the expression can render, in characters (Infinity when unbounded). */
export function maxKeyChars(expr: Expr, props: ReadonlyMap<string, PropertyInfo>): number {
  let total = 0;
  for (const part of expr.parts) total += maxPartChars(part, props);
  return total;
}

export function maxPartChars(part: Part, props: ReadonlyMap<string, PropertyInfo>): number {
  if (part.kind === "string") return part.value.length;
  if (part.kind === "ref") return props.get(part.name.text)?.maxChars ?? Infinity;
  const inner = isExpr(part.args[0]) ? maxKeyChars(part.args[0], props) : 0;
  const n = numArg(part.args[1]);
  switch (part.fnName) {
    case "pad":
      return Math.max(n ?? 0, inner);
    case "hash":
      return n ?? 32;
    case "bucket":
      return n ? bucketWidth(n) : inner;
    case "date": {
      const fmt = isStringLit(part.args[1]) ? part.args[1].value : "";
      return formatDate(new Date(0), fmt).length;
    }
    case "reverse": {
      const name = isExpr(part.args[0]) ? soleRef(part.args[0]) : undefined;
      const info = name ? props.get(name) : undefined;
      if (info?.type === "datetime") return TICKS_DIGITS;
      return info?.max !== undefined ? renderedDigits(info.max) : inner;
    }
    default:
      return inner;
  }
}

/**
 * A plausible value for each property, inside its declared domain, for
 * examples in hovers and findings: a GUID for a guid, a member of an enum,
 * an integer inside its range, a string of the declared alphabet and length
 * — never the property's name, which no real key holds.
 */
export function sampleValues(props: ReadonlyMap<string, PropertyInfo>): Map<string, Scalar> {
  const out = new Map<string, Scalar>();
  for (const info of props.values()) out.set(info.name, sampleValue(info));
  return out;
}

/** One property's sample value (see `sampleValues`). */
export function sampleValue(info: PropertyInfo): Scalar {
  switch (info.type) {
    case "int":
    case "int64":
      return Math.min(info.max ?? 42, Math.max(info.min ?? 0, 42));
    case "double":
      return 3.14;
    case "bool":
      return true;
    case "datetime":
      return new Date("2026-01-02T03:04:05.000Z");
    case "guid":
      return "0f8fad5b-d9cb-469f-a165-70867728950e";
    case "enum":
      return info.enumValues?.[0] ?? "";
    case "binary":
      return "0a1b2c";
    case "string":
      return sampleString(info);
  }
}

/** Characters an opaque identifier is made of when the design declares no alphabet. */
const ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz0123456789";

/**
 * A string of the property's alphabet, as long as an identifier usually is
 * (8 characters, fewer when the type allows fewer): picked by the MD5 of the
 * name, so two properties get different values and the same one always the same.
 */
function sampleString(info: PropertyInfo): string {
  const length = Math.max(0, Math.min(Number.isFinite(info.maxChars) ? info.maxChars : 8, 8));
  const alphabet = info.charset ? charsetLetters(info.charset) : ID_ALPHABET;
  if (!alphabet.length) return "";
  const digest = md5hex(info.name);
  let s = "";
  for (let i = 0; i < length; i++) s += alphabet[parseInt(digest.slice(2 * i, 2 * i + 2), 16) % alphabet.length];
  return s;
}

/**
 * The letters and digits of a charset, in order (its other printable ASCII
 * characters when it has none: an identifier rarely starts with "-"); any
 * allowed character when it has no printable ASCII one.
 */
function charsetLetters(cs: Charset): string {
  let out = "";
  for (let c = 0x21; c < 0x7f; c++) if (charsetHas(cs, c) && c !== 0x22) out += String.fromCharCode(c);
  const alnum = out.replace(/[^A-Za-z0-9]/g, "");
  if (alnum.length) return alnum;
  if (out.length) return out;
  const first = cs.ranges.find(([lo, hi]) => hi >= 0x20 && lo <= 0x10ffff);
  return first ? String.fromCodePoint(Math.max(first[0], 0x20)) : "";
}
