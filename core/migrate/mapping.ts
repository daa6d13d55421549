/**
 * How a table of the old design maps onto the new one: which new tables it
 * fills (the table of the same name, re-keyed, and each table the new design
 * adds that the old table holds the properties of), every row each of them
 * writes per old entity (the main row and one per `index`), and where each
 * property those keys render comes from — the old entity's own property, or
 * the old PartitionKey or RowKey read back (key-read.ts). A property with no
 * source is refused by name before anything is written.
 */
import type { TableModel } from "../model/table-model";
import type { Expr } from "../tdl/ast";
import { forEachPart } from "../tdl/ast";
import { recoverable } from "./key-read";

/** One row a new table writes per old entity. */
export interface TargetRow {
  /** `rowKey`, or `index ByAge`. */
  label: string;
  partitionKey: Expr;
  rowKey: Expr;
}

export interface Target {
  table: string;
  model: TableModel;
  rows: TargetRow[];
  /** The new table has the old one's name: its keys change (otherwise it is a table the new design adds). */
  rekeyed: boolean;
}

/** Where a property a new key renders comes from. */
export interface ComponentSource {
  prop: string;
  /** The new keys that render it: `Telemetry.partitionKey`, `Telemetry.index ByAge`. */
  usedBy: string[];
  /** The old table declares it, so its entities carry it. */
  property: boolean;
  /** The old keys that give it back when an entity does not carry it. */
  keys: Array<"PartitionKey" | "RowKey">;
}

export interface TableMapping {
  /** The old table. */
  source: TableModel;
  targets: Target[];
  components: ComponentSource[];
  /** Components with no source at all: the migration is refused. */
  missing: ComponentSource[];
}

/** The properties an expression renders. */
export function exprProps(expr: Expr | undefined): string[] {
  const out = new Set<string>();
  if (expr) forEachPart(expr, (p) => p.kind === "ref" && out.add(p.name.text));
  return [...out];
}

/** The tables of each old table's mapping: the same name, and each new-only table given to the old table declaring most of its properties. */
export function mapTables(olds: readonly TableModel[], news: readonly TableModel[]): TableMapping[] {
  const name = (t: TableModel) => t.table.name.text;
  const oldNames = new Set(olds.map(name));
  const extra = new Map<string, TableModel[]>();
  for (const n of news) {
    if (oldNames.has(name(n)) || !olds.length) continue;
    const declared = new Set(n.props.keys());
    const score = (o: TableModel) => [...o.props.keys()].filter((p) => declared.has(p)).length;
    const best = olds.reduce((a, b) => (score(b) > score(a) ? b : a));
    if (score(best) === 0) continue;
    extra.set(name(best), [...(extra.get(name(best)) ?? []), n]);
  }
  return olds.map((o) => {
    const same = news.filter((n) => name(n) === name(o));
    return mapTable(o, [...same, ...(extra.get(name(o)) ?? [])]);
  });
}

function mapTable(source: TableModel, news: readonly TableModel[]): TableMapping {
  const targets: Target[] = news
    .filter((n) => n.table.partitionKey && n.table.rowKey)
    .map((n) => ({
      table: n.table.name.text,
      model: n,
      rekeyed: n.table.name.text === source.table.name.text,
      rows: [
        { label: "rowKey", partitionKey: n.table.partitionKey!.expr, rowKey: n.table.rowKey!.expr },
        ...n.table.indexes.map((ix) => ({ label: `index ${ix.name.text}`, partitionKey: n.table.partitionKey!.expr, rowKey: ix.expr })),
      ],
    }));
  const fromKeys = new Map<string, Array<"PartitionKey" | "RowKey">>();
  for (const [which, decl] of [
    ["PartitionKey", source.table.partitionKey],
    ["RowKey", source.table.rowKey],
  ] as const)
    for (const p of decl ? recoverable(decl.expr, source.props) : []) fromKeys.set(p, [...(fromKeys.get(p) ?? []), which]);
  const byProp = new Map<string, ComponentSource>();
  for (const t of targets) {
    const uses: Array<[string, Expr]> = [
      [`${t.table}.partitionKey`, t.rows[0].partitionKey],
      ...t.rows.map((r): [string, Expr] => [`${t.table}.${r.label}`, r.rowKey]),
    ];
    for (const [label, expr] of uses)
      for (const prop of exprProps(expr)) {
        const c = byProp.get(prop) ?? { prop, usedBy: [], property: source.props.has(prop), keys: fromKeys.get(prop) ?? [] };
        if (!c.usedBy.includes(label)) c.usedBy.push(label);
        byProp.set(prop, c);
      }
  }
  const components = [...byProp.values()];
  return { source, targets, components, missing: components.filter((c) => !c.property && !c.keys.length) };
}

/** Where a component comes from, in words. */
export function sourceWords(c: ComponentSource): string {
  const keys = c.keys.length ? `the old ${c.keys.join(" and ")} read back` : "";
  if (c.property) return keys ? `the entity's property ${c.prop} (else ${keys})` : `the entity's property ${c.prop}`;
  return keys || "nothing: the old design has no such property and its keys do not give it back";
}
