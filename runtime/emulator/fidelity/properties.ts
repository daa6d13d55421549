/**
 * What Azure checks in each property of an entity and Azurite does not:
 * names (a C# identifier, at most 255 characters) and typed values
 * (Edm.DateTime from 1601-01-01 to 9999-12-31 UTC, Edm.Int32 and Edm.Int64
 * in range, keys that are strings). Codes and messages are the service's.
 */
import type { ServiceError } from "./answers";

/** Longest property name the service takes (Table service data model). */
export const PROPERTY_NAME_MAX = 255;

/**
 * A C# identifier: a letter or `_`, then letters, digits, connectors,
 * combining and formatting characters. One character class per position:
 * linear, no backtracking.
 */
const IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Pc}\p{Mn}\p{Mc}\p{Cf}]*$/u;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Edm.DateTime's range: 1601-01-01T00:00:00Z to the last tick of 9999-12-31. */
const DATETIME_MIN = Date.UTC(1601, 0, 1);
const DATETIME_MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The first instant a .NET DateTime holds (0001-01-01). */
const DATETIME_FIRST = new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(1);
/** ISO 8601 as OData JSON writes a DateTime (6-digit signed years allowed, offsets or Z). */
const ISO_DATETIME = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?(Z|[+-]\d{2}:\d{2})?$/;

function invalidInput(): ServiceError {
  return { status: 400, code: "InvalidInput", message: "One of the request inputs is not valid." };
}

function outOfRange(name: string, shown: string): ServiceError {
  return { status: 400, code: "OutOfRangeInput", message: `The '${name}' parameter of value '${shown}' is out of range.` };
}

/** The service's refusal of a property name, if any. */
export function propertyNameRejection(name: string): ServiceError | undefined {
  if (name.length > PROPERTY_NAME_MAX)
    return {
      status: 400,
      code: "PropertyNameTooLong",
      message: `The property name exceeds the maximum allowed length (${PROPERTY_NAME_MAX}).`,
    };
  if (!IDENTIFIER.test(name)) return { status: 400, code: "PropertyNameInvalid", message: "The property name is invalid." };
  return undefined;
}

/** Milliseconds since the epoch of an OData DateTime literal, or undefined when it is not one. */
export function parseDateTime(text: string): number | undefined {
  const m = ISO_DATETIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const [year, month, day, hour, minute, second] = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Number((frac ?? "0").padEnd(3, "0").slice(0, 3));
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear does not.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  date.setUTCFullYear(year);
  if (date.getUTCDate() !== day) return undefined; // 31 February
  const offset = !zone || zone === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return date.getTime() - offset * 60_000;
}

/** `MM/dd/yyyy HH:mm:ss`, as the service quotes a DateTime it refuses. */
function usDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${p(d.getUTCFullYear(), 4)} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/**
 * The service's refusal of one typed value, if any. `type` is the value's
 * `@odata.type` annotation; values without one are strings, booleans,
 * Int32 or Double by their JSON form, which the service reads as they come.
 */
export function propertyValueRejection(name: string, value: unknown, type: string | undefined): ServiceError | undefined {
  switch (type) {
    case "Edm.DateTime": {
      if (typeof value !== "string") return invalidInput();
      // Years past 9999 (or before 1) do not parse as a .NET DateTime at all: InvalidInput.
      // Years 1–1600 parse, and the service refuses them as out of range.
      const ms = parseDateTime(value);
      if (ms === undefined || ms > DATETIME_MAX || ms < DATETIME_FIRST) return invalidInput();
      return ms < DATETIME_MIN ? outOfRange(name, usDate(ms)) : undefined;
    }
    case "Edm.Int32":
      return typeof value === "number" && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX ? undefined : invalidInput();
    case "Edm.Int64": {
      // JSON carries an Int64 as a string: "9223372036854775807".
      const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
      if (typeof text !== "string" || !/^-?\d{1,20}$/.test(text)) return invalidInput();
      const n = BigInt(text);
      return n < INT64_MIN || n > INT64_MAX ? invalidInput() : undefined;
    }
  }
  return undefined;
}

/** The service's refusal of a PartitionKey or RowKey in a body that is not a string. */
export function keyTypeRejection(entity: Record<string, unknown>): ServiceError | undefined {
  for (const key of ["PartitionKey", "RowKey"]) {
    const v = entity[key];
    if (v !== undefined && typeof v !== "string")
      return { status: 400, code: "PrimaryKeyPropertyIsInvalidType", message: "The type of the primary key property is invalid." };
  }
  return undefined;
}
