/**
 * Time buckets (`docs/language.md`, "Estimates": load is temporal): how wide a
 * `date(P, format)` bucket is, how many of them a table holds — the
 * retained span divided by the width — and where that span comes from:
 * `retention`, else `rows` divided by the insert rate, else unknown.
 */
import { Access, Table } from "../tdl/ast";
import { DURATION_UNITS } from "../tdl/numbers";
import { dateFormatParts, DateToken, isDateToken } from "./key-functions";

/** A `date(P, format)` part of a key whose property moves with time. */
export interface TimeBucket {
  /** The datetime property the bucket is cut from. */
  prop: string;
  format: string;
  /** Width of one bucket in seconds: the finest token of the format. */
  widthSeconds: number;
  /** The bucket's adjective ("hourly", "daily"…) and its width in words ("hour", "day"…). */
  adjective: string;
  unit: string;
  /** Buckets the table holds; undefined when the span is unknown and the format does not cycle. */
  count?: number;
  /** How `count` was found: the span's buckets, or the values a format without a year cycles through. */
  countedBy?: "span" | "cycle";
}

/** Where the retained span comes from. */
export type RetainedSpan = { seconds: number; source: "retention" } | { seconds: number; source: "rows"; rows: number; insertRate: number };

const YEAR = DURATION_UNITS.y;
const TOKENS: Record<DateToken, { seconds: number; values: number; adjective: string; unit: string }> = {
  yyyy: { seconds: YEAR, values: Infinity, adjective: "yearly", unit: "year" },
  MM: { seconds: YEAR / 12, values: 12, adjective: "monthly", unit: "month" },
  dd: { seconds: 86400, values: 31, adjective: "daily", unit: "day" },
  HH: { seconds: 3600, values: 24, adjective: "hourly", unit: "hour" },
  mm: { seconds: 60, values: 60, adjective: "per-minute", unit: "minute" },
  ss: { seconds: 1, values: 60, adjective: "per-second", unit: "second" },
  fff: { seconds: 0.001, values: 1000, adjective: "per-millisecond", unit: "millisecond" },
};

/**
 * The bucket a date format cuts, and how many there are over `spanSeconds`.
 * A format with a year counts the buckets the span covers; one without a year
 * cycles ("HH" has 24 values whatever the span), so its count is the smaller
 * of the cycle and the span's buckets.
 */
export function timeBucket(prop: string, format: string, spanSeconds: number | undefined): TimeBucket | undefined {
  const tokens = (dateFormatParts(format) ?? []).filter(isDateToken).map((t) => TOKENS[t]);
  if (!tokens.length) return undefined;
  const finest = tokens.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const cycle = tokens.reduce((p, t) => (t.values === Infinity ? p : p * t.values), 1);
  const hasYear = tokens.some((t) => t.values === Infinity);
  const bucket = { prop, format, widthSeconds: finest.seconds, adjective: finest.adjective, unit: finest.unit };
  if (spanSeconds !== undefined && spanSeconds > 0 && Number.isFinite(spanSeconds)) {
    const covered = Math.max(1, Math.ceil(spanSeconds / finest.seconds - 1e-9));
    const years = Math.max(1, Math.ceil(spanSeconds / YEAR - 1e-9));
    const cycled = hasYear ? years * cycle : cycle;
    return { ...bucket, count: Math.min(covered, cycled), countedBy: covered <= cycled ? "span" : "cycle" };
  }
  return hasYear ? bucket : { ...bucket, count: cycle, countedBy: "cycle" };
}

/**
 * Entities a second the write patterns add: inserts, upserts and
 * transactions' entities (peak rates), less what deletes take away — an
 * entry that a state change deletes and inserts again (a schedule's, a
 * queue's) moves, it does not make the table grow. The inserts alone when
 * the deletes match or pass them (a table at its steady size).
 */
export function insertRate(accesses: readonly Access[]): number {
  let rate = 0;
  let deleted = 0;
  for (const a of accesses) {
    if (!a.rate || !(a.rate.perSecond > 0) || !Number.isFinite(a.rate.perSecond)) continue;
    if (a.kind === "write" && (a.op === "insert" || a.op === "upsert")) rate += a.rate.perSecond;
    else if (a.kind === "write" && a.op === "delete") deleted += a.rate.perSecond;
    else if (a.kind === "transaction") rate += a.rate.perSecond * (Number.isFinite(a.entities?.value) ? a.entities!.value : 1);
  }
  return rate > deleted ? rate - deleted : rate;
}

/** The span a table retains: `retention`, else rows ÷ insert rate, else undefined. */
export function retainedSpan(table: Table, rows: number | undefined): RetainedSpan | undefined {
  const retention = table.retention?.value.value;
  if (retention !== undefined && Number.isFinite(retention) && retention > 0) return { seconds: retention, source: "retention" };
  const rate = insertRate(table.accesses);
  if (rows !== undefined && rows > 0 && rate > 0) return { seconds: rows / rate, source: "rows", rows, insertRate: rate };
  return undefined;
}
