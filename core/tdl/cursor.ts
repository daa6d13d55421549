/**
 * Token cursor shared by the parser's pieces: lookahead, expectations that
 * record errors instead of throwing, and the member-boundary test that drives
 * error recovery.
 */
import { Comment, T, Token } from "./lexer";
import { MEMBER_KEYWORDS, Name, NumberLit, StringLit, SyntaxError } from "./ast";
import { Interpreted } from "./numbers";
import { clip } from "../text/words";

const MEMBER_SET = new Set<string>(MEMBER_KEYWORDS);

const TOKEN_NAMES: Partial<Record<T, string>> = {
  [T.LBrace]: "'{'",
  [T.RBrace]: "'}'",
  [T.LParen]: "'('",
  [T.RParen]: "')'",
  [T.Colon]: "':'",
  [T.Comma]: "','",
  [T.Equals]: "'='",
  [T.Plus]: "'+'",
  [T.Slash]: "'/'",
  [T.Percent]: "'%'",
  [T.DotDot]: "'..'",
  [T.Ident]: "a name",
  [T.String]: "a string",
  [T.Number]: "a number",
};

export class ParseAbort extends Error {}

export class Cursor {
  pos = 0;
  /** Key-function calls open around the current token (bounded by the parser's MAX_CALL_DEPTH). */
  depth = 0;
  readonly errors: SyntaxError[] = [];

  constructor(
    readonly tokens: Token[],
    readonly comments: Comment[],
  ) {}

  get tok(): Token {
    return this.tokens[this.pos];
  }

  peek(k = 1): Token {
    return this.tokens[Math.min(this.pos + k, this.tokens.length - 1)];
  }

  next(): Token {
    const t = this.tokens[this.pos];
    if (t.kind !== T.EOF) this.pos++;
    return t;
  }

  /** End offset of the last consumed token. */
  get lastEnd(): number {
    return this.pos > 0 ? this.tokens[this.pos - 1].end : 0;
  }

  is(kind: T): boolean {
    return this.tok.kind === kind;
  }

  isWord(word: string, t: Token = this.tok): boolean {
    return t.kind === T.Ident && t.value === word;
  }

  eat(kind: T): Token | undefined {
    return this.is(kind) ? this.next() : undefined;
  }

  eatWord(word: string): Token | undefined {
    return this.isWord(word) ? this.next() : undefined;
  }

  /** Records an error, once per offset, so one mistake yields one message. */
  error(start: number, end: number, message: string): void {
    const last = this.errors[this.errors.length - 1];
    if (last && last.start === start) return;
    this.errors.push({ start, end, message });
  }

  /** Records "expected X, found Y" at the current token and aborts the member. */
  fail(expected: string): never {
    const t = this.tok;
    const found = t.kind === T.EOF ? "the end of the file" : `'${clip(t.value)}'`;
    this.error(t.start, t.end, `expected ${expected}, found ${found}`);
    throw new ParseAbort();
  }

  expect(kind: T, what = TOKEN_NAMES[kind] ?? "a token"): Token {
    if (this.is(kind)) return this.next();
    return this.fail(what);
  }

  expectName(what: string): Name {
    const t = this.tok;
    if (t.kind === T.Ident && !this.startsMember(t, this.pos) && !this.startsTable()) {
      this.next();
      return { text: t.value, start: t.start, end: t.end };
    }
    return this.fail(what);
  }

  /** Reads a number token and interprets it; a misfit is reported, the literal kept as NaN. */
  expectNumber(what: string, interpret: (raw: string) => Interpreted): NumberLit {
    const t = this.tok;
    if (t.kind !== T.Number) return this.fail(what);
    this.next();
    const r = interpret(t.value);
    if (r.error) this.error(t.start, t.end, r.error);
    return { start: t.start, end: t.end, value: r.value, raw: t.value };
  }

  expectString(what: string): StringLit {
    const t = this.tok;
    if (t.kind !== T.String) return this.fail(what);
    this.next();
    return this.stringLit(t);
  }

  stringLit(t: Token): StringLit {
    if (t.error) this.error(t.start, t.end, t.error);
    const lit: StringLit = { kind: "string", value: t.value, start: t.start, end: t.end };
    if (t.offsets) lit.offsets = t.offsets;
    return lit;
  }

  /**
   * True where a new member begins: at the start of a line, a member keyword
   * not followed by `:`, or a name followed by `:` (a property).
   */
  startsMember(t: Token, index: number): boolean {
    if (!t.lineStart || t.kind !== T.Ident) return false;
    const colon = this.tokens[index + 1]?.kind === T.Colon;
    return colon || MEMBER_SET.has(t.value);
  }

  /** The current token ends the current member (a new member, `}`, `table` or the end). */
  atMemberBoundary(): boolean {
    const t = this.tok;
    return t.kind === T.EOF || t.kind === T.RBrace || this.startsTable() || this.startsMember(t, this.pos);
  }

  /** Like `atMemberBoundary`, but also accepts a member keyword or `Name:` in the middle of a line. */
  atMemberEnd(): boolean {
    if (this.atMemberBoundary()) return true;
    const t = this.tok;
    if (t.kind !== T.Ident) return false;
    return this.peek().kind === T.Colon || MEMBER_SET.has(t.value);
  }

  startsTable(): boolean {
    return this.isWord("table") && this.peek().kind !== T.Colon && this.tok.lineStart;
  }

  /** Skips to the next member boundary (error recovery). */
  syncToMember(): void {
    while (!this.atMemberBoundary()) this.next();
  }
}
