/**
 * The key functions of the language (`docs/language.md`, "Keys") as
 * formulas on values: `hash`, `bucket`, `pad`, `reverse` of an integer or a
 * datetime, `date`. This is their one definition: the core's `renderKey`
 * (keys.ts) evaluates designs with it, the inference (runtime/infer) matches
 * sampled keys against it, and the generated builders (codegen/) carry its
 * constants, token table and widths, interpolated from here; the builders'
 * formulas are TypeScript text of their own (a generated module compiles
 * alone, under the user's compiler options), so a property test
 * (test/unit/codegen/roundtrip.test.ts) checks them against these on random
 * inputs.
 */
import { md5 } from "js-md5";

/** .NET ticks (100 ns since 0001-01-01) of the Unix epoch. */
export const EPOCH_TICKS = 621355968000000000n;
/** .NET ticks of DateTime.MaxValue: `reverse` of a datetime counts down from it. */
export const MAX_TICKS = 3155378975999999999n;
/** Ticks in a millisecond. */
export const TICKS_PER_MS = 10000n;
/** Digits of every inverted-ticks text: those of MAX_TICKS (19). */
export const TICKS_DIGITS = MAX_TICKS.toString().length;

/** The first and the last millisecond a .NET DateTime holds (0001-01-01, 9999-12-31T23:59:59.999Z): the dates keys can render. */
export const MIN_DATE_MS = Number(-EPOCH_TICKS / TICKS_PER_MS);
export const MAX_DATE_MS = Number((MAX_TICKS - EPOCH_TICKS) / TICKS_PER_MS);

/** `reverse` of a datetime (milliseconds since the epoch): DateTime.MaxValue.Ticks minus its ticks, 19 digits. */
export function invertedTicks(ms: number): string {
  const ticks = EPOCH_TICKS + BigInt(ms) * TICKS_PER_MS;
  return (MAX_TICKS - ticks).toString().padStart(TICKS_DIGITS, "0");
}

/** `reverse` of an integer: the range's maximum minus the value, left-padded with zeros to `width`. */
export function reverseInteger(max: number, value: number, width: number): string {
  return String(max - value).padStart(width, "0");
}

/** Left-pads decimal digits with zeros to `width` (`pad`); a negative number keeps its sign in front. */
export function padDigits(text: string, width: number): string {
  if (text.startsWith("-")) return "-" + text.slice(1).padStart(width - 1, "0");
  return text.padStart(width, "0");
}

/** The fixed-width tokens of `date` formats, most significant first; any other character is copied. */
export const DATE_TOKENS = ["yyyy", "MM", "dd", "HH", "mm", "ss", "fff"] as const;
export type DateToken = (typeof DATE_TOKENS)[number];

/** Whether a piece of a split format (`dateFormatParts`) is a token rather than a copied character. */
export function isDateToken(part: string): part is DateToken {
  return (DATE_TOKENS as readonly string[]).includes(part);
}

/** Splits a `date` format into tokens and copied characters; undefined when it holds a letter that is no token. */
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

/** The text of each date-format token for `d`, in UTC, each zero-padded to its token's width. */
export function dateTokenTexts(d: Date): Record<DateToken, string> {
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

/** `date`: the format with each token replaced by the date's field (empty for a format that is not fixed-width). */
export function formatDate(d: Date, format: string): string {
  // One pass, as `dateFormatParts` reads the format: the inference renders every sampled date with it.
  const texts = dateTokenTexts(d);
  let out = "";
  for (let i = 0; i < format.length;) {
    const tok = DATE_TOKENS.find((t) => format.startsWith(t, i));
    if (tok) {
      out += texts[tok];
      i += tok.length;
    } else if (/[A-Za-z]/.test(format[i])) return "";
    else out += format[i++];
  }
  return out;
}

const utf8 = new TextEncoder();

/** MD5 of the UTF-8 text (lone surrogates as U+FFFD, as Node's and the browsers' encoders write them), lowercase hex. */
export function md5hex(text: string): string {
  return md5(utf8.encode(text));
}

/** Hex digits of the MD5 that `bucket` reads as an unsigned number. */
export const BUCKET_HEX_DIGITS = 8;

/** The first 8 hex digits of the text's MD5 as an unsigned 32-bit number: what `bucket` reduces modulo n. */
export function hash32(text: string): number {
  return parseInt(md5hex(text).slice(0, BUCKET_HEX_DIGITS), 16);
}

/** Width of a bucket number: the digits of n - 1. */
export function bucketWidth(n: number): number {
  return String(Math.max(0, n - 1)).length;
}

/** `bucket`: the text's 32-bit hash modulo n, zero-padded to the digits of n - 1. */
export function bucketOf(text: string, n: number): string {
  return String(hash32(text) % n).padStart(bucketWidth(n), "0");
}
