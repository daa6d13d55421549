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

export function outline(analysis: TdlAnalysis): OutlineSymbol[] {
  return analysis.tables
    .filter((tm) => tm.table.name.text)
    .map(({ table: t, base, text }) => ({
      name: t.name.text,
      detail: "table",
      kind: "table" as const,
      start: base + t.start,
      end: base + Math.max(t.end, t.name.end),
      nameStart: base + t.name.start,
      nameEnd: base + t.name.end,
      children: t.members.map((m) => shift(memberSymbol(text, m), base)),
    }));
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
