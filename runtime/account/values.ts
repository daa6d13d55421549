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

function typed(v: unknown): TypedValue {
  if (v && typeof v === "object" && "type" in v && "value" in v)
    return { type: (v as { type: EdmType }).type, value: String((v as { value: unknown }).value) };
  if (typeof v === "boolean") return { type: "Boolean", value: String(v) };
  if (typeof v === "number") return { type: Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? "Int32" : "Double", value: String(v) };
  if (typeof v === "bigint") return { type: "Int64", value: v.toString() };
  if (v instanceof Date) return { type: "DateTime", value: v.toISOString() };
  if (v instanceof Uint8Array) return { type: "Binary", value: Buffer.from(v).toString("base64") };
  return { type: "String", value: String(v ?? "") };
}

/** Checks a typed value; returns a message when the text does not fit its type. */
export function checkValue(name: string, v: TypedValue): string | undefined {
  const bad = (what: string) => `${name}: '${v.value}' is not ${what}`;
  switch (v.type) {
    case "Int32":
      return /^-?\d+$/.test(v.value) && Math.abs(Number(v.value)) <= 2 ** 31 ? undefined : bad("a 32-bit integer");
    case "Int64":
      return /^-?\d{1,19}$/.test(v.value) ? undefined : bad("a 64-bit integer");
    case "Double":
      return v.value.trim() !== "" && !Number.isNaN(Number(v.value)) ? undefined : bad("a number");
    case "Boolean":
      return v.value === "true" || v.value === "false" ? undefined : bad("true or false");
    case "DateTime":
      return Number.isNaN(Date.parse(v.value)) ? bad("an ISO 8601 date-time") : undefined;
    case "Guid":
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v.value) ? undefined : bad("a GUID");
    case "Binary":
      return /^[A-Za-z0-9+/]*={0,2}$/.test(v.value) ? undefined : bad("base64");
    default:
      return undefined;
  }
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
            ? { value: new Date(v.value).toISOString(), type: "DateTime" }
            : v.type === "Int32"
              ? { value: Number(v.value), type: "Int32" }
              : { value: v.value, type: v.type };
  }
  return entity;
}
