/**
 * The time of a log line, in ms since the epoch. Logs are in UTC: ISO 8601
 * with up to seven fractional digits (`2026-11-24T13:05:03.1234567Z`, as
 * Azure writes them), with an offset, or without a zone (then UTC, never
 * the machine's zone); and the Log Analytics portal's CSV form
 * `11/24/2026, 1:05:03.123 PM` (its `[UTC]` columns).
 */

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}:?\d{2})?$/;
const PORTAL = /^(\d{1,2})\/(\d{1,2})\/(\d{4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(AM|PM)?$/i;

/** The time `text` names, or undefined when it is no time these logs write. */
export function parseLogTime(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const s = text.trim();
  // Azure's own form, by far the most common: Date.parse reads it as it is.
  if (s.length >= 20 && s.charCodeAt(10) === 84 /* T */ && s.charCodeAt(s.length - 1) === 90 /* Z */) {
    const t = Date.parse(s);
    if (!Number.isNaN(t)) return t;
  }
  const iso = ISO.exec(s);
  if (iso) {
    const [, y, mo, d, h, mi, sec = "0", frac = "", zone] = iso;
    const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
    const utc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec, ms);
    if (!valid(utc, +mo, +d, +h, +mi, +sec)) return undefined;
    return zone && zone !== "Z" ? utc - offsetMs(zone) : utc;
  }
  const us = PORTAL.exec(s);
  if (us) {
    const [, mo, d, y, h, mi, sec = "0", frac = "", half] = us;
    let hour = +h;
    if (half) {
      if (hour < 1 || hour > 12) return undefined;
      hour = (hour % 12) + (half.toUpperCase() === "PM" ? 12 : 0);
    }
    const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
    const utc = Date.UTC(+y, +mo - 1, +d, hour, +mi, +sec, ms);
    return valid(utc, +mo, +d, hour, +mi, +sec) ? utc : undefined;
  }
  return undefined;
}

/** Fields within their ranges and a date that exists (Date.UTC rolls 31 February over into March). */
function valid(utc: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (!Number.isFinite(utc) || mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 60) return false;
  return new Date(utc).getUTCDate() === d;
}

function offsetMs(zone: string): number {
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
}

/** ISO 8601 in UTC with milliseconds, as the JSON output writes times. */
export function isoTime(t: number): string {
  return new Date(t).toISOString();
}
