/**
 * When no key change serves every access pattern, the guide's answer: a
 * second table keyed for the query that the key cannot serve, written
 * alongside the first (not in the same transaction). The ledger is the
 * case: a transfer's rows must share a partition, so the table is keyed by
 * the transfer, and a statement by account reads a second table keyed by
 * account. The fix adds that table (the same properties and size, every
 * write mirrored) and moves the query into it; checking it judges the
 * query in its new table.
 */
import { Access, Query, Table } from "../../tdl/ast";
import { detectEol, indentOf, isLineBreak, lineStartOf } from "../../tdl/line-ends";
import { KeyPartInfo } from "../../model/key-parts";
import { PropertyInfo } from "../../model/properties";
import { tableFacts } from "../../model/facts";
import { updatedProperties } from "../../model/updates";
import { Fix, TextEdit } from "../../findings";
import { chooseSeparator, identityTail, keyPartText, rendersProperty } from "../fix-helpers";
import { TableContext } from "../rule";

/** A rate as the language writes it: "600/s". */
function rateText(perSecond: number): string {
  const n = Math.round(perSecond * 1000) / 1000;
  return `${n}/s`;
}

/** The text of a member's whole line(s), from its line's start to its line break (excluded). */
export function lineOf(text: string, span: { start: number; end: number }): { start: number; end: number } {
  let end = span.end;
  while (end < text.length && !isLineBreak(text.charCodeAt(end))) end++;
  return { start: lineStartOf(text, span.start), end };
}

/** Deletes a member's line with its line break. */
export function deleteLine(text: string, span: { start: number; end: number }): TextEdit {
  const line = lineOf(text, span);
  let end = line.end;
  if (text[end] === "\r") end++;
  if (text[end] === "\n") end++;
  return { start: line.start, end, newText: "" };
}

function neighbour(p: PropertyInfo): Pick<KeyPartInfo, "charset" | "fixedWidth"> {
  return { charset: p.charset, fixedWidth: p.type === "int" || p.type === "int64" || p.type === "guid" };
}

/** Joins properties into a key expression with the separators `chooseSeparator` gives. */
function joinKey(ctx: TableContext, props: PropertyInfo[], tail?: string, tailHead?: Pick<KeyPartInfo, "charset" | "fixedWidth">): string {
  let out = "";
  props.forEach((p, i) => {
    if (i) out += ` + ${JSON.stringify(chooseSeparator([neighbour(props[i - 1]), neighbour(p)], ctx.profile) ?? "_")} + `;
    out += keyPartText(p);
  });
  if (tail) out += ` + ${JSON.stringify(chooseSeparator([neighbour(props[props.length - 1]), tailHead], ctx.profile) ?? "_")} + ${tail}`;
  return out;
}

/**
 * What the mirrored table writes: each write as it is, a transaction's
 * entities as inserts — and a write that sets a property of `moves` (which
 * the new table keys by) as the delete of the old entry and the insert of
 * the new one, so that no update there changes a key.
 */
export function mirroredWrite(text: string, a: Access, moves: ReadonlySet<string>): string[] {
  if (a.kind === "query") return [];
  if (a.kind === "write" && a.sets?.some((n) => moves.has(n.text))) {
    const rate = a.rate ? ` ${rateText(a.rate.perSecond)}` : "";
    return [`delete ${a.name.text}Out${rate}`, `insert ${a.name.text}In${rate}`];
  }
  if (a.kind === "write") return [text.slice(a.start, a.end)];
  const entities = a.entities && Number.isFinite(a.entities.value) ? a.entities.value : 1;
  return [`insert ${a.name.text}${a.rate ? ` ${rateText(a.rate.perSecond * entities)}` : ""}`];
}

/**
 * The first table's row key as the second table's row key ends: as written,
 * when it already leads with the queried range's property (then nothing goes
 * before it); otherwise without the parts that render that property, so
 * that the range leads and no property is written twice
 * (`ReadingAt + "," + ReadingAt + …` was the fix's text).
 */
function rowKeyTail(
  ctx: TableContext,
  parts: KeyPartInfo[],
  range: PropertyInfo | undefined,
): { text: string; first?: KeyPartInfo; last?: KeyPartInfo; leadsWithRange: boolean } {
  const rowKey = ctx.table.rowKey!;
  const changing = new Set(updatedProperties(ctx.table).keys());
  const components = parts.filter((p) => p.props.length > 0);
  const moves = parts.some((p) => p.props.some((n) => changing.has(n)));
  if (range && components.length && rendersProperty(components[0], range.name) && !moves)
    return {
      text: ctx.text.slice(rowKey.expr.start, rowKey.expr.end),
      first: parts[0],
      last: parts[parts.length - 1],
      leadsWithRange: true,
    };
  const tail = identityTail(ctx.text, parts, rowKey.expr, new Set(range ? [range.name] : []), ctx.profile, changing);
  return { text: tail.text, first: tail.parts[0], last: tail.parts[tail.parts.length - 1], leadsWithRange: false };
}

