/**
 * The words messages are made of, in one place and free of Node and of the
 * DOM, so that the language server, the CLI, the extension and the pages
 * say them alike: counts, nouns that agree with their count, user text
 * clipped to a bound, characters a reader could not see shown by their code,
 * shares, durations, sizes and dollars, and the stress report's rates and
 * errors. The only home of `toLocaleString`: ESLint keeps it out of every
 * other folder (eslint.config.mjs).
 */

/**
 * A factor exactly as it was given, to six significant digits: `0.0063`
 * is "0.0063" (formatCount would round it to "0.01"), `1` is "1". For
 * scales a user typed (`--scale`) and the ones a run measured.
 */
export function formatFactor(k: number): string {
  if (!Number.isFinite(k)) return formatCount(k);
  return String(Number(k.toPrecision(6)));
}

/**
 * A figure as messages print it: thousands separators, and as many decimals
 * as its size needs — none from 100 or for a whole number, one from 1,
 * two below 1 ("12,345", "240", "12.5", "0.25"); "∞" when unbounded. From a
 * billion on, in words ("2.5 billion", "12 trillion"), and past a thousand
 * trillion as a power of ten ("1.2 × 10^18"): a reader cannot take in ten
 * digits, and no figure of a message should need them.
 */
export function formatCount(n: number): string {
  if (Number.isNaN(n)) return "unknown";
  if (!Number.isFinite(n)) return n > 0 ? "∞" : "-∞";
  const abs = Math.abs(n);
  if (abs >= 999_999_999.5) {
    if (abs >= 999_999_999_999_999.5) {
      const [mantissa, exponent] = n.toExponential(1).split("e");
      return `${mantissa.replace(/\.0$/, "")} × 10^${Number(exponent)}`;
    }
    const [scale, word] = abs >= 999_999_999_999.5 ? [1e12, "trillion"] : [1e9, "billion"];
    return `${plain(n / scale)} ${word}`;
  }
  return plain(n);
}

/**
 * One formatter per decimals setting, made once: `toLocaleString` with
 * options builds a new `Intl.NumberFormat` on every call, and the figures of
 * a 5,000-line design's messages made that a fifth of its analysis.
 */
const FORMATS = new Map<string, Intl.NumberFormat>();

function grouped(n: number, minimumFractionDigits: number, maximumFractionDigits: number): string {
  const key = `${minimumFractionDigits}-${maximumFractionDigits}`;
  let f = FORMATS.get(key);
  if (!f) FORMATS.set(key, (f = new Intl.NumberFormat("en-US", { minimumFractionDigits, maximumFractionDigits })));
  return f.format(n);
}

function plain(n: number): string {
  const abs = Math.abs(n);
  const digits = abs >= 100 || Number.isInteger(n) ? 0 : abs >= 1 ? 1 : 2;
  return grouped(n, 0, digits);
}

/** "1 partition", "3 partitions", "1 entity", "0 entities" (`many` for irregular plurals). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** The word that agrees with a count, without the count: "it"/"them", "remains"/"remain", "does"/"do". */
export function agree(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/**
 * A quantity of a bill's line as a reader takes it in: up to two decimals
 * below 10, whole and grouped from 10 ("0.25", "7.5", "1,235").
 */
export function formatQuantity(n: number): string {
  return n < 10 ? grouped(n, 0, 2) : formatCount(Math.round(n));
}

/** A share (0..1) as a percentage a reader can tell from zero: "50%", "2.5%", "0.02%". */
export function formatPercent(share: number): string {
  const v = share * 100;
  return `${v >= 1 || v === 0 ? formatCount(v) : Number(v.toPrecision(2)).toString()}%`;
}

/** A year of the Gregorian calendar in seconds (365.2425 days): the `y` of a TDL duration, the "year" of a spoken one. */
export const YEAR_SECONDS = 365.2425 * 86400;

const SPOKEN_UNITS: Array<[number, string]> = [
  [YEAR_SECONDS, "year"],
  [86400, "day"],
  [3600, "hour"],
  [60, "minute"],
  [1, "second"],
];

/** A duration as a reader says it: "90 days", "≈ 23.1 hours", "2 years" (the largest unit that gives at least 2; "≈" when rounded). */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "unbounded";
  const [unit, name] = SPOKEN_UNITS.find(([u]) => seconds >= 2 * u) ?? [1, "second"];
  const v = seconds / unit;
  const shown = v >= 100 ? Math.round(v) : Math.round(v * 10) / 10;
  return `${Math.abs(shown - v) > 1e-9 * v ? "≈ " : ""}${plural(shown, name)}`;
}

/** A byte size in binary units: "20 GiB", "1.5 MiB", "1,000 B". */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  const shown = v >= 100 || u === 0 ? formatCount(Math.round(v)) : (Math.round(v * 10) / 10).toString();
  return `${shown} ${units[u]}`;
}

/**
 * Dollars as a reader takes them in: cents, grouped ("$1,234.56", "$0.00").
 * A run's own cost (`"small"`) keeps two significant digits below a cent
 * ("$0.0043") and says "under $0.0001" below that, never an exponent, so a
 * real cost never reads as free.
 */
export function dollars(usd: number, precision: "cents" | "small" = "cents"): string {
  if (precision === "small" && usd !== 0 && usd < 0.01) return usd < 0.0001 ? "under $0.0001" : `$${usd.toPrecision(2)}`;
  return `$${grouped(usd, 2, 2)}`;
}

/**
 * User text quoted in a message, kept short: at most `max` UTF-16 units,
 * the `…` that marks a cut included, never inside a surrogate pair — so a
 * 1 MB identifier is named by its start and a message stays bounded.
 */
export function clip(text: string, max = 60): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end) + "…";
}

/** The first `max` names (each clipped) joined with ", ", then "and N more". */
export function listNames(names: readonly string[], max = 8): string {
  const shown = names
    .slice(0, max)
    .map((n) => clip(n))
    .join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/**
 * Whether a reader could not see the character in a message: control
 * characters (C0, DEL, C1), lone surrogates, the byte-order mark and the
 * line and paragraph separators.
 */
export function isInvisible(codePoint: number): boolean {
  const c = codePoint;
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xdfff) || c === 0xfeff || c === 0x2028 || c === 0x2029;
}

/** A character's code as Unicode writes it: `U+0009`, `U+1F600` (uppercase, at least four digits). */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** A character as messages show it: quoted when a reader can see it (`'#'`), by its code otherwise (`U+0000`). */
export function showChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return isInvisible(cp) ? codePointLabel(cp) : `'${ch}'`;
}

/** Text with every character a reader could not see written as its code: a tab between `a` and `b` reads `aU+0009b`. */
export function showInvisibles(text: string): string {
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    out += isInvisible(cp) ? codePointLabel(cp) : ch;
  }
  return out;
}

/** Source text quoted in a message: clipped (`clip`), then its invisible characters shown by their code. */
export function clipVisible(text: string, max = 40): string {
  return showInvisibles(clip(text, max));
}

/** A rate in entities per second: "1 entity/s", "2,400 entities/s". */
export function entityRate(n: number): string {
  return `${plural(n, "entity", "entities")}/s`;
}

/**
 * A run's failures by the service's error code, most frequent first:
 * "none", or "12 ServerBusy, 3 EntityAlreadyExists" (statuses only when no
 * code came with them).
 */
export function errorsInWords(errorCodes: Record<string, number>, errors: Record<string, number> = {}): string {
  const source = Object.keys(errorCodes).length ? errorCodes : errors;
  const entries = Object.entries(source)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.length ? entries.map(([code, n]) => `${formatCount(n)} ${code}`).join(", ") : "none";
}
