/**
 * One old entity re-keyed: the values its new keys render are read from its
 * properties (typed as the service returned them) and, for a property it
 * does not carry, from its old keys read back; then every row of every
 * target is rendered with the core's `renderKey`, the one definition of the
 * key functions. The new rows carry the old entity's properties, plus the
 * values read back from the keys that the new table declares (the new design
 * keeps them as properties).
 */
import type { TypedEntity } from "../model/entity-limits";
import { renderKey, Scalar } from "../model/keys";
import type { PropertyInfo } from "../model/properties";
import { readKey } from "./key-read";
import { exprProps, TableMapping } from "./mapping";

/** A row to write: the new table, its keys and its properties. */
export interface NewRow extends TypedEntity {
  table: string;
}

export type Rekeyed = { rows: NewRow[] } | { problem: string };

/** Every new row of an old entity, or why it cannot be re-keyed (a value neither its properties nor its keys give). */
export function rekey(m: TableMapping, e: TypedEntity): Rekeyed {
  const values = new Map<string, Scalar>();
  for (const [name, v] of Object.entries(e.properties)) {
    const s = scalarOf(v);
    if (s !== undefined) values.set(name, s);
  }
  const needed = m.components.map((c) => c.prop).filter((p) => !values.has(p));
  const recovered = new Map<string, Scalar>();
  if (needed.length) {
    const src = m.source.table;
    for (const [decl, key] of [
      [src.partitionKey, e.partitionKey],
      [src.rowKey, e.rowKey],
    ] as const) {
      if (!decl || !exprProps(decl.expr).some((p) => needed.includes(p))) continue;
      const read = readKey(decl.expr, m.source.props, key);
      for (const [k, v] of read ?? []) if (!values.has(k)) recovered.set(k, v);
    }
    for (const [k, v] of recovered) values.set(k, v);
    const absent = needed.filter((p) => !values.has(p));
    if (absent.length)
      return {
        problem: `${e.partitionKey} / ${e.rowKey}: ${absent.join(", ")} ${absent.length > 1 ? "are" : "is"} neither a property of the entity nor read back from its keys`,
      };
  }
  const rows: NewRow[] = [];
  for (const t of m.targets) {
    const properties = { ...e.properties };
    for (const [k, v] of recovered) {
      const info = t.model.props.get(k);
      if (info) properties[k] = typedOf(info, v);
    }
    const ctx = { props: t.model.props, values };
    for (const r of t.rows)
      rows.push({ table: t.table, partitionKey: renderKey(r.partitionKey, ctx), rowKey: renderKey(r.rowKey, ctx), properties });
  }
  return { rows };
}

/** A typed value as the key functions take it. */
export function scalarOf(v: { type: string; value: string }): Scalar | undefined {
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
      const d = new Date(v.value);
      return Number.isNaN(d.getTime()) ? undefined : d;
    }
    default:
      return v.value;
  }
}

/** A value read back from a key, typed as the new design declares its property. */
function typedOf(info: PropertyInfo, v: Scalar): { type: string; value: string } {
  const text = v instanceof Date ? v.toISOString() : String(v);
  switch (info.type) {
    case "int":
      return { type: "Int32", value: text };
    case "int64":
      return { type: "Int64", value: text };
    case "double":
      return { type: "Double", value: text };
    case "bool":
      return { type: "Boolean", value: text };
    case "datetime":
      return { type: "DateTime", value: text };
    case "guid":
      return { type: "Guid", value: text };
    default:
      return { type: "String", value: text };
  }
}
