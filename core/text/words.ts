/**
 * Numbers in the stress report's sentences, free of Node and of the DOM so
 * the report page uses the same words: counts with separators and as many
 * decimals as a small figure needs, and nouns that agree with their count.
 */

/** 12,345 · 240 · 12.5 · 0.25 (two significant digits below 1). */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  const digits = abs >= 100 || Number.isInteger(n) ? 0 : abs >= 10 ? 1 : abs >= 1 ? 1 : 2;
  return n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** "1 partition", "3 partitions", "1 entity", "0 entities" (`many` for irregular plurals). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A rate in entities per second: "1 entity/s", "2,400 entities/s". */
export function entityRate(n: number): string {
  return `${formatCount(n)} ${n === 1 ? "entity" : "entities"}/s`;
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
