/**
 * Typed values between the SDK and the explorer: entities read with
 * `disableTypeConversion` arrive as `{ value, type }`; writes send the same
 * shape back, so Int64, Guid, Binary and DateTime keep their types.
 */
import type { TableEntity, TableEntityResult } from "@azure/data-tables";
import { EdmType, EntityRow, TypedValue } from "@protocol/entities";

const SYSTEM = new Set(["partitionKey", "rowKey", "etag", "timestamp", "odata.metadata", "odata.etag"]);

/** An entity as listed with `disableTypeConversion: true`. */
export function toRow(e: TableEntityResult<Record<string, unknown>>): EntityRow {
  const properties: Record<string, TypedValue> = {};
  for (const [k, v] of Object.entries(e)) {
    if (SYSTEM.has(k)) continue;
    properties[k] = typed(v);
  }
  return { partitionKey: String(e.partitionKey ?? ""), rowKey: String(e.rowKey ?? ""), etag: e.etag, timestamp: e.timestamp, properties };
}

/** A value as the SDK reads it (typed objects with `disableTypeConversion`), or as JSON holds it without a type. */
export function typed(v: unknown): TypedValue {
  if (v && typeof v === "object" && "type" in v && "value" in v)
    return { type: (v as { type: EdmType }).type, value: String((v as { value: unknown }).value) };
  if (typeof v === "boolean") return { type: "Boolean", value: String(v) };
  // −2,147,483,648 is an Int32 too: the range is [−2^31, 2^31).
  if (typeof v === "number") return { type: Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 ? "Int32" : "Double", value: String(v) };
  if (typeof v === "bigint") return { type: "Int64", value: v.toString() };
  if (v instanceof Date) return { type: "DateTime", value: v.toISOString() };
  if (v instanceof Uint8Array) return { type: "Binary", value: Buffer.from(v).toString("base64") };
  return { type: "String", value: String(v ?? "") };
}

/** ISO 8601 date and time as the service takes it: a date, a time to the minute, seconds with up to 7 fractional digits, and a zone. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})$/i;
/** The same without a zone: a moment that depends on the machine reading it. */
export const ZONELESS_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?$/;
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Checks a typed value; returns a message when the text does not fit its type. */
export function checkValue(name: string, v: TypedValue): string | undefined {
  const bad = (what: string) => `${name}: '${v.value.slice(0, 60)}' is not ${what}`;
  switch (v.type) {
    case "Int32": {
      const n = Number(v.value);
      return /^-?\d+$/.test(v.value) && n >= -(2 ** 31) && n < 2 ** 31 ? undefined : bad("a 32-bit integer");
    }
    case "Int64":
      return /^-?\d{1,19}$/.test(v.value) && BigInt(v.value) >= INT64_MIN && BigInt(v.value) <= INT64_MAX
        ? undefined
        : bad("a 64-bit integer");
    case "Double":
      return DECIMAL.test(v.value) || v.value === "NaN" || v.value === "Infinity" || v.value === "-Infinity"
        ? undefined
        : bad("a number (NaN, Infinity and -Infinity included)");
    case "Boolean":
      return v.value === "true" || v.value === "false" ? undefined : bad("true or false");
    case "DateTime":
      if (ZONELESS_DATE_TIME.test(v.value)) return `${name}: '${v.value}' has no time zone: add Z for UTC, or an offset such as +02:00`;
      if (!validDateTime(v.value)) return bad("an ISO 8601 date and time, such as 2024-03-01T10:00:00.1234567Z");
      // The service refuses earlier dates (400 OutOfRangeInput, docs/emulator-conformance.md).
      return v.value < "1601" ? `${name}: '${v.value}' is before 1601-01-01, the earliest DateTime Azure stores` : undefined;
    case "Guid":
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v.value) ? undefined : bad("a GUID");
    case "Binary":
      return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(v.value) ? undefined : bad("base64");
    default:
      return undefined;
  }
}

function validDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m) return false;
  const [, y, mo, d, h, mi, s = "0"] = m;
  const date = new Date(0);
  date.setUTCFullYear(+y, +mo - 1, +d);
  return date.getUTCFullYear() === +y && date.getUTCMonth() === +mo - 1 && date.getUTCDate() === +d && +h < 24 && +mi < 60 && +s < 60;
}

/**
 * A DateTime in UTC as the service stores it, with every fractional digit
 * kept (a JavaScript Date keeps three; Azure keeps seven): a value already
 * in UTC is sent as it is, an offset is applied to the whole seconds and the
 * fraction carried over unchanged.
 */
export function utcDateTime(text: string): string {
  const m = DATE_TIME.exec(text);
  if (!m || m[8].toUpperCase() === "Z") return text;
  const fraction = m[7] ?? "";
  const whole = new Date(`${text.slice(0, text.length - m[8].length - fraction.length)}${m[8]}`);
  return `${whole.toISOString().slice(0, 19)}${fraction}Z`;
}

/** The entity the SDK writes for a row (types kept through `{ value, type }`). */
export function toEntity(row: EntityRow): TableEntity<Record<string, unknown>> {
  const entity: TableEntity<Record<string, unknown>> = { partitionKey: row.partitionKey, rowKey: row.rowKey };
  for (const [k, v] of Object.entries(row.properties)) {
    // An Int32 goes as a JSON number: the service refuses one written as a string (400 InvalidInput).
    entity[k] =
      v.type === "String"
        ? v.value
        : v.type === "Boolean"
          ? v.value === "true"
          : v.type === "DateTime"
            ? { value: utcDateTime(v.value), type: "DateTime" }
            : v.type === "Int32"
              ? { value: Number(v.value), type: "Int32" }
              : { value: v.value, type: v.type };
  }
  return entity;
}

/**
 * The entity as the SDK writes it in JSON: strings and booleans as they are,
 * an Int32 as a number, every other type as text, each typed one with its
 * `@odata.type` (an Int32 too: a number alone could be a Double).
 */
export function wireEntity(row: EntityRow): Record<string, unknown> {
  const o: Record<string, unknown> = { PartitionKey: row.partitionKey, RowKey: row.rowKey };
  for (const name in row.properties) {
    const { type, value } = row.properties[name];
    if (type === "String") o[name] = value;
    else if (type === "Boolean") o[name] = value === "true";
    else {
      // An Int32 goes as a JSON number: the service refuses one written as a string (400 InvalidInput).
      o[name] = type === "Int32" ? Number(value) : type === "DateTime" ? utcDateTime(value) : value;
      o[`${name}@odata.type`] = `Edm.${type}`;
    }
  }
  return o;
}
