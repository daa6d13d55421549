/**
 * Tokeniser for the OData `$filter` subset of `docs/language.md`: names, the
 * operators, parentheses and literals (`'it''s'`, `datetime'…'`, `guid'…'`,
 * `X'…'`/`binary'…'`, integers with an optional `L`, doubles, booleans).
 *
 * It reads each character once (no slicing of the rest of the text, no
 * regular expression per token), so a filter of a megabyte lexes in linear
 * time, and it never throws: anything it cannot read becomes an `error`
 * token whose message says what to write instead.
 */
import { clipVisible, showChar } from "../text/words";

export type ODataTokenKind =
  "name" | "string" | "int" | "int64" | "double" | "bool" | "datetime" | "guid" | "binary" | "lparen" | "rparen" | "error" | "eof";

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

/** Hints for characters people type from other languages. */
const CHARACTER_HINTS: Record<string, string> = {
  "&": "write 'and'",
  "|": "write 'or'",
  "!": "write 'not', or 'ne' for not-equal",
  "=": "write 'eq'",
  "<": "write 'lt' or 'le'",
  ">": "write 'gt' or 'ge'",
  '"': "string literals take single quotes: 'text'",
  ".": "a number needs digits, such as 0.5",
  "-": "a minus sign belongs to a number such as -5; arithmetic is not supported",
};

const isDigit = (c: number) => c >= 48 && c <= 57;
const isAsciiNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** Beyond ASCII, names follow C# identifiers (as Table property names do): letters, then letters, digits, marks, connectors. */
const UNICODE_NAME_START = /^[\p{L}\p{Nl}]$/u;
const UNICODE_NAME_PART = /^[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]$/u;

/** Length in UTF-16 units of a name character at `i`, or 0 when there is none. */
function nameCharAt(src: string, i: number, first: boolean): number {
  const c = src.charCodeAt(i);
  if (isAsciiNameStart(c) || (!first && isDigit(c))) return 1;
  if (c < 128 || Number.isNaN(c)) return 0;
  const cp = src.codePointAt(i)!;
  const ch = String.fromCodePoint(cp);
  return (first ? UNICODE_NAME_START : UNICODE_NAME_PART).test(ch) ? ch.length : 0;
}

/** Tokenises a filter. Bad characters become `error` tokens rather than exceptions. */
export function lexOData(src: string): ODataToken[] {
  const out: ODataToken[] = [];
  const n = src.length;
  let i = 0;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    if (c === 40 || c === 41) {
      out.push({ kind: c === 40 ? "lparen" : "rparen", start: i, end: i + 1, text: src[i] });
      i++;
      continue;
    }
    if (c === 39) {
      const s = readQuoted(src, i);
      out.push({ kind: "string", start: i, end: s.end, text: s.value, ...(s.error ? { error: s.error } : {}) });
      i = s.end;
      continue;
    }
    if (nameCharAt(src, i, true)) {
      let j = i + nameCharAt(src, i, true);
      for (let w = nameCharAt(src, j, false); w > 0; w = nameCharAt(src, j, false)) j += w;
      const word = src.slice(i, j);
      const typed = TYPED_PREFIX[word];
      if (typed && src.charCodeAt(j) === 39) {
        const s = readQuoted(src, j);
        out.push({ kind: typed, start: i, end: s.end, text: s.value, ...(s.error ? { error: s.error } : {}) });
        i = s.end;
        continue;
      }
      out.push({ kind: word === "true" || word === "false" ? "bool" : "name", start: i, end: j, text: word });
      i = j;
      continue;
    }
    if (
      isDigit(c) ||
      (c === 46 && isDigit(src.charCodeAt(i + 1))) ||
      (c === 45 && (isDigit(src.charCodeAt(i + 1)) || src.charCodeAt(i + 1) === 46))
    ) {
      const t = readNumber(src, i);
      out.push(t);
      i = t.end;
      continue;
    }
    const width = c >= 0xd800 && c <= 0xdbff && (src.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    const ch = src.slice(i, i + width);
    const hint =
      CHARACTER_HINTS[ch] ??
      "a filter holds property names, literals, the operators (eq, ne, gt, ge, lt, le, and, or, not) and parentheses";
    out.push({ kind: "error", start: i, end: i + width, text: ch, error: `unexpected character ${showChar(ch)}: ${hint}` });
    i += width;
  }
  out.push({ kind: "eof", start: n, end: n, text: "" });
  return out;
}

