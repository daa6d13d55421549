/**
 * What a service would refuse of one concrete entity: keys longer than the
 * profile allows (in its encoding: UTF-16 on Azure, UTF-8 on Cosmos DB and
 * Tablestore), characters keys may not hold, too many properties, a
 * property or an entity over its size. A copy checks every entity against
 * the target's profile before it writes anything.
 */
import { showChar } from "../text/words";
import { utf8Bytes } from "./key-bytes";
import type { ServiceProfile } from "../services";

/** An entity with typed values (the protocol's EntityRow has this shape). */
export interface TypedEntity {
  partitionKey: string;
  rowKey: string;
  properties: Record<string, { type: string; value: string }>;
}

export interface LimitProblem {
  what: "PartitionKey" | "RowKey" | "property" | "properties" | "entity";
  property?: string;
  message: string;
}

/** Bytes a key costs on a profile. */
export function keyTextBytes(text: string, profile: ServiceProfile): number {
  return profile.keyEncoding === "utf16" ? 2 * text.length : utf8Bytes(text);
}

/** Bytes a property value costs (Azure's formula: strings as UTF-16, binaries decoded, fixed sizes for the rest). */
function valueBytes(type: string, value: string, profile: ServiceProfile): number {
  switch (type) {
    case "Binary":
      return Math.floor((value.replace(/=+$/, "").length * 3) / 4);
    case "Int64":
    case "Double":
    case "DateTime":
      return 8;
    case "Guid":
      return 16;
    case "Int32":
      return 4;
    case "Boolean":
      return 1;
    default:
      return keyTextBytes(value, profile);
  }
}

/** The entity's size by Azure's formula: 4 + keys + per property 8 + its name + its value. */
export function entitySize(e: TypedEntity, profile: ServiceProfile): number {
  let size = 4 + keyTextBytes(e.partitionKey, profile) + keyTextBytes(e.rowKey, profile);
  for (const [name, v] of Object.entries(e.properties))
    size += 8 + keyTextBytes(name, profile) + (v.type === "Binary" || v.type === "String" ? 4 : 0) + valueBytes(v.type, v.value, profile);
  return size;
}

/** Every limit of `profile` the entity breaks, in words. */
export function entityLimitProblems(e: TypedEntity, profile: ServiceProfile): LimitProblem[] {
  const out: LimitProblem[] = [];
  for (const [what, text, max] of [
    ["PartitionKey", e.partitionKey, profile.partitionKeyMaxBytes],
    ["RowKey", e.rowKey, profile.rowKeyMaxBytes],
  ] as const) {
    const bytes = keyTextBytes(text, profile);
    if (bytes > max) out.push({ what, message: `the ${what} is ${bytes} bytes; ${profile.label} allows ${max}` });
    const bad = profile.forbiddenKeyChar && [...text].find((c) => profile.forbiddenKeyChar!(c.codePointAt(0)!));
    if (bad !== undefined && bad !== "")
      out.push({ what, message: `the ${what} holds ${showChar(bad)}, which ${profile.label} keys may not hold` });
  }
  const names = Object.keys(e.properties);
  if (names.length > profile.maxUserProperties)
    out.push({ what: "properties", message: `${names.length} properties; ${profile.label} allows ${profile.maxUserProperties}` });
  for (const [name, v] of Object.entries(e.properties)) {
    const bytes = valueBytes(v.type, v.value, profile);
    if ((v.type === "String" || v.type === "Binary") && bytes > profile.propertyMaxBytes)
      out.push({
        what: "property",
        property: name,
        message: `${name} is ${bytes} bytes; ${profile.label} allows ${profile.propertyMaxBytes} per property`,
      });
  }
  const size = entitySize(e, profile);
  if (size > profile.entityMaxBytes)
    out.push({ what: "entity", message: `the entity is ${size} bytes; ${profile.label} allows ${profile.entityMaxBytes}` });
  return out;
}
