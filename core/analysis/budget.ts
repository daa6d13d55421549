/**
 * The analysis budget of one document. Every rule is linear or close to it,
 * but a design can still be larger than anyone needs checked on each
 * keystroke: past these sizes the design rules skip what is over and one
 * `budget` warning says what was skipped; syntax errors, the outline and
 * the name checks still cover everything. Sizes, not clocks, so a result
 * never depends on the machine's speed and incremental analysis equals a
 * fresh one.
 */
import { Table } from "../tdl/ast";
import { formatCount } from "../text/words";
import { Finding } from "../findings";
import { said } from "../rules/rule";
import { BUDGET } from "./records";

/** Tables per document that the rules check; later ones are parsed only. */
export const MAX_CHECKED_TABLES = 20_000;

/** Members (properties, keys, patterns…) of one table that the design rules check. */
export const MAX_TABLE_MEMBERS = 5_000;

/** `where` queries × row families (the row key and each index) one table may ask the classifier to match. */
export const MAX_QUERY_MATCHES = 50_000;

/** Why the design rules skip `table` for its size, or undefined when it fits the budget. */
export function tableOverBudget(table: Table): string | undefined {
  if (table.members.length > MAX_TABLE_MEMBERS) {
    return `it has ${formatCount(table.members.length)} members; the design rules check tables of up to ${formatCount(MAX_TABLE_MEMBERS)}`;
  }
  let where = 0;
  for (const a of table.accesses) if (a.kind === "query" && a.where) where++;
  const matches = where * (1 + table.indexes.length);
  if (matches > MAX_QUERY_MATCHES) {
    return (
      `its ${formatCount(where)} queries would each be matched against ${formatCount(1 + table.indexes.length)} row families ` +
      `(the row key and every index): ${formatCount(matches)} matches, over the budget of ${formatCount(MAX_QUERY_MATCHES)}`
    );
  }
  return undefined;
}

/** The warning on a table too large for the design rules (offsets of the table's chunk). */
export function tableBudgetFinding(table: Table, why: string): Finding {
  return {
    code: "budget",
    severity: "warning",
    start: table.name.start,
    end: table.name.end,
    ...said(BUDGET, "table", { table: table.name.text, why }),
  };
}

/** The warning on the first table the rules skipped because the document has too many (absolute offsets). */
export function documentBudgetFinding(total: number, checked: number, first: { name: string; start: number; end: number }): Finding {
  return {
    code: "budget",
    severity: "warning",
    start: first.start,
    end: first.end,
    ...said(BUDGET, "document", { total, checked, first: first.name }),
  };
}
