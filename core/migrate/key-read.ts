/**
 * An old key read back into the values it was built from, at run time: the
 * migration's fallback for a property an old entity does not carry (an
 * application that kept a value only in its key). The key is cut as the
 * generated parsers cut it (codegen/keys.ts) — literals, fixed-width parts,
 * a part of variable length up to the literal after it or up to a
 * fixed-width tail — and each part that gives its property back is read:
 * a property itself, `pad` of an integer, `reverse` of an integer or a
 * datetime, `date` of a format that holds every field. `hash`, `bucket`,
 * `lower` and `upper` give nothing back. A reading is kept only when the
 * key renders again to exactly the same text.
 */
import { Expr, isExpr, isNumberLit, isStringLit, Part } from "../tdl/ast";
import {
  bucketWidth,
  DATE_TOKENS,
  dateFormatParts,
  formatDate,
  MAX_TICKS,
  EPOCH_TICKS,
  TICKS_DIGITS,
  TICKS_PER_MS,
} from "../model/key-functions";
import { renderKey, Scalar } from "../model/keys";
import { PropertyInfo, renderedDigits } from "../model/properties";

type Segment = { literal: string } | { width: number } | { until: string } | { tail: number };

/** How one top-level part is cut and, where it can, read back. */
interface PartReader {
  width?: number;
  literal?: string;
  /** The property the part gives back, and how its text becomes the value. */
  read?: { prop: string; value(text: string): Scalar | undefined };
}

/** The properties a key gives back (in order), or none when it cannot be cut. */
export function recoverable(expr: Expr, props: ReadonlyMap<string, PropertyInfo>): string[] {
  const plan = cutPlan(expr, props);
  return plan ? [...new Set(plan.readers.flatMap((r) => (r.read ? [r.read.prop] : [])))] : [];
}

/** The values a key gives back, or undefined when the text is not one the expression renders. */
export function readKey(expr: Expr, props: ReadonlyMap<string, PropertyInfo>, key: string): Map<string, Scalar> | undefined {
  const plan = cutPlan(expr, props);
  if (!plan) return undefined;
  const texts = split(key, plan.segments);
  if (!texts) return undefined;
  const out = new Map<string, Scalar>();
  for (const [i, r] of plan.readers.entries()) {
    if (!r.read) continue;
    const v = r.read.value(texts[i]);
    if (v === undefined) return undefined;
    out.set(r.read.prop, v);
  }
  // Only a reading the key renders back from is one: a part that gives nothing back still has to match.
  const everyPartRead = plan.readers.every((r) => r.read || r.literal !== undefined);
  if (everyPartRead && renderKey(expr, { props, values: out }) !== key) return undefined;
  return out;
}

function cutPlan(expr: Expr, props: ReadonlyMap<string, PropertyInfo>): { segments: Segment[]; readers: PartReader[] } | undefined {
  const readers = mergeLiterals(expr.parts).map((p) => (typeof p === "string" ? { literal: p, width: p.length } : readerOf(p, props)));
  const segments: Segment[] = [];
  for (let i = 0; i < readers.length; i++) {
    const r = readers[i];
    if (r.literal !== undefined) segments.push({ literal: r.literal });
    else if (r.width !== undefined) segments.push({ width: r.width });
    else {
      const rest = readers.slice(i + 1);
      const next = rest[0];
      if (rest.every((x) => x.width !== undefined)) segments.push({ tail: rest.reduce((s, x) => s + x.width!, 0) });
      else if (next?.literal !== undefined) segments.push({ until: next.literal });
      else return undefined;
    }
  }
  return { segments, readers };
}

function mergeLiterals(parts: readonly Part[]): Array<Part | string> {
  const out: Array<Part | string> = [];
  for (const p of parts) {
    if (p.kind !== "string") out.push(p);
    else if (p.value === "") continue;
    else if (typeof out[out.length - 1] === "string") out[out.length - 1] += p.value;
    else out.push(p.value);
  }
  return out;
}

function split(key: string, segments: Segment[]): string[] | undefined {
  const out: string[] = [];
  let at = 0;
  for (const seg of segments) {
    let end: number;
    if ("literal" in seg) {
      if (!key.startsWith(seg.literal, at)) return undefined;
      end = at + seg.literal.length;
    } else if ("width" in seg) end = at + seg.width;
    else if ("until" in seg) end = key.indexOf(seg.until, at);
    else end = key.length - seg.tail;
    if (end < at || end > key.length) return undefined;
    out.push(key.slice(at, end));
    at = end;
  }
  return at === key.length ? out : undefined;
}

