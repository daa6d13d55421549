/**
 * The columns the filter editor completes: every property of every entity
 * the page has seen in the open table — read (a query, a page more, a
 * reload) or written (an insert, a save, an import's columns) — beside the
 * host's sample taken when the table opened. A table that was empty when it
 * opened still completes what was inserted or imported since. Each comes
 * with its type when everything seen of it agrees on one.
 */
import type { EdmType, EntityRow } from "@protocol/entities";
import type { FilterProperty } from "@protocol/filter-words";

/** Names kept at most: a table whose entities disagree on every name does not grow the list (and the page) without bound. */
const MAX_COLUMNS = 1000;

export class KnownColumns {
  /** Each name's types seen; `null`: seen without a type (a sample that disagreed). */
  private readonly types = new Map<string, Set<EdmType> | null>();

  /** Forgets everything: another table is open. */
  clear(): void {
    this.types.clear();
  }

  /** Properties named with the type they were seen with, if one. */
  addProperties(properties: readonly FilterProperty[]): void {
    for (const p of properties) this.add(p.name, p.type);
  }

  /** The properties of entities read or written. */
  addEntities(rows: readonly EntityRow[]): void {
    for (const row of rows) for (const [name, v] of Object.entries(row.properties)) this.add(name, v.type);
  }

  /** An import's columns, each with the types of its values. */
  addColumns(columns: ReadonlyArray<{ name: string; types: Partial<Record<EdmType, number>> }>): void {
    for (const c of columns) {
      const types = Object.keys(c.types) as EdmType[];
      if (types.length === 0) this.add(c.name, undefined);
      for (const t of types) this.add(c.name, t);
    }
  }

  /** What completion offers, by name: a type only where every sighting agreed. */
  get list(): FilterProperty[] {
    return [...this.types]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, seen]) => (seen && seen.size === 1 ? { name, type: [...seen][0] } : { name }));
  }

  private add(name: string, type: EdmType | undefined): void {
    const known = this.types.get(name);
    if (known === undefined) {
      if (this.types.size >= MAX_COLUMNS) return;
      this.types.set(name, type === undefined ? null : new Set([type]));
    } else if (known !== null) {
      if (type === undefined) this.types.set(name, null);
      else known.add(type);
    }
  }
}
