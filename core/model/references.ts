/**
 * Every place a table names a property — declarations, key and index parts,
 * query conditions, `select`, OData filter names, transaction `sharing` —
 * with exact document offsets. Drives unknown-property, definition,
 * references, rename and hover.
 */
import { Expr, forEachPart, Query, Table } from "../tdl/ast";
import { stringValueOffset } from "../tdl/lexer";
import { odataNames } from "../odata/lexer";

export interface PropertyRef {
  name: string;
  start: number;
  end: number;
  /** Where the name stands: its declaration, a key or index part, a query (`where`, `select`), an OData filter string, a transaction's `sharing`, a write's `sets`. */
  kind: "decl" | "key" | "query" | "filter" | "sharing" | "sets";
}

/** Names every table knows without declaring them (`docs/language.md`, OData filters). */
export const SYSTEM_PROPERTIES = new Set(["PartitionKey", "RowKey", "Timestamp"]);

/**
 * Every property reference of `table`. A filter whose names cannot be read
 * (a bug in the OData lexer) loses only its own references: `onFilterFailure`
 * hears of it and the others are still indexed.
 */
export function propertyRefs(table: Table, onFilterFailure?: (query: Query, error: unknown) => void): PropertyRef[] {
  const out: PropertyRef[] = [];
  for (const p of table.properties) out.push({ name: p.name.text, start: p.name.start, end: p.name.end, kind: "decl" });
  const addExpr = (expr: Expr) =>
    forEachPart(expr, (part) => {
      if (part.kind === "ref") out.push({ name: part.name.text, start: part.name.start, end: part.name.end, kind: "key" });
    });
  if (table.partitionKey) addExpr(table.partitionKey.expr);
  if (table.rowKey) addExpr(table.rowKey.expr);
  for (const ix of table.indexes) addExpr(ix.expr);
  for (const a of table.accesses) {
    if (a.kind === "query") {
      for (const c of a.where ?? []) out.push({ name: c.property.text, start: c.property.start, end: c.property.end, kind: "query" });
      if (a.filter) {
        const lit = a.filter;
        try {
          const names = odataNames(lit.value).map((tok) => ({
            name: tok.text,
            start: stringValueOffset(lit, tok.start),
            end: stringValueOffset(lit, tok.end - 1) + 1,
            kind: "filter" as const,
          }));
          for (const r of names) out.push(r);
        } catch (error) {
          if (!onFilterFailure) throw error;
          onFilterFailure(a, error);
        }
      }
      for (const s of a.select ?? []) out.push({ name: s.text, start: s.start, end: s.end, kind: "query" });
    } else if (a.kind === "transaction") {
      for (const s of a.sharing) out.push({ name: s.text, start: s.start, end: s.end, kind: "sharing" });
    } else if (a.kind === "write") {
      for (const s of a.sets ?? []) out.push({ name: s.text, start: s.start, end: s.end, kind: "sets" });
    }
  }
  return out;
}

/** The reference under `offset` (inclusive of its end, as editors place the caret after a word). */
export function refAt(refs: PropertyRef[], offset: number): PropertyRef | undefined {
  return refs.find((r) => offset >= r.start && offset <= r.end);
}
