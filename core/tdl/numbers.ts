/**
 * Interpretation of TDL number literals by context: counts (`2.5M`), sizes
 * (`4KiB`), integers (`-5`), and rate units. Each returns NaN with a message
 * when the literal does not fit.
 */
import { YEAR_SECONDS } from "../text/words";

export interface Interpreted {
  value: number;
  error?: string;
}

const COUNT_SUFFIX: Record<string, number> = { "": 1, K: 1e3, M: 1e6, B: 1e9 };
const SIZE_SUFFIX: Record<string, number> = {
  B: 1,
  KB: 1024,
  KiB: 1024,
  MB: 1024 ** 2,
  MiB: 1024 ** 2,
  GB: 1024 ** 3,
  GiB: 1024 ** 3,
};
export const RATE_UNITS: Record<string, number> = { s: 1, min: 60, h: 3600, day: 86400 };

function split(raw: string): { digits: string; suffix: string } {
  const m = /^(-?[0-9_]+(?:\.[0-9_]+)?)([A-Za-z]*)$/.exec(raw);
  return m ? { digits: m[1].replace(/_/g, ""), suffix: m[2] } : { digits: "", suffix: raw };
}

/** `42`, `1_000_000`, `2.5M`: a count of entities (K, M, B are powers of ten). */
export function parseCount(raw: string): Interpreted {
  const { digits, suffix } = split(raw);
  const mult = COUNT_SUFFIX[suffix];
  if (mult === undefined) return { value: NaN, error: `'${raw}' is not a count: use digits with an optional K, M or B suffix` };
  const value = Math.round(Number(digits) * mult);
  if (!Number.isFinite(value) || value < 0) return { value: NaN, error: `'${raw}' is not a count` };
  return { value };
}

/** `512B`, `4KiB`, `1MB`: a size in bytes (KB and KiB are both 1024). */
export function parseSize(raw: string): Interpreted {
  const { digits, suffix } = split(raw);
  const mult = SIZE_SUFFIX[suffix];
  if (mult === undefined) {
    return { value: NaN, error: `'${raw}' is not a size: use a unit B, KB, KiB, MB, MiB, GB or GiB` };
  }
  return { value: Math.round(Number(digits) * mult) };
}

/** Seconds in each unit a duration may carry: a year and a month are the Gregorian averages (365.2425 days, a twelfth of it). */
export const DURATION_UNITS: Record<string, number> = { s: 1, min: 60, h: 3600, d: 86400, w: 7 * 86400, y: YEAR_SECONDS };

/** `90d`, `12h`, `2y`: a duration in seconds (units s, min, h, d, w, y). */
export function parseDuration(raw: string): Interpreted {
  const { digits, suffix } = split(raw);
  const mult = DURATION_UNITS[suffix];
  if (mult === undefined || digits === "") {
    return { value: NaN, error: `'${raw}' is not a duration: use a number with a unit s, min, h, d, w or y, such as 90d` };
  }
  const value = Number(digits) * mult;
  if (!Number.isFinite(value)) return { value: NaN, error: `'${raw.slice(0, 40)}' is too long a duration` };
  return { value };
}

/** A plain (possibly negative) integer: widths, ranges, `n` arguments. */
export function parseInteger(raw: string): Interpreted {
  const { digits, suffix } = split(raw);
  if (suffix !== "" || digits.includes(".") || digits === "") {
    return { value: NaN, error: `'${raw}' is not an integer` };
  }
  return { value: Number(digits) };
}

/** A percentage's number (the `%` is a separate token). */
export function parsePercent(raw: string): Interpreted {
  const { digits, suffix } = split(raw);
  if (suffix !== "" || digits === "") return { value: NaN, error: `'${raw}' is not a percentage` };
  return { value: Number(digits) };
}
