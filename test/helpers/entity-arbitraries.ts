/**
 * Entities as fast-check generates them for the tests that write to a real
 * Azurite: keys of the characters that trip up addresses and filters (quotes,
 * `%`, `+`, `&`, non-ASCII, a surrogate pair) but none the service forbids,
 * and properties of every Edm type with values at their edges.
 */
import fc from "fast-check";
import type { TypedValue } from "@protocol/entities";

/** A PartitionKey or RowKey the service takes. */
export const entityKey = fc.string({
  unit: fc.constantFrom("a", "Z", "0", " ", "'", '"', "é", "😀", "-", "~", "%", "+", "&", "="),
  minLength: 1,
  maxLength: 6,
});

/** A property's typed value, of any Edm type. */
export const typedValue: fc.Arbitrary<TypedValue> = fc.oneof(
  fc.record({ type: fc.constant("String" as const), value: fc.string({ maxLength: 8 }) }),
  fc.record({ type: fc.constant("Int32" as const), value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(String) }),
  fc.record({ type: fc.constant("Int64" as const), value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String) }),
  fc.record({
    type: fc.constant("Double" as const),
    value: fc.oneof(fc.constantFrom("5", "0.5", "-1.25", "1E+300", "NaN", "Infinity"), fc.integer().map(String)),
  }),
  fc.record({ type: fc.constant("Boolean" as const), value: fc.boolean().map(String) }),
  fc.record({ type: fc.constant("Guid" as const), value: fc.uuid() }),
  fc.record({ type: fc.constant("Binary" as const), value: fc.uint8Array({ maxLength: 5 }).map((b) => Buffer.from(b).toString("base64")) }),
  fc.record({
    type: fc.constant("DateTime" as const),
    value: fc.constantFrom("2024-03-01T10:00:00.1234567Z", "2024-03-01T12:00:00+02:00", "1601-01-01T00:00:00.0000000Z"),
  }),
);

/** An entity's properties: up to five, of plain names. */
export const entityProperties = fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,5}$/), typedValue, { maxKeys: 5 });
