/**
 * The key grammar of a sampled table: one template for the PartitionKey,
 * and for the RowKey one template per row shape — several shapes in one
 * partition are the dual-row pattern, the main row plus `index` rows
 * (`BIB:…` and `AGE:…`). Each template's free segments are then explained
 * column by column (key-columns.ts).
 */
import { Atom, RowView, templateCost } from "./key-atoms";
import { DerivedProperty, solveColumns } from "./key-columns";
import { inferTemplate } from "./key-template";
import { Row } from "./values";

/** Row shapes looked for in the RowKey (the main row and up to three index rows). */
const MAX_SHAPES = 4;
/** A shape needs this share of the rows (and at least 3) to count; rarer keys are reported as unexplained. */
const MIN_SHAPE_SHARE = 0.02;

export interface KeyShape {
  template: Atom[];
  /** Indices of the rows whose key follows it. */
  rows: number[];
}

export interface IndexShape extends KeyShape {
  name: string;
}

export interface KeyGrammar {
  partitionKey?: KeyShape;
  rowKey?: KeyShape;
  indexes: IndexShape[];
  /** Key-only properties, with their values per row. */
  derived: DerivedProperty[];
  /** Upper bounds of properties that `reverse` needs. */
  maxima: Map<string, number>;
  /** Rows whose PartitionKey / RowKey follows no inferred shape. */
  unexplained: { partitionKey: number; rowKey: number };
}

/** Infers the key grammar of `rows` (their views cache per-row work). */
export function inferKeyGrammar(rows: readonly Row[], views: readonly RowView[] = rows.map((r) => new RowView(r))): KeyGrammar {
  const derived: DerivedProperty[] = [];
  const maxima = new Map<string, number>();
  const reserved = new Set<string>();
  // Every row's names: a key-only name taken by a property of a later row would replace that property's values.
  for (const r of rows) for (const k of r.props.keys()) reserved.add(k);
  const solve = (keys: string[], idx: number[], prefix: string, whole?: boolean): KeyShape | undefined => {
    const found = whole
      ? { template: [{ kind: "free" } as Atom], matched: idx.map((_, m) => m), frees: keys.map((k) => [k]) }
      : inferTemplate(
          keys,
          idx.map((i) => views[i]),
          // A template with free segments counts as explained when its columns are all solved.
          (t) => {
            const s = solveColumns(
              t.template,
              t.matched.map((m) => idx[m]),
              views,
              t.frees,
              prefix,
            );
            return s.unexplained ? undefined : templateCost(s.template);
          },
        );
    if (!found) return undefined;
    const matched = found.matched.map((m) => idx[m]);
    const solved = solveColumns(found.template, matched, views, found.frees, freePrefix(prefix, reserved));
    for (const d of solved.derived) addDerived(derived, d, reserved);
    for (const [k, v] of solved.maxima) maxima.set(k, Math.max(v, maxima.get(k) ?? 0));
    return { template: solved.template, rows: matched };
  };

  const all = rows.map((_, i) => i);
  const partitionKey = solve(
    rows.map((r) => r.pk),
    all,
    "PartitionKey",
  );
  const shapes: KeyShape[] = [];
  let remaining = all;
  // A table of one or two entities still gets its RowKey (a design without one does not stand).
  const least = Math.min(rows.length, Math.max(3, Math.ceil(rows.length * MIN_SHAPE_SHARE)));
  while (remaining.length >= (shapes.length ? Math.min(3, least) : least) && shapes.length < MAX_SHAPES) {
    const keyOnly = derived.length;
    const shape = solve(
      remaining.map((i) => rows[i].rk),
      remaining,
      shapes.length ? `Index${shapes.length}RowKey` : "RowKey",
    );
    // A rare shape counts when the entity's own properties explain all of it (an index row keyed by a four-valued enum keeps four rows).
    const explained = derived.length === keyOnly && shapes.length > 0;
    if (!shape || shape.rows.length < (explained ? Math.min(3, least) : least)) {
      derived.length = keyOnly;
      break;
    }
    shapes.push(shape);
    const taken = new Set(shape.rows);
    remaining = remaining.filter((i) => !taken.has(i));
  }
  // Too few rows for any shape (a table of two entities): the whole RowKey becomes a key-only string.
  if (!shapes.length && remaining.length) {
    shapes.push(
      solve(
        remaining.map((i) => rows[i].rk),
        remaining,
        "RowKey",
        true,
      )!,
    );
    remaining = [];
  }
  const [rowKey, ...others] = orderShapes(shapes, rows);
  const names = new Set<string>();
  const indexes = others.map((s) => ({ ...s, name: indexName(s, names) }));
  return {
    partitionKey,
    rowKey,
    indexes,
    derived,
    maxima,
    unexplained: { partitionKey: rows.length - (partitionKey?.rows.length ?? 0), rowKey: remaining.length },
  };
}

/**
 * Shapes whose row counts differ by at most this share are "about the same
 * size". A sample read in pages cuts partitions, and in each partition one
 * shape's rows sort first (`AGE:` before `BIB:`), so equal shapes come back
 * up to a few tenths apart.
 */
const SAME_SIZE = 0.2;

/**
 * The main row first: the shape with the most rows; between shapes of about
 * the same size (dual rows come in equal numbers), the one that leads with
 * the most distinct property — the main key identifies the entity, an
 * index orders it by something coarser (`BIB:` before `AGE:`).
 */
function orderShapes(shapes: KeyShape[], rows: readonly Row[]): KeyShape[] {
  const lead = (s: KeyShape) => {
    const a = leadingPart(s);
    if (!a) return 0;
    return new Set(s.rows.map((r) => rows[r].props.get(a.prop)?.value)).size;
  };
  return [...shapes].sort((a, b) => {
    const big = Math.max(a.rows.length, b.rows.length);
    if (Math.abs(a.rows.length - b.rows.length) > big * SAME_SIZE) return b.rows.length - a.rows.length;
    return lead(b) - lead(a);
  });
}

/** The first part of a key that reads a property. */
function leadingPart(s: KeyShape): Extract<Atom, { prop: string }> | undefined {
  for (const a of s.template) if ("prop" in a) return a;
  return undefined;
}

function indexName(s: KeyShape, taken: Set<string>): string {
  const a = leadingPart(s);
  const base = a ? `By${a.prop.replace(/Ms$/, "")}` : "ByRowKey";
  return uniqueName(base, taken, true);
}

function uniqueName(base: string, taken: Set<string>, reserve = false): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  if (reserve) taken.add(name);
  return name;
}

/** A prefix whose key-only names (`<prefix>Part<n>`) no property of the sample already has. */
function freePrefix(base: string, taken: ReadonlySet<string>): string {
  const clash = (p: string) => taken.has(p) || [...taken].some((t) => t.startsWith(`${p}Part`));
  let name = base;
  for (let n = 2; clash(name); n++) name = `${base}${n}`;
  return name;
}

/** Adds a key-only property; the same one seen from two keys (a date's milliseconds) merges its values. */
function addDerived(list: DerivedProperty[], d: DerivedProperty, reserved: Set<string>): void {
  const same = list.find((x) => x.name === d.name && x.type === d.type);
  if (same) {
    for (const [r, v] of d.values) same.values.set(r, v);
    return;
  }
  reserved.add(d.name);
  list.push(d);
}
