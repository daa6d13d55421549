/**
 * Which design table's PartitionKey expression an observed key matches.
 * Each expression becomes a regular expression from the core's own reading
 * of its parts (`analyzeKey`): a literal stands for itself, an enum
 * property for its values, every other part for its alphabet (charset,
 * digits, hex…) at its width — exact when every rendering has the same
 * width, bounded by the longest otherwise.
 */
import { analyzeKey, type KeyPartInfo, type TdlAnalysis } from "@core";

export interface KeyPattern {
  /** The design table. */
  table: string;
  /** The PartitionKey expression as the design writes it. */
  expression: string;
  pattern: RegExp;
  /** The longest key the expression renders (Infinity when unbounded). */
  maxChars: number;
}

/** Characters a key may hold (the service refuses `/ \ # ?` and control characters). */
const KEY_CHAR = "[^/\\\\#?\\u0000-\\u001f\\u007f-\\u009f]";

/** The patterns of every design table that parses and has a PartitionKey. */
export function keyPatterns(analysis: TdlAnalysis): KeyPattern[] {
  const out: KeyPattern[] = [];
  for (const tm of analysis.tables) {
    const decl = tm.table.partitionKey;
    if (!decl || tm.table.hasSyntaxError) continue;
    const info = analyzeKey(decl.expr, tm.props);
    const body = info.parts.map(partPattern).join("");
    const maxChars = info.parts.reduce((s, p) => s + p.maxChars, 0);
    out.push({
      table: tm.table.name.text,
      expression: tm.text.slice(decl.expr.start, decl.expr.end).trim(),
      pattern: new RegExp(`^${body}$`),
      maxChars,
    });
  }
  return out;
}

/** Whether `key` is one the pattern's expression renders (keys longer than it can render are not tried). */
export function matches(p: KeyPattern, key: string): boolean {
  return key.length <= p.maxChars && p.pattern.test(key);
}

function partPattern(p: KeyPartInfo): string {
  if (p.literal !== undefined) return escape(p.literal);
  const values = p.part.kind === "ref" && p.prop?.type === "enum" ? p.prop.enumValues : undefined;
  if (values?.length)
    return `(?:${[...values]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join("|")})`;
  const cls = p.charset ? `[${p.charset.ranges.map(([lo, hi]) => (lo === hi ? unit(lo) : `${unit(lo)}-${unit(hi)}`)).join("")}]` : KEY_CHAR;
  const max = Number.isFinite(p.maxChars) ? p.maxChars : undefined;
  if (max === undefined) return `${cls}*`;
  // pad() renders at least its width, and more for a value wider than it.
  if (p.fixedWidth && p.fn !== "pad") return `${cls}{${max}}`;
  return `${cls}{${p.fn === "pad" ? 1 : 0},${max}}`;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

function unit(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}
