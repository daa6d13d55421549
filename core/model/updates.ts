/**
 * What the design's updates change, and which account each table lives in:
 * facts the language states (`update Touch 50/s sets LastSeen, Status`,
 * `account telemetry`) that the key and load rules and the fixes read.
 */
import { Table, Write } from "../tdl/ast";

/**
 * The properties an update, merge or upsert changes, each with the writes
 * that say so (`sets`). Empty when no write declares `sets`: the design
 * then does not say what moves.
 */
export function updatedProperties(table: Table): Map<string, Write[]> {
  const out = new Map<string, Write[]>();
  for (const a of table.accesses) {
    if (a.kind !== "write" || !a.sets) continue;
    for (const n of a.sets) out.set(n.text, [...(out.get(n.text) ?? []), a]);
  }
  return out;
}

/** Whether any write of the table declares what it changes. */
export function declaresUpdates(table: Table): boolean {
  return table.accesses.some((a) => a.kind === "write" && !!a.sets);
}

/** The account a table lives in: its `account` name, or "" for the file's one account. */
export function accountOf(table: Table): string {
  return table.account?.name.text ?? "";
}
