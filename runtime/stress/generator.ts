/**
 * Entities for a stress test, generated from a design table: each
 * property's domain (ranges, enums, charsets, distinct counts), `increasing`
 * values that increase, `hot` skew reproduced; keys rendered with the same
 * key evaluator as the rules; padded to the design's entity size.
 */
import { randomUUID } from "node:crypto";
import { TableEntity } from "@azure/data-tables";
import { azureForbiddenKeyChar, TableModel, PropertyInfo, renderKey, Scalar } from "@core";

export interface GeneratedEntity {
  entity: TableEntity<Record<string, unknown>>;
  values: Map<string, Scalar>;
}

const DEFAULT_DISTINCT = 1_000_000;

export class EntityGenerator {
  private seq = 0;
  private readonly started = Date.now();
  private readonly filler: number;
  /** Per property with `hot`, how far it is from its next hot value. */
  private readonly hotDue = new Map<string, number>();

  constructor(
    private readonly tm: TableModel,
    private readonly random: () => number = Math.random,
  ) {
    // Bring each entity near the design's size (UTF-16 string properties cost 2 bytes a character).
    const size = tm.table.entitySize?.value.value;
    this.filler = size && Number.isFinite(size) ? Math.max(0, Math.floor((size - 200) / 2)) : 0;
  }

  /**
   * One entity; `fixed` pins some property values (to keep a batch in one
   * partition). `renderKeys: false` skips the keys when the caller sets them.
   */
  next(fixed?: ReadonlyMap<string, Scalar>, renderKeys = true): GeneratedEntity {
    const n = this.seq++;
    const values = new Map<string, Scalar>();
    for (const p of this.tm.props.values()) values.set(p.name, fixed?.get(p.name) ?? this.value(p, n));
    const ctx = { props: this.tm.props, values };
    const entity: TableEntity<Record<string, unknown>> = {
      partitionKey: renderKeys && this.tm.table.partitionKey ? renderKey(this.tm.table.partitionKey.expr, ctx) : "p",
      rowKey: renderKeys && this.tm.table.rowKey ? renderKey(this.tm.table.rowKey.expr, ctx) : String(n),
    };
    for (const [k, v] of values) entity[k] = toEdm(this.tm.props.get(k)!, v);
    if (this.filler) entity.Padding = "x".repeat(this.filler);
    return { entity, values };
  }

  /** The rows an entity's indexes add (`index X rowKey = …`): the same entity under each index's RowKey, in its partition. */
  indexRows(g: GeneratedEntity): Array<TableEntity<Record<string, unknown>>> {
    if (!this.tm.table.indexes.length) return [];
    const ctx = { props: this.tm.props, values: g.values };
    return this.tm.table.indexes.map((ix) => ({ ...g.entity, rowKey: renderKey(ix.expr, ctx) }));
  }

  /** The values that decide both keys: an entity generated with them pinned has the same keys (an update of it). */
  keyValues(values: ReadonlyMap<string, Scalar>): Map<string, Scalar> {
    const out = this.partitionValues(values);
    const expr = this.tm.table.rowKey?.expr;
    if (expr) for (const ref of refsOf(expr)) if (values.has(ref)) out.set(ref, values.get(ref)!);
    return out;
  }

  /** Whether this entity's `name` takes the hot value: `share` of the entities, evenly spaced (an error accumulator). */
  private hotTurn(name: string, share: number): boolean {
    const due = (this.hotDue.get(name) ?? 0) + share;
    const hot = due >= 1;
    this.hotDue.set(name, hot ? due - 1 : due);
    return hot;
  }

  /** The values that decide the partition key, so a batch can share them. */
  partitionValues(values: ReadonlyMap<string, Scalar>): Map<string, Scalar> {
    const out = new Map<string, Scalar>();
    const expr = this.tm.table.partitionKey?.expr;
    if (!expr) return out;
    for (const ref of refsOf(expr)) if (values.has(ref)) out.set(ref, values.get(ref)!);
    return out;
  }

