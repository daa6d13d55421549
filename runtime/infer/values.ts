/**
 * Sampled values as the design language sees them: the text a property
 * renders to inside a key (`docs/language.md`, "Keys") and its scalar for the
 * core's key evaluator. The key functions the key-grammar inference matches
 * against (MD5, bucket, date, inverted ticks) are the core's own
 * (core/model/key-functions.ts); the inferred design is re-checked with
 * `renderKey` itself (infer.ts), so a difference would show as a lower match
 * rate.
 */
import type { Scalar } from "@core";
import type { EntityRow, TypedValue } from "@protocol/entities";

/** One sampled row: keys, the service's Timestamp (ms, when read) and the typed properties. */
export interface Row {
  pk: string;
  rk: string;
  timestamp?: number;
  props: ReadonlyMap<string, TypedValue>;
}

/** A sampled entity as a row (system properties left out). */
export function rowOf(e: EntityRow): Row {
  const ts = e.timestamp ? Date.parse(e.timestamp) : NaN;
  return { pk: e.partitionKey, rk: e.rowKey, timestamp: Number.isNaN(ts) ? undefined : ts, props: new Map(Object.entries(e.properties)) };
}

/** The text a value renders to in a key; undefined for values a key cannot hold (binary, an unreadable date). */
export function keyText(v: TypedValue): string | undefined {
  switch (v.type) {
    case "String":
      return v.value;
    case "Boolean":
      return v.value === "true" ? "true" : "false";
    // The core evaluates every number as a double: an Int64 past 2^53 (or "007") renders other digits than its text.
    case "Int32":
    case "Int64":
    case "Double": {
      const n = Number(v.value);
      return Number.isFinite(n) ? String(n) : undefined;
    }
    case "Guid":
      return v.value.toLowerCase();
    case "DateTime": {
      const ms = Date.parse(v.value);
      return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
    }
    default:
      return undefined;
  }
}

/** The value as the core's key evaluator takes it (`renderKey`). */
export function scalarOf(v: TypedValue): Scalar | undefined {
  switch (v.type) {
    case "Int32":
    case "Int64":
    case "Double": {
      const n = Number(v.value);
      return Number.isFinite(n) ? n : undefined;
    }
    case "Boolean":
      return v.value === "true";
    case "DateTime": {
      const ms = Date.parse(v.value);
      return Number.isNaN(ms) ? undefined : new Date(ms);
    }
    case "Guid":
      return v.value.toLowerCase();
    case "Binary":
      return undefined;
    default:
      return v.value;
  }
}

/** Whether the value is a whole number the language can pad (int, int64; not negative: a sign breaks padding's order). */
export function paddable(v: TypedValue): boolean {
  // Canonical and safe only: the core pads the double's text, which differs from "007" or 20-digit Int64s.
  return (
    (v.type === "Int32" || v.type === "Int64") &&
    /^\d+$/.test(v.value) &&
    String(Number(v.value)) === v.value &&
    Number.isSafeInteger(Number(v.value))
  );
}

/** Milliseconds of a DateTime value, or undefined. */
export function millisOf(v: TypedValue): number | undefined {
  if (v.type !== "DateTime") return undefined;
  const ms = Date.parse(v.value);
  return Number.isNaN(ms) ? undefined : ms;
}
