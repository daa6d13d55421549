/**
 * Entity rules (`docs/rules.md`, "Transactions and entities"): entities and
 * properties over the service's size limits, too many properties.
 */
import { keyBytes } from "../model/key-bytes";
import { PropertyInfo } from "../model/properties";
import { ServiceProfile } from "../services";
import { formatBytes } from "../tdl/numbers";
import { formatCount } from "../text/words";
import { defineRule } from "./rule";

const FIXED_VALUE_BYTES: Record<string, number> = { bool: 1, int: 4, int64: 8, double: 8, datetime: 8, guid: 16 };

/** Largest stored size of one property's value (Azure's formula: strings 4 + 2 a character, binary 4 + length). */
export function valueBytes(p: PropertyInfo, profile: ServiceProfile): number {
  if (p.type in FIXED_VALUE_BYTES) return FIXED_VALUE_BYTES[p.type];
  if (p.type === "binary") return 4 + p.maxChars / 2;
  const perChar = profile.keyEncoding === "utf16" ? 2 : 3;
  return 4 + perChar * p.maxChars;
}

export const entityTooLarge = defineRule({
  code: "entity/too-large",
  severity: "error",
  family: "Transactions and entities",
  docs: {
    summary: "`entitySize`, one string or binary property, or the declared maxima exceed the service's limits",
    why: "The service rejects an entity over its size limit (Azure: 1 MiB; one property: 64 KiB); the write fails at run time.",
  },
  messages: {
    entitySize: (p: { bytes: number; service: string; limit: number }) =>
      `entitySize ${formatBytes(p.bytes)} exceeds the ${p.service} entity limit of ${formatBytes(p.limit)}. Move large values to blobs and keep a reference.`,
    property: (p: { name: string; bytes: number; service: string; type: string; limit: number }) =>
      `'${p.name}' can hold ≈ ${formatBytes(p.bytes)}; a ${p.service} ${p.type} property holds at most ${formatBytes(p.limit)}. Store it in a blob or split it.`,
    entity: (p: { table: string; bytes: number; service: string; limit: number }) =>
      `at their declared maximum sizes, the properties of '${p.table}' make an entity of ≈ ${formatBytes(p.bytes)}; ${p.service} allows ${formatBytes(p.limit)}. Tighten the declared lengths or move large values to blobs.`,
  },

  checkTable(ctx) {
    const limit = ctx.profile.entityMaxBytes;
    const t = ctx.table;
    if (t.entitySize && t.entitySize.value.value > limit) {
      ctx.report(t.entitySize.value, "entitySize", { bytes: t.entitySize.value.value, service: ctx.profile.label, limit });
    }
    const props = [...ctx.props.values()];
    for (const p of props) {
      if (p.type !== "string" && p.type !== "binary") continue;
      const bytes = valueBytes(p, ctx.profile);
      if (!Number.isFinite(bytes) || bytes <= ctx.profile.propertyMaxBytes) continue;
      ctx.report(p.decl.type, "property", {
        name: p.name,
        bytes,
        service: ctx.profile.label,
        type: p.type,
        limit: ctx.profile.propertyMaxBytes,
      });
    }
    // Azure's formula: 4 bytes + both keys + for each property 8 bytes, 2 per character of its name, and its value.
    const pk = t.partitionKey ? keyBytes(t.partitionKey.expr, ctx.props, ctx.profile) : 0;
    const rk = t.rowKey ? keyBytes(t.rowKey.expr, ctx.props, ctx.profile) : 0;
    const total = 4 + pk + rk + props.reduce((s, p) => s + 8 + 2 * p.name.length + valueBytes(p, ctx.profile), 0);
    if (Number.isFinite(total) && total > limit && !(t.entitySize && t.entitySize.value.value > limit)) {
      ctx.report(t.name, "entity", { table: t.name.text, bytes: total, service: ctx.profile.label, limit });
    }
  },
});

export const tooManyProperties = defineRule({
  code: "entity/too-many-properties",
  severity: "error",
  family: "Transactions and entities",
  docs: {
    summary: "more user properties than the service allows (Azure: 252)",
    why: "Azure allows 255 properties including PartitionKey, RowKey and Timestamp; an entity with more is rejected.",
  },
  messages: {
    tooMany: (p: { table: string; count: number; service: string; limit: number }) =>
      `'${p.table}' declares ${formatCount(p.count)} properties; ${p.service} allows ${p.limit} besides PartitionKey, RowKey and Timestamp. Group related values into fewer properties (such as a JSON string).`,
  },

  checkTable(ctx) {
    const count = ctx.props.size;
    if (count <= ctx.profile.maxUserProperties) return;
    ctx.report(ctx.table.name, "tooMany", {
      table: ctx.table.name.text,
      count,
      service: ctx.profile.label,
      limit: ctx.profile.maxUserProperties,
    });
  },
});
