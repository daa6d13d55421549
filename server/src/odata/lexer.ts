/**
 * Tokeniser for the OData `$filter` subset of `language.md`: names, the
 * operators, parentheses and literals (`'it''s'`, `datetime'…'`, `guid'…'`,
 * `X'…'`/`binary'…'`, integers with an optional `L`, doubles, booleans).
 */

export type ODataTokenKind = "name" | "string" | "int" | "int64" | "double" | "bool" | "datetime" | "guid" | "binary" | "lparen" | "rparen" | "error" | "eof";

export interface ODataToken {
  kind: ODataTokenKind;
  /** Offsets within the filter text. */
  start: number;
  end: number;
  /** Names: the name; literals: the decoded value's text. */
  text: string;
  error?: string;
}

const TYPED_PREFIX: Record<string, ODataTokenKind> = { datetime: "datetime", guid: "guid", X: "binary", binary: "binary" };

/** Tokenises a filter. Bad characters become `error` tokens rather than exceptions. */
export function lexOData(src: string): ODataToken[] {
  const out: ODataToken[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") { i++; continue; }
    if (c === "(" || c === ")") {
      out.push({ kind: c === "(" ? "lparen" : "rparen", start: i, end: i + 1, text: c });
      i++;
      continue;
    }
    if (c === "'") {
      const s = readQuoted(src, i);
      out.push({ kind: "string", start: i, end: s.end, text: s.value, ...(s.error ? { error: s.error } : {}) });
      i = s.end;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(src[j])) j++;
      const word = src.slice(i, j);
      const typed = TYPED_PREFIX[word];
      if (typed && src[j] === "'") {
        const s = readQuoted(src, j);
        out.push({ kind: typed, start: i, end: s.end, text: s.value, ...(s.error ? { error: s.error } : {}) });
        i = s.end;
        continue;
      }
      out.push({ kind: word === "true" || word === "false" ? "bool" : "name", start: i, end: j, text: word });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c) || (c === "-" && /[0-9.]/.test(src[i + 1] ?? ""))) {
      const m = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?([LldDfFmM])?/.exec(src.slice(i));
      const raw = m![0];
      const isInt64 = m![1] === "L" || m![1] === "l";
      const isDouble = !isInt64 && (/[.eE]/.test(raw) || (m![1] !== undefined));
      const text = m![1] ? raw.slice(0, -1) : raw;
      out.push({ kind: isInt64 ? "int64" : isDouble ? "double" : "int", start: i, end: i + raw.length, text });
      i += raw.length;
      continue;
    }
    out.push({ kind: "error", start: i, end: i + 1, text: c, error: `unexpected character '${c}'` });
    i++;
  }
  out.push({ kind: "eof", start: n, end: n, text: "" });
  return out;
}

function readQuoted(src: string, quote: number): { value: string; end: number; error?: string } {
  let value = "";
  let j = quote + 1;
  for (;;) {
    if (j >= src.length) return { value, end: j, error: "unterminated literal: add the closing '" };
    if (src[j] === "'") {
      if (src[j + 1] === "'") { value += "'"; j += 2; continue; }
      return { value, end: j + 1 };
    }
    value += src[j];
    j++;
  }
}

/** The property names a filter mentions, with their offsets in the filter text. */
export function odataNames(src: string): ODataToken[] {
  return lexOData(src).filter((t) => t.kind === "name" && !OPERATOR_WORDS.has(t.text));
}

export const OPERATOR_WORDS = new Set(["eq", "ne", "gt", "ge", "lt", "le", "and", "or", "not"]);