/**
 * A second table keyed for `query` — its `=` properties in the partition
 * key, its range property then the first table's row key in the row key —
 * with `edits` (a key change of the first table) applied too. Writes that
 * set a property of `moves` are mirrored as a delete and an insert (the
 * state's own table). Undefined when the query pins no property.
 */
export function secondTable(
  ctx: TableContext,
  query: Query,
  base?: { edits: TextEdit[]; title: string },
  moves: ReadonlySet<string> = new Set(),
): Fix | undefined {
  const t: Table = ctx.table;
  const text = ctx.text;
  if (!query.where || !t.rowKey || t.close < 0) return undefined;
  const eq = [...new Set(query.where.filter((c) => c.op === "=").map((c) => c.property.text))]
    .map((n) => ctx.props.get(n))
    .filter((p): p is PropertyInfo => !!p);
  if (!eq.length) return undefined;
  const ranged = query.where.find((c) => c.op !== "=" && !eq.some((p) => p.name === c.property.text));
  const range = ranged ? ctx.props.get(ranged.property.text) : undefined;
  const { est } = tableFacts(t, ctx.props);
  const rkParts = est.rk?.parts ?? [];
  // The row key keeps every entity apart: the first table's row key, and its partition key's properties that the new key lacks.
  // What updates change never enters the new keys (an entity would have to move).
  const changing = updatedProperties(t);
  const keep = [...(est.pk?.props ?? [])]
    .filter((n) => !est.rk?.props.has(n) && !eq.some((p) => p.name === n) && n !== range?.name && !changing.has(n))
    .map((n) => ctx.props.get(n)!);
  const tailed = rowKeyTail(ctx, rkParts, range);
  let tail = tailed.text;
  let last: Pick<KeyPartInfo, "charset" | "fixedWidth"> | undefined = tailed.last;
  // Each kept property as the partition key rendered it (`reverse(Ticks)` keeps newest first), unless hashed or bucketed there.
  const written = new Set<KeyPartInfo>();
  for (const p of keep) {
    const own = est.pk?.parts.find((x) => x.props.length === 1 && x.props[0] === p.name && x.fn !== "hash" && x.fn !== "bucket");
    if (own && written.has(own)) continue;
    const partText = own ? text.slice(own.part.start, own.part.end) : keyPartText(p);
    const head: Pick<KeyPartInfo, "charset" | "fixedWidth"> = own ?? neighbour(p);
    tail += tail ? ` + ${JSON.stringify(chooseSeparator([last, head], ctx.profile) ?? "_")} + ${partText}` : partText;
    if (own) written.add(own);
    last = head;
  }
  const rowKey = range && !tailed.leadsWithRange ? joinKey(ctx, [range], tail || undefined, tailed.first) : tail;
  if (!rowKey) return undefined;
  const name = `${t.name.text}By${eq.map((p) => p.name).join("")}`.slice(0, 63);
  const eol = detectEol(text);
  const indent = t.properties.length ? indentOf(text, t.properties[0].start) : "  ";
  const members = [
    ...t.properties.map((p) => text.slice(lineOf(text, p).start, lineOf(text, p).end).trim()),
    "",
    `partitionKey = ${joinKey(ctx, eq)}`,
    `rowKey       = ${rowKey}`,
    "",
    ...[t.rows, t.entitySize, t.retention].filter((e) => !!e).map((e) => text.slice(e!.start, e!.end)),
    "",
    ...t.accesses.flatMap((a) => mirroredWrite(text, a, moves)),
    text.slice(query.start, query.end),
  ];
  const table = `${eol}${eol}// Keyed for ${query.name.text}: written alongside ${t.name.text}, not in the same transaction.${eol}table ${name} {${eol}${members
    .map((m) => (m ? indent + m : ""))
    .join(eol)}${eol}}`;
  const edits = [...(base?.edits ?? []), deleteLine(text, query), { start: t.close + 1, end: t.close + 1, newText: table }];
  const keyedBy = eq.map((p) => p.name).join(", ");
  return {
    title: `${base ? `${base.title}, and add` : "Add"} table ${name} keyed by ${keyedBy} for '${query.name.text}' (every write mirrored there, not in the same transaction)`,
    edits,
  };
}
