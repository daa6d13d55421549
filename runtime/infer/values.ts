/**
 * Sampled values as the design language sees them: the text a property
 * renders to inside a key (language.md, "Keys"), its scalar for the core's
 * key evaluator, and the MD5, bucket, date and inverted-ticks helpers that
 * the key-grammar inference matches against. They follow the core's
 * `renderKey` exactly; the inferred design is re-checked with `renderKey`
 * itself (infer.ts), so a difference would show as a lower match rate.
 */
import { createHash } from "node:crypto";
import { dateTokenTexts, type Scalar } from "@core";
import type { EntityRow, TypedValue } from "@protocol/entities";

/** .NET ticks (100 ns since 0001-01-01) of the Unix epoch and of DateTime.MaxValue, as the core's `reverse` uses them. */
export const EPOCH_TICKS = 621355968000000000n;
export const MAX_TICKS = 3155378975999999999n;

/** One sampled row: keys, the service's Timestamp (ms, when read) and the typed properties. */
export interface Row {
  pk: string;
  rk: string;
  timestamp?: number;
  props: ReadonlyMap<string, TypedValue>;
}

/** A sampled entity as a row (system properties left out). */
export function rowOf(e: EntityRow): Row {
  const ts = e.timestamp ? Date.parse(e.timestamp) : NaN;
  return { pk: e.partitionKey, rk: e.rowKey, timestamp: Number.isNaN(ts) ? undefined : ts, props: new Map(Object.entries(e.properties)) };
}

/** The text a value renders to in a key; undefined for values a key cannot hold (binary, an unreadable date). */
export function keyText(v: TypedValue): string | undefined {
  switch (v.type) {
    case "String":
      return v.value;
    case "Boolean":
      return v.value === "true" ? "true" : "false";
    // The core evaluates every number as a double: an Int64 past 2^53 (or "007") renders other digits than its text.
    case "Int32":
    case "Int64":
    case "Double": {
      const n = Number(v.value);
      return Number.isFinite(n) ? String(n) : undefined;
    }
    case "Guid":
      return v.value.toLowerCase();
    case "DateTime": {
      const ms = Date.parse(v.value);
      return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
    }
    default:
      return undefined;
  }
}

/** The value as the core's key evaluator takes it (`renderKey`). */
export function scalarOf(v: TypedValue): Scalar | undefined {
  switch (v.type) {
    case "Int32":
    case "Int64":
    case "Double": {
      const n = Number(v.value);
      return Number.isFinite(n) ? n : undefined;
    }
    case "Boolean":
      return v.value === "true";
    case "DateTime": {
      const ms = Date.parse(v.value);
      return Number.isNaN(ms) ? undefined : new Date(ms);
    }
    case "Guid":
      return v.value.toLowerCase();
    case "Binary":
      return undefined;
    default:
      return v.value;
  }
}

/** Whether the value is a whole number the language can pad (int, int64; not negative: a sign breaks padding's order). */
export function paddable(v: TypedValue): boolean {
  // Canonical and safe only: the core pads the double's text, which differs from "007" or 20-digit Int64s.
  return (
    (v.type === "Int32" || v.type === "Int64") &&
    /^\d+$/.test(v.value) &&
    String(Number(v.value)) === v.value &&
    Number.isSafeInteger(Number(v.value))
  );
}

/** Milliseconds of a DateTime value, or undefined. */
export function millisOf(v: TypedValue): number | undefined {
  if (v.type !== "DateTime") return undefined;
  const ms = Date.parse(v.value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `DateTime.MaxValue.Ticks - ticks(t)`, 19 digits: what the core renders for `reverse(datetime)`. */
export function invertedTicks(ms: number): string {
  const ticks = EPOCH_TICKS + BigInt(ms) * 10000n;
  return (MAX_TICKS - ticks).toString().padStart(19, "0");
}

/** MD5 of the UTF-8 text, lowercase hex (the core's `hash`). */
export function md5hex(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** The first 8 hex digits of the MD5 as an unsigned 32-bit number (what `bucket` reduces mod n). */
export function hash32(text: string): number {
  return parseInt(md5hex(text).slice(0, 8), 16);
}

/** Width of a bucket number: the digits of n - 1. */
export function bucketWidth(n: number): number {
  return String(Math.max(0, n - 1)).length;
}

/** The fixed-width date tokens of the language, most significant first. */
export const DATE_TOKENS = ["yyyy", "MM", "dd", "HH", "mm", "ss", "fff"] as const;
export type DateToken = (typeof DATE_TOKENS)[number];

/** Each token's text for a date, in UTC. */
export function dateTokens(ms: number): Record<DateToken, string> {
  return dateTokenTexts(new Date(ms));
}

/** A date rendered with a format of tokens and literal characters (the core's `date`). */
export function formatDate(ms: number, format: string): string {
  const tokens = dateTokens(ms);
  let out = "";
  for (let i = 0; i < format.length;) {
    const tok = DATE_TOKENS.find((t) => format.startsWith(t, i));
    if (tok) {
      out += tokens[tok];
      i += tok.length;
    } else {
      out += format[i];
      i++;
    }
  }
  return out;
}
