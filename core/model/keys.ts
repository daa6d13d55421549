/**
 * Key-expression evaluation: render a key from property values, and the
 * static facts rules and hovers need — longest value, bytes, sample value.
 */
import { CallArg, Expr, isExpr, isNumberLit, isStringLit, Part } from "../tdl/ast";
import { bucketOf, bucketWidth, formatDate, invertedTicks, md5hex, padDigits, reverseInteger, TICKS_DIGITS } from "./key-functions";
import { PropertyInfo, renderedDigits } from "./properties";

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

/** A plausible value for each property, inside its declared domain, for examples in hovers. */
export function sampleValues(props: ReadonlyMap<string, PropertyInfo>): Map<string, Scalar> {
  const out = new Map<string, Scalar>();
  for (const info of props.values()) out.set(info.name, sampleValue(info));
  return out;
}

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

function sampleString(info: PropertyInfo): string {
  const limit = Math.min(Number.isFinite(info.maxChars) ? info.maxChars : 12, 12);
  const cs = info.charset;
  const fits = (s: string) => !cs || [...s].every((ch) => cs.ranges.some(([lo, hi]) => ch.charCodeAt(0) >= lo && ch.charCodeAt(0) <= hi));
  for (const candidate of [info.name.toLowerCase(), info.name.toUpperCase(), info.name]) {
    const s = candidate.slice(0, limit);
    if (fits(s)) return s;
  }
  // Build a value from the charset's own characters.
  let s = "";
  for (const [lo, hi] of cs!.ranges) {
    for (let c = lo; c <= hi && s.length < limit; c++) if (c >= 0x20) s += String.fromCharCode(c);
    if (s.length >= Math.min(limit, 4)) break;
  }
  return s.slice(0, limit);
}