  private value(p: PropertyInfo, n: number): Scalar {
    if (p.increasing || p.decreasing) {
      if (p.type === "datetime") return new Date(p.increasing ? this.started + n : this.started - n);
      const base = p.min !== undefined && p.max !== undefined && p.increasing ? p.min : (p.max ?? 1e9);
      return p.increasing ? base + n : base - n;
    }
    const distinct = Math.max(1, p.distinct ?? (p.enumValues?.length || DEFAULT_DISTINCT));
    // The hot value (index 0) takes its share exactly, not by chance: a short run then loads the hot partition
    // as much as the design says, which is what its verdict is about. The rest spread uniformly.
    const i = p.hot !== undefined && this.hotTurn(p.name, p.hot) ? 0 : Math.floor(this.random() * distinct);
    switch (p.type) {
      case "int":
      case "int64": {
        const lo = p.min ?? 0;
        const span = (p.max ?? lo + distinct) - lo + 1;
        return lo + (distinct >= span ? i % span : Math.floor((i / distinct) * span));
      }
      case "double":
        return i + this.random();
      case "bool":
        return i % 2 === 0;
      case "datetime":
        return new Date(Date.UTC(2026, 0, 1) + i * 1000);
      case "guid":
        return p.distinct !== undefined ? guidOf(i) : randomUUID();
      case "enum":
        return p.enumValues?.[i % p.enumValues.length] ?? "";
      case "binary":
        return i.toString(16).padStart(2, "0");
      default:
        return stringOf(i, p);
    }
  }
}

/** The i-th value of a string domain, in the property's alphabet and within its length. */
function stringOf(i: number, p: PropertyInfo): string {
  const alphabet = p.charset ? charsOf(p.charset.ranges) : "abcdefghijklmnopqrstuvwxyz0123456789";
  const max = Number.isFinite(p.maxChars) ? p.maxChars : 16;
  const min = p.decl.type.min?.value ?? 1;
  let s = "";
  let x = i;
  do {
    s = alphabet[x % alphabet.length] + s;
    x = Math.floor(x / alphabet.length);
  } while (x > 0);
  s = s.padStart(Math.max(1, min), alphabet[0]);
  return s.length > max ? s.slice(-max) : s;
}

/** The characters a generated string takes from a charset: printable ASCII that no key forbids, at most 64 (the Locust workload takes the same). */
export function charsOf(ranges: Array<[number, number]>): string {
  let out = "";
  for (const [lo, hi] of ranges)
    for (let c = Math.max(lo, 0x21); c <= Math.min(hi, 0x7e) && out.length < 64; c++)
      if (!azureForbiddenKeyChar(c)) out += String.fromCharCode(c);
  return out || "a";
}

function guidOf(i: number): string {
  const hex = i.toString(16).padStart(12, "0").slice(-12);
  return `00000000-0000-4000-8000-${hex}`;
}

/** The properties a key expression reads, nested functions included (the Locust workload pins the same). */
export function refsOf(expr: { parts: Array<{ kind: string; name?: { text: string }; args?: unknown[] }> }): string[] {
  const out: string[] = [];
  for (const part of expr.parts) {
    if (part.kind === "ref" && part.name) out.push(part.name.text);
    if (part.kind === "call")
      for (const a of part.args ?? [])
        if (a && typeof a === "object" && "kind" in a && (a as { kind: string }).kind === "expr") out.push(...refsOf(a as never));
  }
  return out;
}

/** A value as the SDK writes it, keeping Int64 and Guid types. */
function toEdm(p: PropertyInfo, v: Scalar): unknown {
  if (p.type === "int64" && typeof v === "number") return { value: String(Math.trunc(v)), type: "Int64" };
  if (p.type === "guid") return { value: String(v), type: "Guid" };
  if (p.type === "double" && typeof v === "number") return { value: String(v), type: "Double" };
  return v;
}
