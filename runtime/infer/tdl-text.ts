/**
 * Pieces of `.tdl` text: string literals, counts, sizes, key expressions
 * and property types, written so that the core's parser reads back exactly
 * what was meant (language.md).
 */
import type { Atom } from "./key-atoms";
import type { PropertyFacts } from "./properties";

/** A TDL string literal: `\"`, `\\`, `\n`, `\t` and `\uXXXX` for other control characters. */
export function tdlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

/** A count as designers write it: exact below 10,000, else two significant digits with K, M or B. */
export function tdlCount(n: number): string {
  const v = Math.max(0, Math.round(n));
  if (v < 10_000) return String(v);
  for (const [suffix, unit] of [
    ["B", 1e9],
    ["M", 1e6],
    ["K", 1e3],
  ] as const) {
    if (v >= unit) {
      const digits = Math.floor(Math.log10(v / unit)) + 1;
      const scale = 10 ** Math.max(0, 2 - digits);
      return `${Math.round((v / unit) * scale) / scale}${suffix}`;
    }
  }
  return String(v);
}

/** A size in bytes: `612B` below 10 KiB, else whole KB or MB. */
export function tdlSize(bytes: number): string {
  const b = Math.max(1, Math.round(bytes));
  if (b < 10 * 1024) return `${b}B`;
  if (b < 10 * 1024 * 1024) return `${Math.round(b / 1024)}KB`;
  return `${Math.round(b / 1024 / 1024)}MB`;
}

/** A key expression of atoms (no free atom is left by then). */
export function tdlExpr(t: readonly Atom[]): string {
  return (
    t
      .map((a) => {
        switch (a.kind) {
          case "lit":
            return tdlString(a.text);
          case "ref":
            return a.prop;
          case "lower":
          case "upper":
            return `${a.kind}(${a.prop})`;
          case "pad":
            return `pad(${a.prop}, ${a.width})`;
          case "date":
            return `date(${a.prop}, ${tdlString(a.format)})`;
          case "revTicks":
            return `reverse(${a.prop})`;
          case "reverse":
            // A countdown written wider than its constant (JavaScript's 8640000000000000 − t padded to 19 digits).
            return a.width ? `pad(reverse(${a.prop}), ${a.width})` : `reverse(${a.prop})`;
          case "hash":
            return `hash(${a.prop}, ${a.n})`;
          case "bucket":
            return `bucket(${a.prop}, ${a.n})`;
          case "free":
            return '"?"';
        }
      })
      .join(" + ") || '""'
  );
}

/** Names the language accepts as identifiers. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const INT32_MAX = 2 ** 31 - 1;

/**
 * The declared type: the Edm type, with the range an integer must have for
 * its key parts (pad width → 0..10^w−1, reverse → its maximum) or else the
 * range seen; string lengths; enum values.
 */
export function tdlType(f: PropertyFacts, pad: number | undefined, max: number | undefined): string {
  switch (f.edm) {
    case "Int32":
    case "Int64": {
      const lo = f.min !== undefined && f.min >= 0 ? 0 : Math.floor(f.min ?? 0);
      const hi = max ?? (pad !== undefined && (f.max ?? 0) < 10 ** pad ? 10 ** pad - 1 : Math.ceil(f.max ?? 0));
      const wide = f.edm === "Int64" || hi > INT32_MAX || lo < -INT32_MAX - 1;
      // A bound past 2^53 (a Double sampled under the same name) has no exact integer to write: leave the range out.
      if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)) return wide ? "int64" : "int";
      return `${wide ? "int64" : "int"}(${lo}..${hi})`;
    }
    case "Double":
      return "double";
    case "Boolean":
      return "bool";
    case "DateTime":
      return "datetime";
    case "Guid":
      return "guid";
    case "Binary":
      return "binary";
    default: {
      if (f.enumValues) return `enum(${f.enumValues.join(", ")})`;
      if (!f.maxLength) return "string";
      return f.minLength === f.maxLength ? `string(${f.maxLength}..${f.maxLength})` : `string(${f.maxLength})`;
    }
  }
}
