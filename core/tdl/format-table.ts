/**
 * Formatting of one table (`formatter.ts`): its members one a line with
 * canonical spacing, comments kept where they were, runs of properties and
 * keys aligned. Each member finds its tokens and comments by binary search,
 * so a table costs time in proportion to its own text.
 */
import { Member, Table } from "./ast";
import { Comment, T, Token } from "./lexer";
import { hasBlankLine, hasLineBreak, isLineBreak } from "./line-ends";

const INDENT = "  ";
const NO_SPACE_BEFORE = new Set([T.Colon, T.Comma, T.RParen, T.Percent, T.DotDot, T.Slash]);
const NO_SPACE_AFTER = new Set([T.LParen, T.DotDot, T.Slash, T.Minus]);

interface Line {
  text: string;
  member?: Member;
  /** Printed from its source text (a comment sits inside it): never re-aligned. */
  verbatim: boolean;
  blankBefore: boolean;
}

interface Item {
  start: number;
  end: number;
  member?: Member;
  comment?: Comment;
  /** Comments inside the member. */
  inner?: Comment[];
}

/** Index of the first element whose `start` is at or after `offset` (elements sorted by start). */
export function firstAtOrAfter(spans: ReadonlyArray<{ start: number }>, offset: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Formats a table that parsed without errors. */
export function formatTable(text: string, table: Table, tokens: Token[], comments: Comment[], eol: string): string {
  const headComment = firstAtOrAfter(comments, table.start);
  const head =
    headComment < comments.length && comments[headComment].start < table.open
      ? text.slice(table.start, table.open + 1) // a comment inside `table Name {`: keep the head as written
      : `table ${table.name.text} {`;

  const lines: Line[] = [];
  let prev: Item | undefined;
  const headEnd = table.open + 1;
  for (const item of tableItems(table, comments)) {
    const from = prev ? prev.end : headEnd;
    if (item.comment && prev && !hasLineBreak(text, from, item.start)) {
      lines[lines.length - 1].text += " " + text.slice(item.start, item.end);
      prev = item;
      continue;
    }
    const verbatim = !!item.inner?.length;
    const body = item.member ? printMember(text, item.member, item.inner ?? [], tokens) : text.slice(item.start, item.end);
    lines.push({ text: body, member: item.member, verbatim, blankBefore: !!prev && hasBlankLine(text, from, item.start) });
    prev = item;
  }
  alignRuns(lines);
  const body = lines.map((l) => (l.blankBefore ? eol : "") + INDENT + l.text);
  return body.length ? `${head}${eol}${body.join(eol)}${eol}}` : `${head}${eol}}`;
}

/** Members and the comments between `{` and `}`, in order; a comment inside a member travels with it. */
function tableItems(table: Table, comments: Comment[]): Item[] {
  const items: Item[] = [];
  let ci = firstAtOrAfter(comments, table.open + 1);
  const stop = (c: Comment | undefined) => !c || c.start >= table.close;
  for (const m of table.members) {
    for (; !stop(comments[ci]) && comments[ci].start < m.start; ci++)
      items.push({ start: comments[ci].start, end: comments[ci].end, comment: comments[ci] });
    const inner: Comment[] = [];
    for (; !stop(comments[ci]) && comments[ci].start < m.end; ci++) inner.push(comments[ci]);
    items.push({ start: m.start, end: m.end, member: m, inner });
  }
  for (; !stop(comments[ci]); ci++) items.push({ start: comments[ci].start, end: comments[ci].end, comment: comments[ci] });
  return items;
}

/** Aligns property types and key `=` signs across consecutive lines. */
function alignRuns(lines: Line[]): void {
  const alignKind = (l: Line) =>
    l.verbatim ? undefined : l.member?.kind === "property" ? "property" : l.member?.kind === "key" ? "key" : undefined;
  // A run continues across comment (and verbatim) lines but ends at a blank line or another kind of member.
  let i = 0;
  while (i < lines.length) {
    const kind = alignKind(lines[i]);
    let j = i + 1;
    while (kind && j < lines.length && !lines[j].blankBefore && (alignKind(lines[j]) === kind || !lines[j].member || lines[j].verbatim))
      j++;
    const run = lines.slice(i, j).filter((l) => alignKind(l));
    if (kind && run.length > 1) {
      const sep = kind === "property" ? ":" : " =";
      const heads = run.map((l) => l.text.slice(0, l.text.indexOf(sep) + sep.length));
      let width = 0;
      for (const h of heads) width = Math.max(width, h.length);
      run.forEach((l, k) => {
        const head = heads[k];
        const rest = l.text.slice(head.length).trimStart();
        l.text = kind === "property" ? `${head.padEnd(width)} ${rest}` : `${head.slice(0, -2).padEnd(width - 2)} = ${rest}`;
      });
    }
    i = Math.max(j, i + 1);
  }
}

/**
 * Prints a member from its tokens with canonical spacing. With a comment
 * inside, the member is copied: a line comment keeps its line ends (the rest
 * of the member is on the next line), block comments let it join one line.
 */
function printMember(text: string, m: Member, inner: Comment[], tokens: Token[]): string {
  if (inner.some((c) => !c.block)) return text.slice(m.start, m.end);
  if (inner.length) return joinLines(text, m.start, m.end, inner);
  let out = "";
  let prev: Token | undefined;
  for (let k = firstAtOrAfter(tokens, m.start); k < tokens.length; k++) {
    const t = tokens[k];
    if (t.start >= m.end || t.kind === T.EOF) break;
    if (prev && needsSpace(prev, t)) out += " ";
    out += text.slice(t.start, t.end);
    prev = t;
  }
  return out;
}

/** The member's text with each run of whitespace that holds a line end (outside its comments) turned into one space. */
function joinLines(text: string, start: number, end: number, comments: Comment[]): string {
  let out = "";
  let i = start;
  let ci = 0;
  while (i < end) {
    if (ci < comments.length && comments[ci].start === i) {
      out += text.slice(i, comments[ci].end);
      i = comments[ci++].end;
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || isLineBreak(c)) {
      let j = i;
      let breaks = false;
      for (; j < end && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9 || isLineBreak(text.charCodeAt(j))); j++)
        breaks ||= isLineBreak(text.charCodeAt(j));
      out += breaks ? " " : text.slice(i, j);
      i = j;
      continue;
    }
    out += text[i++];
  }
  return out;
}

function needsSpace(prev: Token, t: Token): boolean {
  if (NO_SPACE_BEFORE.has(t.kind) || NO_SPACE_AFTER.has(prev.kind)) return false;
  // `pad(`, `string(`, `enum(`: a call or type argument list hugs its name.
  if (t.kind === T.LParen && prev.kind === T.Ident) return false;
  return true;
}
