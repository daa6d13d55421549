/**
 * What a design says about each property's values: domain, length, alphabet,
 * cardinality, skew and monotonicity, with the language's defaults applied.
 */
import { Property, Table, TypeName } from "../tdl/ast";
import { Charset, charsetIsAscii, isCharsetError, parseCharset } from "./charset";

export interface PropertyInfo {
  name: string;
  type: TypeName;
  decl: Property;
  /** Integer range (int, int64). */
  min?: number;
  max?: number;
  /** Longest rendered text, in characters; Infinity when unbounded. */
  maxChars: number;
  /** Known alphabet of rendered values (charset, digits, enum letters…); undefined when unknown. */
  charset?: Charset;
  /** Distinct values the table holds; undefined = unknown, treated as high. */
  distinct?: number;
  unique: boolean;
  increasing: boolean;
  decreasing: boolean;
  /** Share (0..1) of traffic and rows taken by the most frequent value, from `hot`. */
  hot?: number;
  enumValues?: string[];
}

export const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
/** int64 bounds as doubles: digits are what matter for keys (19 digits, 20 with the sign). */
export const INT64 = { min: -(2 ** 63), max: 2 ** 63 - 1 }; // 2 ** 63 - 1 rounds to 2 ** 63 as a double: the digit count is still right

const FIXED_CHARS: Partial<Record<TypeName, number>> = { bool: 5, datetime: 24, guid: 36, double: 24 };

const RENDER_CHARSETS: Partial<Record<TypeName, string>> = {
  int: "\\-0-9",
  int64: "\\-0-9",
  datetime: "\\-.0-9:TZ",
  guid: "\\-0-9a-f",
  bool: "a-z",
  double: "\\-+.0-9Ee",
};

/** Decimal digits of an integer's rendering, sign included. */
export function renderedDigits(n: number): number {
  if (n === INT64.max) return 19;
  if (n === INT64.min) return 20;
  return String(Math.trunc(n)).length;
}

/** Builds the property table of a design table (first declaration of a name wins). */
export function propertyInfos(table: Table): Map<string, PropertyInfo> {
  const out = new Map<string, PropertyInfo>();
  const rows = table.rows && Number.isFinite(table.rows.value.value) ? table.rows.value.value : undefined;
  for (const p of table.properties) {
    if (!out.has(p.name.text)) out.set(p.name.text, propertyInfo(p, rows));
  }
  return out;
}

export function propertyInfo(p: Property, rows?: number): PropertyInfo {
  const t = p.type;
  const info: PropertyInfo = {
    name: p.name.text,
    type: t.name,
    decl: p,
    maxChars: Infinity,
    unique: false,
    increasing: false,
    decreasing: false,
  };
  if (t.name === "int" || t.name === "int64") {
    const bounds = t.name === "int" ? INT32 : INT64;
    info.min = finite(t.min?.value) ?? bounds.min;
    info.max = finite(t.max?.value) ?? bounds.max;
    info.maxChars = Math.max(renderedDigits(info.min), renderedDigits(info.max));
    if (t.min && t.max) info.distinct = Math.max(1, info.max - info.min + 1);
  } else if (t.name === "string") {
    info.maxChars = finite(t.max?.value) ?? Infinity;
  } else if (t.name === "enum") {
    info.enumValues = (t.values ?? []).map((v) => v.text);
    info.maxChars = info.enumValues.reduce((max, v) => Math.max(max, v.length), 0);
    info.distinct = new Set(info.enumValues).size;
    const cs = parseCharset(escapeClass([...new Set(info.enumValues.join(""))].join("")));
    if (!isCharsetError(cs)) info.charset = cs;
  } else if (t.name === "bool") {
    info.distinct = 2;
  } else if (t.name === "binary") {
    const size = finite(t.size?.value);
    info.maxChars = size === undefined ? Infinity : size * 2;
  }
  info.maxChars = FIXED_CHARS[t.name] ?? info.maxChars;
  const renderSet = RENDER_CHARSETS[t.name];
  if (renderSet) info.charset = parseCharset(renderSet) as Charset;
  if (t.name === "guid") info.distinct = rows;

  for (const m of p.modifiers) {
    switch (m.kind) {
      case "distinct":
        info.distinct = finite(m.count.value) ?? info.distinct;
        break;
      case "unique":
        info.unique = true;
        info.distinct = rows ?? info.distinct;
        break;
      case "increasing":
        info.increasing = true;
        break;
      case "decreasing":
        info.decreasing = true;
        break;
      case "hot": {
        const v = finite(m.percent.value);
        if (v !== undefined && v > 0 && v <= 100) info.hot = v / 100;
        break;
      }
      case "charset":
        if (t.name === "string") {
          const cs = parseCharset(m.chars.value);
          if (!isCharsetError(cs)) info.charset = cs;
        }
        break;
    }
  }
  return info;
}

function finite(n: number | undefined): number | undefined {
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

function escapeClass(chars: string): string {
  return chars.replace(/[\\\-^\]]/g, (c) => "\\" + c);
}

/** True when UTF-8 rendering of the property's values is one byte a character. */
export function isAsciiProperty(info: PropertyInfo): boolean {
  return info.charset ? charsetIsAscii(info.charset) : info.type !== "string";
}