/** Reads `-?(digits(.digits*)?|.digits)([eE][+-]?digits)?[LldDfFmM]?` at `i`, or an error token that says how to finish the number. */
function readNumber(src: string, i: number): ODataToken {
  let j = i;
  if (src.charCodeAt(j) === 45) j++;
  const intStart = j;
  while (isDigit(src.charCodeAt(j))) j++;
  const intDigits = j - intStart;
  let fractional = false;
  let exponent = false;
  let fix: string | undefined;
  if (src.charCodeAt(j) === 46) {
    j++;
    const fracStart = j;
    while (isDigit(src.charCodeAt(j))) j++;
    fractional = true;
    // OData's decimal literals may omit the digits on one side of the point (`.5`, `-.5`, `12.`), not on both.
    if (intDigits === 0 && j === fracStart) fix = `write digits around the point, such as ${src.slice(i, intStart)}0.5`;
  }
  const e = src.charCodeAt(j);
  if (!fix && (e === 69 || e === 101)) {
    let k = j + 1;
    if (src.charCodeAt(k) === 43 || src.charCodeAt(k) === 45) k++;
    if (isDigit(src.charCodeAt(k))) {
      while (isDigit(src.charCodeAt(k))) k++;
      exponent = true;
    } else {
      fix = `write the exponent's digits, such as ${clipVisible(src.slice(i, j))}e3`;
    }
    j = k;
  }
  const numberEnd = j;
  const suffix = src[j];
  const hasSuffix = !fix && suffix !== undefined && "LldDfFmM".includes(suffix);
  if (hasSuffix) j++;
  const int64 = hasSuffix && (suffix === "L" || suffix === "l");
  if (int64 && (fractional || exponent))
    fix = `an int64 literal is a whole number, such as ${clipVisible(src.slice(i, intStart + intDigits))}L`;
  // A name character right after a number ("5and", "1x") makes neither a number nor a name.
  if (nameCharAt(src, j, false)) {
    for (let w = nameCharAt(src, j, false); w > 0; w = nameCharAt(src, j, false)) j += w;
    fix ??= "put a space between a number and the word after it";
  }
  if (fix)
    return { kind: "error", start: i, end: j, text: src.slice(i, j), error: `'${clipVisible(src.slice(i, j))}' is not a number: ${fix}` };
  const kind = int64 ? "int64" : fractional || exponent || hasSuffix ? "double" : "int";
  return { kind, start: i, end: j, text: src.slice(i, numberEnd) };
}

function readQuoted(src: string, quote: number): { value: string; end: number; error?: string } {
  const parts: string[] = [];
  let j = quote + 1;
  for (;;) {
    const k = src.indexOf("'", j);
    if (k < 0) {
      parts.push(src.slice(j));
      return { value: parts.join(""), end: src.length, error: "unterminated literal: add the closing '" };
    }
    parts.push(src.slice(j, k));
    if (src.charCodeAt(k + 1) === 39) {
      parts.push("'");
      j = k + 2;
      continue;
    }
    return { value: parts.join(""), end: k + 1 };
  }
}

/** The property names a filter mentions, with their offsets in the filter text. */
export function odataNames(src: string): ODataToken[] {
  return lexOData(src).filter((t) => t.kind === "name" && !OPERATOR_WORDS.has(t.text));
}

export const OPERATOR_WORDS = new Set(["eq", "ne", "gt", "ge", "lt", "le", "and", "or", "not"]);
