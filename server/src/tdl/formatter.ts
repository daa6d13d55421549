/**
 * The TDL formatter: two-space indentation, one member per line, canonical
 * spacing inside members, property types and key `=` aligned in consecutive
 * lines, comments and single blank lines kept. A table with syntax errors is
 * copied unchanged, so formatting never loses text.
 */
import { Member, Table } from "./ast";
import { Comment, lex, T, Token } from "./lexer";
import { parse } from "./parser";

const INDENT = "  ";
const NO_SPACE_BEFORE = new Set([T.Colon, T.Comma, T.RParen, T.Percent, T.DotDot, T.Slash]);
const NO_SPACE_AFTER = new Set([T.LParen, T.DotDot, T.Slash, T.Minus]);

interface Item {
  start: number;
  end: number;
  member?: Member;
  comment?: Comment;
}

/** Returns the formatted text (unchanged when the file has errors outside its tables). */
export function formatTdl(text: string): string {
  const { file, errors } = parse(text);
  const { tokens, comments } = lex(text);
  const inTable = (o: number) => file.tables.some((t) => o >= t.start && o < t.end);
  if (errors.some((e) => !inTable(e.start))) return text;

  const out: string[] = [];
  const topItems: Item[] = [
    ...comments.filter((c) => !inTable(c.start)).map((c) => ({ start: c.start, end: c.end, comment: c })),
    ...(file.service ? [{ start: file.service.start, end: file.service.end }] : []),
    ...file.tables.map((t) => ({ start: t.start, end: t.end })),
  ].sort((a, b) => a.start - b.start);

  let prev: Item | undefined;
  for (const item of topItems) {
    const sameLine = prev && !text.slice(prev.end, item.start).includes("\n");
    if (prev && item.comment && sameLine) {
      out[out.length - 1] += " " + text.slice(item.start, item.end);
      prev = item;
      continue;
    }
    const table = file.tables.find((t) => t.start === item.start);
    // Tables stand apart, but a comment written right above a table stays attached to it.
    const apart = blankLineBetween(text, prev?.end ?? 0, item.start) || (table && !prev?.comment) || (prev && isTable(file.tables, prev));
    if (prev && apart) out.push("");
    if (table) out.push(table.hasSyntaxError ? text.slice(table.start, table.end) : formatTable(text, table, tokens, comments));
    else if (item.comment) out.push(text.slice(item.start, item.end));
    else out.push(`service ${file.service!.name.text}`);
    prev = item;
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n") + "\n";
}

function isTable(tables: Table[], item: Item): boolean {
  return tables.some((t) => t.start === item.start);
}

function blankLineBetween(text: string, from: number, to: number): boolean {
  return /\n[ \t\r]*\n/.test(text.slice(from, to));
}

function formatTable(text: string, table: Table, tokens: Token[], comments: Comment[]): string {
  const items: Item[] = [
    ...table.members.map((m) => ({ start: m.start, end: m.end, member: m })),
    ...comments.filter((c) => c.start > table.open && c.start < table.close).map((c) => ({ start: c.start, end: c.end, comment: c })),
  ].sort((a, b) => a.start - b.start);
  // Comments inside a member are kept by printing that member verbatim.
  const kept = items.filter((it) => !(it.comment && table.members.some((m) => it.start > m.start && it.start < m.end)));

  const lines: Array<{ text: string; member?: Member; blankBefore: boolean }> = [];
  let prev: Item | undefined;
  const headEnd = table.open + 1;
  for (const item of kept) {
    const from = prev ? prev.end : headEnd;
    if (item.comment && prev && !text.slice(from, item.start).includes("\n")) {
      lines[lines.length - 1].text += " " + text.slice(item.start, item.end);
      prev = item;
      continue;
    }
    const body = item.member ? printMember(text, item.member, tokens, comments) : text.slice(item.start, item.end);
    lines.push({ text: body, member: item.member, blankBefore: !!prev && blankLineBetween(text, from, item.start) });
    prev = item;
  }
  alignRuns(lines);
  const head = `table ${table.name.text} {`;
  const bodyLines = lines.map((l) => (l.blankBefore ? "\n" : "") + INDENT + l.text);
  return bodyLines.length ? `${head}\n${bodyLines.join("\n")}\n}` : `${head}\n}`;
}

/** Aligns property types and key `=` signs across consecutive lines. */
function alignRuns(lines: Array<{ text: string; member?: Member; blankBefore: boolean }>): void {
  const alignKind = (l: (typeof lines)[number]) =>
    l.member?.kind === "property" ? "property" : l.member?.kind === "key" ? "key" : undefined;
  // A run continues across comment lines but ends at a blank line or another kind of member.
  let i = 0;
  while (i < lines.length) {
    const kind = alignKind(lines[i]);
    let j = i + 1;
    while (kind && j < lines.length && !lines[j].blankBefore && (alignKind(lines[j]) === kind || !lines[j].member)) j++;
    const run = lines.slice(i, j).filter((l) => l.member);
    if (kind && run.length > 1) {
      const sep = kind === "property" ? ":" : " =";
      const heads = run.map((l) => l.text.slice(0, l.text.indexOf(sep) + sep.length));
      const width = Math.max(...heads.map((h) => h.length));
      run.forEach((l, k) => {
        const head = heads[k];
        const rest = l.text.slice(head.length).trimStart();
        l.text = kind === "property" ? `${head.padEnd(width)} ${rest}` : `${head.slice(0, -2).padEnd(width - 2)} = ${rest}`;
      });
    }
    i = Math.max(j, i + 1);
  }
}

/** Prints a member from its tokens with canonical spacing (verbatim when a comment sits inside it). */
function printMember(text: string, m: Member, tokens: Token[], comments: Comment[]): string {
  if (comments.some((c) => c.start > m.start && c.start < m.end)) return text.slice(m.start, m.end).replace(/\s*\n\s*/g, " ");
  let out = "";
  let prev: Token | undefined;
  for (const t of tokens) {
    if (t.start < m.start) continue;
    if (t.start >= m.end || t.kind === T.EOF) break;
    const raw = text.slice(t.start, t.end);
    if (prev && needsSpace(prev, t)) out += " ";
    out += raw;
    prev = t;
  }
  return out;
}

function needsSpace(prev: Token, t: Token): boolean {
  if (NO_SPACE_BEFORE.has(t.kind) || NO_SPACE_AFTER.has(prev.kind)) return false;
  // `pad(`, `string(`, `enum(`: a call or type argument list hugs its name.
  if (t.kind === T.LParen && prev.kind === T.Ident) return false;
  return true;
}
