/**
 * Lexer for the Table Design Language. Produces a flat token array with
 * offsets; comments are kept aside (the formatter needs them), whitespace is
 * dropped but each token records whether it starts a line, which drives the
 * parser's error recovery (`docs/language.md`, "Errors and recovery"). `\r\n`,
 * `\n` and a lone `\r` all end a line. One pass, no backtracking: linear in
 * the text.
 */
import { hasLineBreak, isLineBreak } from "./line-ends";

export const enum T {
  Ident,
  String,
  Number,
  LBrace,
  RBrace,
  LParen,
  RParen,
  Colon,
  Comma,
  Equals,
  Plus,
  Minus,
  Slash,
  Percent,
  DotDot,
  Question,
  Lt,
  Le,
  Gt,
  Ge,
  Unknown,
  EOF,
}

export interface Token {
  kind: T;
  start: number;
  end: number;
  /** The token is the first on its line. */
  lineStart: boolean;
  /** Identifier text, number text, or the decoded string value. */
  value: string;
  /** Strings: a message when the literal is unterminated or has a bad escape. */
  error?: string;
  /** Strings with escapes: the document offset of each decoded UTF-16 unit. */
  offsets?: number[];
}

export interface Comment {
  start: number;
  end: number;
  block: boolean;
}

export interface LexResult {
  tokens: Token[];
  comments: Comment[];
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isIdentStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** A character of a name after its first: a letter, a digit or `_` (chunks.ts reads names with it too). */
export const isIdentPart = (c: number) => isIdentStart(c) || isDigit(c);
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

const PUNCT: Record<string, T> = {
  "{": T.LBrace,
  "}": T.RBrace,
  "(": T.LParen,
  ")": T.RParen,
  ":": T.Colon,
  ",": T.Comma,
  "=": T.Equals,
  "+": T.Plus,
  "-": T.Minus,
  "/": T.Slash,
  "%": T.Percent,
  "?": T.Question,
};

/** Where a `//` comment at `i` ends: at its line's break (not included), or at the text's end. */
export function lineCommentEnd(text: string, i: number): number {
  let stop = i + 2;
  while (stop < text.length && !isLineBreak(text.charCodeAt(stop))) stop++;
  return stop;
}

/** Where a block comment at `i` ends: after its closing, or at the text's end when it is not closed. */
export function blockCommentEnd(text: string, i: number): number {
  const end = text.indexOf("*/", i + 2);
  return end < 0 ? text.length : end + 2;
}

/**
 * Tokenises `text`. Never throws: unknown characters become `Unknown` tokens.
 * With `limit`, stops after that many tokens (the EOF token then marks where
 * it stopped), for callers that only need the head of a design.
 */
export function lex(text: string, limit = Infinity): LexResult {
  const tokens: Token[] = [];
  const comments: Comment[] = [];
  const n = text.length;
  let i = 0;
  let lineStart = true;
  const push = (kind: T, start: number, end: number, value: string) => {
    tokens.push({ kind, start, end, lineStart, value });
    lineStart = false;
  };

  while (i < n && tokens.length < limit) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      lineStart = true;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 0xfeff) {
      i++;
      continue;
    }
    if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      const stop = lineCommentEnd(text, i);
      comments.push({ start: i, end: stop, block: false });
      i = stop;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      const stop = blockCommentEnd(text, i);
      comments.push({ start: i, end: stop, block: true });
      lineStart ||= hasLineBreak(text, i + 2, stop);
      i = stop;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(text.charCodeAt(j))) j++;
      push(T.Ident, i, j, text.slice(i, j));
      i = j;
      continue;
    }
    if (isDigit(c) || (c === 45 /* - */ && isDigit(text.charCodeAt(i + 1)) && numberMayBeNegative(tokens))) {
      const j = scanNumber(text, i);
      push(T.Number, i, j, text.slice(i, j));
      i = j;
      continue;
    }
    if (c === 34 /* " */) {
      i = scanString(text, i, push, tokens);
      continue;
    }
    if (c === 46 /* . */ && text.charCodeAt(i + 1) === 46) {
      push(T.DotDot, i, i + 2, "..");
      i += 2;
      continue;
    }
    if (c === 60 /* < */ || c === 62 /* > */) {
      const eq = text.charCodeAt(i + 1) === 61;
      const kind = c === 60 ? (eq ? T.Le : T.Lt) : eq ? T.Ge : T.Gt;
      push(kind, i, i + (eq ? 2 : 1), text.slice(i, i + (eq ? 2 : 1)));
      i += eq ? 2 : 1;
      continue;
    }
    const ch = text[i];
    const p = PUNCT[ch];
    // A surrogate pair is one unknown character, not two.
    const width = c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    push(p ?? T.Unknown, i, i + width, text.slice(i, i + width));
    i += width;
  }
  const end = Math.min(i, n);
  tokens.push({ kind: T.EOF, start: end, end, lineStart: true, value: "" });
  return { tokens, comments };
}

