/**
 * The properties a design declares for a table, as the filter editor
 * completes them: each with the Edm type its declared type is stored as.
 * The explorer offers them beside what it has seen of the table, so a new
 * table (or one just opened) completes its columns before any entity is
 * read. A table of the open designs of the same name (case-insensitive, as
 * the service compares them) is the one; when no name matches and the
 * open designs hold one table, that one.
 */
import { analyzeTdl, type TableModel } from "@core";
import { EDM_OF_TYPE } from "@protocol/entities";
import type { FilterProperty } from "@protocol/filter-words";

/** The properties `table` has in the designs `texts` (open design documents), sorted by name; none when no table fits. */
export function designColumns(texts: readonly string[], table: string): FilterProperty[] {
  const tables: TableModel[] = texts.flatMap((t) => analyzeTdl(t).tables);
  const chosen =
    tables.find((t) => t.table.name.text.toLowerCase() === table.toLowerCase()) ?? (tables.length === 1 ? tables[0] : undefined);
  if (!chosen) return [];
  return [...chosen.props.values()]
    .map((p) => ({ name: p.name, type: EDM_OF_TYPE[p.type] }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
