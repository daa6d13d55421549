/**
 * The fixes an expert gives a key that holds a value an update changes
 * (`key/mutable-property`): the state-machine shapes — a queue keyed by
 * status, a schedule keyed by its next run, a status board — never keep a
 * moving value in the key of the entity that moves.
 *
 * 1. *Key by what does not change*: the key without the parts an update
 *    changes; a key left with nothing takes the entity's identity (the row
 *    key's stable parts, or a `unique` property).
 * 2. *The state as its own table*: the same, and the query that reads by the
 *    changing value moves to a table keyed by it whose entries are never
 *    updated — each state change deletes the entry under the old value and
 *    inserts it under the new one (`delete PayOut` / `insert PayIn`), the
 *    queue and schedule tables of the guides.
 *
 * No fix here puts a changing property into a key: `core/fixes/vet.ts`
 * refuses any fix that adds a `key/mutable-property` finding.
 */
import { Query } from "../../tdl/ast";
import { KeyPartInfo } from "../../model/key-parts";
import { updatedProperties } from "../../model/updates";
import { Fix } from "../../findings";
import { identityTail, keyPartText } from "../fix-helpers";
import { NamedKey } from "../keys";
import { TableContext } from "../rule";
import { deleteLine, lineOf, mirroredWrite } from "./second-table";
import { detectEol, indentOf } from "../../tdl/line-ends";

/** The key's text without what `changing` moves; empty when every part moves. */
function stableText(
  ctx: TableContext,
  parts: readonly KeyPartInfo[],
  expr: { start: number; end: number },
  changing: ReadonlySet<string>,
): string {
  return identityTail(ctx.text, parts, expr, new Set(), ctx.profile, changing).text;
}

/** What identifies an entity and never changes: the row key's stable parts, else a `unique` property no update sets. */
function identity(ctx: TableContext, keys: readonly NamedKey[], changing: ReadonlySet<string>, label: string): string {
  const rk = keys.find((k) => k.label === "rowKey");
  if (rk && label !== "rowKey") {
    const text = stableText(ctx, rk.info.parts, rk.expr, changing);
    if (text) return text;
  }
  const unique = [...ctx.props.values()].find((p) => p.unique && !changing.has(p.name));
  return unique ? keyPartText(unique) : "";
}

/** The queries that pin a property the update changes: they read by the state. */
function queriesByState(ctx: TableContext, changing: ReadonlySet<string>): Query[] {
  return ctx.table.accesses.filter((a): a is Query => a.kind === "query" && !!a.where?.some((c) => changing.has(c.property.text)));
}

/**
 * The state's own table: the table's keys as they were (they served the
 * queries by state), the queries by state moved there, every write
 * mirrored — and each write that changes a key's value as the delete of the
 * old entry and the insert of the new one, so that no update changes a key.
 */
function stateTable(ctx: TableContext, queries: Query[], changing: ReadonlySet<string>, moving: string): Fix | undefined {
  const t = ctx.table;
  const text = ctx.text;
  if (!t.partitionKey || !t.rowKey || t.close < 0) return undefined;
  const name = `${t.name.text}By${moving}`.slice(0, 63);
  const eol = detectEol(text);
  const indent = t.properties.length ? indentOf(text, t.properties[0].start) : "  ";
  const slice = (x: { start: number; end: number }) => text.slice(x.start, x.end);
  const members = [
    ...t.properties.map((p) => slice(lineOf(text, p)).trim()),
    "",
    `partitionKey = ${slice(t.partitionKey.expr)}`,
    `rowKey       = ${slice(t.rowKey.expr)}`,
    "",
    ...[t.rows, t.entitySize, t.retention].filter((e) => !!e).map((e) => slice(e!)),
    "",
    ...t.accesses.flatMap((a) => mirroredWrite(text, a, changing)),
    ...queries.map(slice),
  ];
  const table =
    `${eol}${eol}// ${t.name.text} by ${moving}: an entry per entity, deleted and inserted again when ${moving} changes, never updated.${eol}` +
    `table ${name} {${eol}${members.map((m) => (m ? indent + m : "")).join(eol)}${eol}}`;
  return {
    title: `and add table ${name} for ${queries.map((q) => `'${q.name.text}'`).join(", ")}, keyed as before: a change of ${moving} deletes its entry and inserts the new one`,
    edits: [...queries.map((q) => deleteLine(text, q)), { start: t.close + 1, end: t.close + 1, newText: table }],
  };
}

/**
 * The checked fixes of a key that renders `name`, which an update changes:
 * the key by what does not change, then the same with the state's own
 * table for the queries that read by a changing value.
 */
export function stableKeyFixes(ctx: TableContext, key: NamedKey, keys: readonly NamedKey[], name: string): Fix[] {
  const changing = new Set(updatedProperties(ctx.table).keys());
  const text = stableText(ctx, key.info.parts, key.expr, changing) || identity(ctx, keys, changing, key.label);
  if (!text) return [];
  const rekey: Fix = {
    title: `Key the ${key.label} by what does not change: ${text}`,
    edits: [{ start: key.expr.start, end: key.expr.end, newText: text }],
  };
  const byState = queriesByState(ctx, changing);
  const state = byState.length ? stateTable(ctx, byState, changing, name) : undefined;
  return state ? [rekey, { title: `${rekey.title}, ${state.title}`, edits: [...rekey.edits, ...state.edits] }] : [rekey];
}
