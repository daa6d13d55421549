/**
 * Key-expression evaluation: render a key from property values, and the
 * static facts rules and hovers need — longest value, bytes, sample value.
 */
import { md5 } from "js-md5";
import { CallArg, Expr, isExpr, isNumberLit, isStringLit, Part } from "../tdl/ast";
import { PropertyInfo, renderedDigits } from "./properties";

export type Scalar = string | number | boolean | Date;
export type Values = ReadonlyMap<string, Scalar> | Record<string, Scalar>;

/** .NET ticks (100 ns since 0001-01-01) of the Unix epoch and of DateTime.MaxValue: `reverse` on a datetime uses them. */
const EPOCH_TICKS = 621355968000000000n;
const MAX_TICKS = 3155378975999999999n;

const DATE_TOKENS = ["yyyy", "MM", "dd", "HH", "mm", "ss", "fff"] as const;

/** Splits a `date` format into tokens and literals; undefined when it holds a letter that is no fixed-width token. */
export function dateFormatParts(format: string): string[] | undefined {
  const parts: string[] = [];
  let i = 0;
  while (i < format.length) {
    const tok = DATE_TOKENS.find((t) => format.startsWith(t, i));
    if (tok) {
      parts.push(tok);
      i += tok.length;
      continue;
    }
    if (/[A-Za-z]/.test(format[i])) return undefined;
    parts.push(format[i]);
    i++;
  }
  return parts;
}

/** The text of each date-format token (`yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`, `fff`) for `d`, in UTC. */
export function dateTokenTexts(d: Date): Record<"yyyy" | "MM" | "dd" | "HH" | "mm" | "ss" | "fff", string> {
  const p2 = (n: number) => String(n).padStart(2, "0");
  return {
    yyyy: String(d.getUTCFullYear()).padStart(4, "0"),
    MM: p2(d.getUTCMonth() + 1),
    dd: p2(d.getUTCDate()),
    HH: p2(d.getUTCHours()),
    mm: p2(d.getUTCMinutes()),
    ss: p2(d.getUTCSeconds()),
    fff: String(d.getUTCMilliseconds()).padStart(3, "0"),
  };
}

export function formatDate(d: Date, format: string): string {
  const parts = dateFormatParts(format) ?? [];
  const map: Record<string, string> = dateTokenTexts(d);
  return parts.map((p) => map[p] ?? p).join("");
}

const utf8 = new TextEncoder();

/** MD5 of the UTF-8 text (lone surrogates as U+FFFD, as Node's and the browsers' encoders write them), lowercase hex. */
export function md5hex(text: string): string {
  return md5(utf8.encode(text));
}

export function bucketOf(text: string, n: number): string {
  const v = parseInt(md5hex(text).slice(0, 8), 16) % n;
  return String(v).padStart(String(Math.max(0, n - 1)).length, "0");
}

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
      return n === undefined ? text : padDigits(text, n);
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

/** Left-pads with zeros; a negative number keeps its sign in front. */
function padDigits(text: string, width: number): string {
  const w = Math.min(width, MAX_RENDERED_WIDTH);
  if (text.startsWith("-")) return "-" + text.slice(1).padStart(w - 1, "0");
  return text.padStart(w, "0");
}

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
    if (!d) return undefined;
    const ticks = EPOCH_TICKS + BigInt(d.getTime()) * 10000n;
    return (MAX_TICKS - ticks).toString().padStart(MAX_TICKS.toString().length, "0");
  }
  if (typeof v !== "number" || info.max === undefined) return undefined;
  return String(info.max - v).padStart(renderedDigits(info.max), "0");
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
      return n ? String(Math.max(0, n - 1)).length : inner;
    case "date": {
      const fmt = isStringLit(part.args[1]) ? part.args[1].value : "";
      return formatDate(new Date(0), fmt).length;
    }
    case "reverse": {
      const name = isExpr(part.args[0]) ? soleRef(part.args[0]) : undefined;
      const info = name ? props.get(name) : undefined;
      if (info?.type === "datetime") return MAX_TICKS.toString().length;
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