/** A `-` starts a negative number only where a value is expected: after `(`, `..`, `,` or a keyword. */
function numberMayBeNegative(tokens: Token[]): boolean {
  const prev = tokens[tokens.length - 1];
  return !prev || prev.kind === T.LParen || prev.kind === T.DotDot || prev.kind === T.Comma;
}

/**
 * Numbers: digits with `_` separators, an optional fraction (a dot followed by
 * a digit, so `0..150` stays a range) and an adjacent letter suffix (`K`, `M`,
 * `B`, `KiB`, …) which the parser interprets by context.
 */
function scanNumber(text: string, start: number): number {
  let j = start;
  if (text.charCodeAt(j) === 45) j++;
  while (j < text.length && (isDigit(text.charCodeAt(j)) || text.charCodeAt(j) === 95)) j++;
  if (text.charCodeAt(j) === 46 && isDigit(text.charCodeAt(j + 1))) {
    j++;
    while (j < text.length && (isDigit(text.charCodeAt(j)) || text.charCodeAt(j) === 95)) j++;
  }
  while (j < text.length && isLetter(text.charCodeAt(j))) j++;
  return j;
}

const SIMPLE_ESCAPES = new Map([
  ['"', '"'],
  ["\\", "\\"],
  ["n", "\n"],
  ["t", "\t"],
]);

function scanString(
  text: string,
  start: number,
  push: (kind: T, start: number, end: number, value: string) => void,
  tokens: Token[],
): number {
  let j = start + 1;
  let value = "";
  let offsets: number[] | undefined;
  let error: string | undefined;
  const n = text.length;
  for (;;) {
    // A run of plain characters is copied in one slice.
    const run = j;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (d === 34 || d === 92 || isLineBreak(d)) break;
      j++;
    }
    if (j > run) {
      value += text.slice(run, j);
      if (offsets) for (let k = run; k < j; k++) offsets.push(k);
    }
    if (j >= n || isLineBreak(text.charCodeAt(j))) {
      error = 'unterminated string: add the closing "';
      break;
    }
    const c = text.charCodeAt(j);
    if (c === 34) {
      j++;
      break;
    }
    if (c === 92 /* \ */) {
      // One offset per UTF-16 unit decoded so far (not per code point: a surrogate pair is two units).
      offsets ??= Array.from({ length: value.length }, (_, k) => start + 1 + k);
      const e = text[j + 1];
      const simple = e === undefined ? undefined : SIMPLE_ESCAPES.get(e);
      if (simple !== undefined) {
        value += simple;
        offsets.push(j);
        j += 2;
        continue;
      }
      if (e === "u" && /^[0-9A-Fa-f]{4}$/.test(text.slice(j + 2, j + 6))) {
        value += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
        offsets.push(j);
        j += 6;
        continue;
      }
      error ??= `unknown escape \\${e ?? ""}: use \\" \\\\ \\n \\t or \\uXXXX`;
      j += e === undefined ? 1 : 2;
      continue;
    }
  }
  push(T.String, start, j, value);
  const tok = tokens[tokens.length - 1];
  if (offsets) tok.offsets = offsets;
  if (error) tok.error = error;
  return j;
}

/** Document offset of the `index`-th UTF-16 unit of a string token's value. */
export function stringValueOffset(tok: { start: number; end: number; offsets?: number[] }, index: number): number {
  if (tok.offsets) return index < tok.offsets.length ? tok.offsets[index] : tok.end - 1;
  return tok.start + 1 + index;
}
