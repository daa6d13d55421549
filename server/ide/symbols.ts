/**
 * The outline: tables with their properties, keys, indexes, estimates and
 * access patterns.
 */
import { Member, TdlAnalysis } from "@core";

export type SymbolKind = "table" | "property" | "key" | "index" | "estimate" | "query" | "write" | "transaction";

export interface OutlineSymbol {
  name: string;
  detail: string;
  kind: SymbolKind;
  start: number;
  end: number;
  /** The name's span (what the editor selects). */
  nameStart: number;
  nameEnd: number;
  children: OutlineSymbol[];
}

/** The outline: every named table with its members. */
export function outline(analysis: TdlAnalysis): OutlineSymbol[] {
  return boundedOutline(analysis, Infinity).symbols;
}

/** What a bounded outline left out, and where that starts (a table's or a member's name). */
export interface OutlineCut {
  /** Tables left out, of `total` named tables. */
  tables: number;
  total: number;
  /** Members of the last table listed that were left out. */
  members: number;
  /** The name of the first entry left out. */
  name: string;
  start: number;
  end: number;
}

/**
 * The outline within `maxEntries` entries (a table and each of its members
 * count one): the tables that fit, built and no more — a first table
 * larger than that keeps its first members — and what was left out.
 */
export function boundedOutline(analysis: TdlAnalysis, maxEntries: number): { symbols: OutlineSymbol[]; cut?: OutlineCut } {
  const named = analysis.tables.filter((tm) => tm.table.name.text);
  const symbols: OutlineSymbol[] = [];
  let used = 0;
  for (let i = 0; i < named.length; i++) {
    const { table: t, base, text } = named[i];
    const size = 1 + t.members.length;
    if (used + size > maxEntries && i > 0) {
      const cut = { tables: named.length - i, total: named.length, members: 0, name: t.name.text };
      return { symbols, cut: { ...cut, start: base + t.name.start, end: base + t.name.end } };
    }
    const members = used + size > maxEntries ? t.members.slice(0, Math.max(0, maxEntries - 1)) : t.members;
    used += size;
    symbols.push({
      name: t.name.text,
      detail: "table",
      kind: "table" as const,
      start: base + t.start,
      end: base + Math.max(t.end, t.name.end),
      nameStart: base + t.name.start,
      nameEnd: base + t.name.end,
      children: members.map((m) => shift(memberSymbol(text, m), base)),
    });
    if (members.length < t.members.length) {
      const first = shift(memberSymbol(text, t.members[members.length]), base);
      return {
        symbols,
        cut: {
          tables: named.length - 1,
          total: named.length,
          members: t.members.length - members.length,
          name: first.name,
          start: first.nameStart,
          end: first.nameEnd,
        },
      };
    }
  }
  return { symbols };
}

function shift(s: OutlineSymbol, base: number): OutlineSymbol {
  return { ...s, start: s.start + base, end: s.end + base, nameStart: s.nameStart + base, nameEnd: s.nameEnd + base };
}

function memberSymbol(text: string, m: Member): OutlineSymbol {
  const base = { start: m.start, end: m.end, children: [] };
  switch (m.kind) {
    case "property":
      return {
        ...base,
        name: m.name.text,
        detail: text.slice(m.type.start, m.end),
        kind: "property",
        nameStart: m.name.start,
        nameEnd: m.name.end,
      };
    case "key":
      return {
        ...base,
        name: m.which,
        detail: text.slice(m.expr.start, m.expr.end),
        kind: "key",
        nameStart: m.keyword.start,
        nameEnd: m.keyword.end,
      };
    case "index":
      return {
        ...base,
        name: m.name.text,
        detail: `index · rowKey = ${text.slice(m.expr.start, m.expr.end)}`,
        kind: "index",
        nameStart: m.name.start,
        nameEnd: m.name.end,
      };
    case "estimate":
      return { ...base, name: m.which, detail: m.value.raw, kind: "estimate", nameStart: m.keyword.start, nameEnd: m.keyword.end };
    case "account":
      return { ...base, name: "account", detail: m.name.text, kind: "estimate", nameStart: m.keyword.start, nameEnd: m.keyword.end };
    case "query":
      return {
        ...base,
        name: m.name.text,
        detail: `query${m.rate ? " " + m.rate.raw : ""}`,
        kind: "query",
        nameStart: m.name.start,
        nameEnd: m.name.end,
      };
    case "write":
      return {
        ...base,
        name: m.name.text,
        detail: `${m.op}${m.rate ? " " + m.rate.raw : ""}`,
        kind: "write",
        nameStart: m.name.start,
        nameEnd: m.name.end,
      };
    case "transaction":
      return {
        ...base,
        name: m.name.text,
        detail: `transaction${m.rate ? " " + m.rate.raw : ""}`,
        kind: "transaction",
        nameStart: m.name.start,
        nameEnd: m.name.end,
      };
  }
}
