/**
 * The TDL formatter: two-space indentation, one member per line, canonical
 * spacing inside members, property types and key `=` aligned in consecutive
 * lines, comments and single blank lines kept. A table with syntax errors is
 * copied unchanged, so formatting never loses text; a file with errors
 * outside its tables is left as it is.
 *
 * New line ends follow the document's style (`\n`, `\r\n` or `\r`); text
 * copied unchanged keeps its own. Linear in the document: one lex, one parse,
 * and every table finds its comments by binary search (`format-table.ts`).
 */
import { Table } from "./ast";
import { Comment, lex } from "./lexer";
import { parse } from "./parser";
import { detectEol, hasBlankLine, hasLineBreak } from "./line-ends";
import { firstAtOrAfter, formatTable } from "./format-table";

interface TopItem {
  start: number;
  end: number;
  comment?: Comment;
  table?: Table;
}

/** Returns the formatted text (unchanged when the file has errors outside its tables). */
export function formatTdl(text: string): string {
  const { file, errors } = parse(text);
  const tables = file.tables;
  if (errors.some((e) => !tableAt(tables, e.start))) return text;
  const { tokens, comments } = lex(text);
  const eol = detectEol(text);

  const items: TopItem[] = [];
  for (const c of comments) if (!tableAt(tables, c.start)) items.push({ start: c.start, end: c.end, comment: c });
  const service = file.service;
  let serviceText: string | undefined;
  if (service) {
    // A comment inside `service … name` stays where it is: the line is copied as written.
    const inside = comments.slice(firstAtOrAfter(comments, service.start + 1)).some((c) => c.start < service.end);
    serviceText = inside ? text.slice(service.start, service.end) : `service ${service.name.text}`;
    items.push({ start: service.start, end: service.end });
  }
  for (const t of tables) items.push({ start: t.start, end: t.end, table: t });
  const top = withoutServiceComments(items, service);
  top.sort((a, b) => a.start - b.start);

  const out: string[] = [];
  let prev: TopItem | undefined;
  for (const item of top) {
    if (prev && item.comment && !hasLineBreak(text, prev.end, item.start)) {
      out[out.length - 1] += " " + text.slice(item.start, item.end);
      prev = item;
      continue;
    }
    // Tables stand apart, but a comment written right above a table stays attached to it.
    const apart = prev && (hasBlankLine(text, prev.end, item.start) || (item.table && !prev.comment) || prev.table);
    if (apart) out.push("");
    if (item.table)
      out.push(item.table.hasSyntaxError ? text.slice(item.start, item.end) : formatTable(text, item.table, tokens, comments, eol));
    else if (item.comment) out.push(text.slice(item.start, item.end));
    else out.push(serviceText!);
    prev = item;
  }
  const bom = text.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
  return out.length ? bom + out.join(eol) + eol : bom;
}

/** Drops the comments that sit inside the `service` line (it is printed with them). */
function withoutServiceComments(items: TopItem[], service: { start: number; end: number } | undefined): TopItem[] {
  if (!service) return items;
  return items.filter((it) => !(it.comment && it.start > service.start && it.start < service.end));
}

/** The table whose span holds `offset` (tables are sorted and disjoint): binary search. */
function tableAt(tables: readonly Table[], offset: number): Table | undefined {
  let lo = 0;
  let hi = tables.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = tables[mid];
    if (offset < t.start) hi = mid - 1;
    else if (offset >= t.end) lo = mid + 1;
    else return t;
  }
  return undefined;
}