const DIGITS = /^-?\d+$/;

function readerOf(part: Part, props: ReadonlyMap<string, PropertyInfo>): PartReader {
  if (part.kind === "ref") {
    const info = props.get(part.name.text);
    if (!info) return {};
    return { width: fixedWidthOf(info), read: { prop: info.name, value: (t) => propertyValue(info, t) } };
  }
  if (part.kind !== "call") return {};
  const inner = isExpr(part.args[0]) ? part.args[0] : undefined;
  const sole = inner?.parts.length === 1 && inner.parts[0].kind === "ref" ? props.get(inner.parts[0].name.text) : undefined;
  const n = isNumberLit(part.args[1]) ? part.args[1].value : undefined;
  switch (part.fnName) {
    case "pad": {
      if (n === undefined) return {};
      const integer = sole && (sole.type === "int" || sole.type === "int64") ? sole : undefined;
      const width = integer && (integer.min ?? 0) >= 0 && renderedDigits(integer.max ?? 0) <= n ? n : undefined;
      return { width, read: integer && { prop: integer.name, value: (t) => (DIGITS.test(t) ? Number(t) : undefined) } };
    }
    case "hash":
      return { width: n ?? 32 };
    case "bucket":
      return { width: n && n >= 1 ? bucketWidth(Math.floor(n)) : undefined };
    case "date": {
      const fmt = isStringLit(part.args[1]) ? part.args[1].value : "";
      const width = formatDate(new Date(0), fmt).length || undefined;
      const whole = DATE_TOKENS.every((t) => dateFormatParts(fmt)?.includes(t));
      return { width, read: whole && sole?.type === "datetime" ? { prop: sole.name, value: (t) => readDate(t, fmt) } : undefined };
    }
    case "reverse": {
      if (sole?.type === "datetime")
        return {
          width: TICKS_DIGITS,
          read: { prop: sole.name, value: (t) => (DIGITS.test(t) ? fromInvertedTicks(t) : undefined) },
        };
      if (sole?.max !== undefined) {
        const max = sole.max;
        return { width: renderedDigits(max), read: { prop: sole.name, value: (t) => (DIGITS.test(t) ? max - Number(t) : undefined) } };
      }
      return {};
    }
    default:
      return {};
  }
}

function fixedWidthOf(info: PropertyInfo): number | undefined {
  if (info.type === "guid") return 36;
  if (info.type === "string" && info.decl.type.min && info.decl.type.max && info.decl.type.min.value === info.decl.type.max.value)
    return info.decl.type.max.value;
  return undefined;
}

/** A property's value from its rendered text (`renderScalar`'s inverse). */
export function propertyValue(info: PropertyInfo, text: string): Scalar | undefined {
  switch (info.type) {
    case "int":
    case "int64":
    case "double": {
      const n = Number(text);
      return text !== "" && Number.isFinite(n) ? n : undefined;
    }
    case "bool":
      return text === "true" ? true : text === "false" ? false : undefined;
    case "datetime": {
      const d = new Date(text);
      return Number.isNaN(d.getTime()) ? undefined : d;
    }
    default:
      return text;
  }
}

function readDate(text: string, fmt: string): Date | undefined {
  const parts = dateFormatParts(fmt);
  if (!parts) return undefined;
  const f: Record<string, number> = {};
  let at = 0;
  for (const p of parts) {
    const piece = text.slice(at, at + p.length);
    if ((DATE_TOKENS as readonly string[]).includes(p)) {
      if (!/^\d+$/.test(piece)) return undefined;
      f[p] = Number(piece);
    } else if (piece !== p) return undefined;
    at += p.length;
  }
  const d = new Date(Date.UTC(f.yyyy, f.MM - 1, f.dd, f.HH, f.mm, f.ss, f.fff));
  d.setUTCFullYear(f.yyyy);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function fromInvertedTicks(text: string): Date {
  const ticks = MAX_TICKS - BigInt(text);
  return new Date(Number((ticks - EPOCH_TICKS) / TICKS_PER_MS));
}
