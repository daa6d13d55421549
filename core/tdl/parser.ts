/**
 * Error-recovering parser for TDL (`docs/language.md`). One broken member costs
 * that member only; a broken table costs nothing to the next one.
 */
import {
  DesignFile,
  EnumValue,
  Expr,
  IndexDecl,
  KeyDecl,
  Member,
  Modifier,
  MODIFIERS,
  Name,
  ParseResult,
  Part,
  Property,
  Table,
  TYPE_NAMES,
  TypeName,
  TypeNode,
  KEY_FUNCTIONS,
  KeyFunction,
  CallArg,
  Estimate,
  AccountDecl,
  EstimateKind,
} from "./ast";
import { lex, T } from "./lexer";
import { Cursor, ParseAbort } from "./cursor";
import { parseCount, parseDuration, parseInteger, parsePercent, parseSize } from "./numbers";
import { parseQuery, parseTransaction, parseWrite } from "./access-parser";
import { clip } from "../text/words";
import { isServiceName, SERVICE_NAMES, ServiceName } from "../services";

/**
 * Deepest nesting of key-function calls the parser accepts (`pad(pad(…))`).
 * Real keys nest two or three calls; the limit keeps every recursive walk
 * of a key (model, rules, hover) far from the stack's end.
 */
export const MAX_CALL_DEPTH = 64;

const MODIFIER_SET = new Set<string>(MODIFIERS);
const TYPE_SET = new Set<string>(TYPE_NAMES);
const FUNCTION_SET = new Set<string>(KEY_FUNCTIONS);

/** Parses a whole design. Never throws; every problem found is in `errors`. */
export function parse(text: string): ParseResult {
  return parseChunk(text, true, false);
}

/**
 * Parses one chunk of a design (`chunks.ts`): the head may hold `service`;
 * a chunk followed by another gets a sentinel `table` token at its end, so
 * that errors at its end read exactly as they do in a whole-file parse.
 */
export function parseChunk(text: string, head: boolean, followed: boolean): ParseResult {
  const { tokens, comments } = lex(text);
  if (followed) {
    const eof = tokens[tokens.length - 1];
    tokens.splice(tokens.length - 1, 0, { kind: T.Ident, start: text.length, end: text.length + 5, lineStart: true, value: "table" });
    eof.start = eof.end = text.length + 5;
  }
  const stop = followed ? tokens.length - 2 : tokens.length - 1;
  const c = new Cursor(tokens, comments);
  const file: DesignFile = { start: 0, end: text.length, tables: [] };

  if (head && c.isWord("service")) parseService(c, file);
  while (c.pos < stop) {
    if (c.isWord("table")) {
      file.tables.push(parseTable(c));
      continue;
    }
    const t = c.next();
    c.error(t.start, t.end, `expected 'table', found '${clip(t.value)}'`);
    while (c.pos < stop && !c.isWord("table")) c.next();
  }
  for (const cm of comments) {
    if (cm.block && !text.startsWith("*/", cm.end - 2)) c.error(cm.start, cm.start + 2, "unterminated comment: add the closing */");
  }
  c.errors.sort((a, b) => a.start - b.start);
  return { file, errors: c.errors };
}

/**
 * The service line a design's head declares (`service azure-table` before
 * any table), read with the parser's own rules from the first tokens only:
 * the analyzer needs the profile before it analyses the chunks. The name
 * may have any number of hyphenated pieces: the tokens are lexed in a
 * window that doubles until the name ends inside it, so the cost stays
 * linear in the name's length and no name falls out of the window.
 */
export function leadingServiceLine(text: string): DesignFile["service"] {
  for (let window = 8; ; window *= 2) {
    const { tokens, comments } = lex(text, window);
    const c = new Cursor(tokens, comments);
    if (!c.isWord("service")) return undefined;
    const file: DesignFile = { start: 0, end: text.length, tables: [] };
    parseService(c, file);
    // The name stops at the first two tokens that do not continue it (`-` and a piece); when they lie past the window, lex more.
    const cut = tokens.length - 1 >= window;
    if (!cut || c.pos + 1 < window) return file.service;
  }
}

/** The service a design's head declares, when it is a known one. */
export function leadingService(text: string): ServiceName | undefined {
  return leadingServiceLine(text)?.value;
}

function parseService(c: Cursor, file: DesignFile): void {
  const kw = c.next();
  const first = c.tok;
  if (first.kind !== T.Ident || first.lineStart) {
    c.error(first.start, first.end, `expected a service after 'service': ${SERVICE_NAMES.join(", ")}`);
    return;
  }
  // `azure-table` lexes as name, '-', name: glue adjacent pieces back together.
  let end = c.next().end;
  let text = first.value;
  while (c.is(T.Minus) && c.tok.start === end && c.peek().kind === T.Ident && c.peek().start === c.tok.end) {
    c.next();
    const part = c.next();
    text += "-" + part.value;
    end = part.end;
  }
  const value = isServiceName(text) ? text : undefined;
  const name: Name = { text, start: first.start, end };
  if (!value) c.error(first.start, end, `unknown service '${clip(text)}': expected ${SERVICE_NAMES.join(", ")}`);
  file.service = { name, value, start: kw.start, end };
}

function parseTable(c: Cursor): Table {
  const kw = c.next();
  const errorsBefore = c.errors.length;
  const table: Table = {
    kind: "table",
    name: { text: "", start: kw.end, end: kw.end },
    properties: [],
    indexes: [],
    accesses: [],
    members: [],
    hasSyntaxError: false,
    open: -1,
    close: -1,
    start: kw.start,
    end: kw.end,
  };
  try {
    table.name = c.expectName("a table name after 'table'");
    table.open = c.expect(T.LBrace, "'{' after the table name").start;
  } catch (e) {
    if (!(e instanceof ParseAbort)) throw e;
    // Without a name or `{`, carry on with members if they follow; else skip to the next table.
    if (c.is(T.LBrace)) table.open = c.next().start;
    else if (!c.atMemberBoundary()) {
      while (!c.is(T.EOF) && !c.isWord("table")) c.next();
      table.end = c.lastEnd;
      table.hasSyntaxError = true;
      return table;
    }
  }
  while (!c.is(T.EOF) && !c.is(T.RBrace) && !c.startsTable()) {
    const member = parseMember(c);
    if (member) addMember(c, table, member);
  }
  if (c.is(T.RBrace)) {
    table.close = c.tok.start;
    table.end = c.next().end;
  } else {
    c.error(c.tok.start, c.tok.end, `expected '}' to close table '${clip(table.name.text)}'`);
    table.end = c.lastEnd;
  }
  table.hasSyntaxError = c.errors.length > errorsBefore;
  return table;
}

function addMember(c: Cursor, table: Table, m: Member): void {
  table.members.push(m);
  switch (m.kind) {
    case "property":
      table.properties.push(m);
      break;
    case "index":
      table.indexes.push(m);
      break;
    case "query":
    case "write":
    case "transaction":
      table.accesses.push(m);
      break;
    case "key":
      if (table[m.which]) c.error(m.keyword.start, m.keyword.end, `'${m.which}' is declared twice; the first declaration counts`);
      else table[m.which] = m;
      break;
    case "estimate":
      if (table[m.which]) c.error(m.keyword.start, m.keyword.end, `'${m.which}' is declared twice; the first declaration counts`);
      else table[m.which] = m as Estimate;
      break;
    case "account":
      if (table.account) c.error(m.keyword.start, m.keyword.end, "'account' is declared twice; the first declaration counts");
      else table.account = m;
      break;
  }
}

/** Parses one member, or records an error and skips to the next member boundary. */
function parseMember(c: Cursor): Member | undefined {
  const start = c.pos;
  try {
    const member = parseMemberBody(c);
    if (!c.atMemberEnd()) c.fail("the end of the member (a new line with the next member, or '}')");
    return member;
  } catch (e) {
    if (!(e instanceof ParseAbort)) throw e;
    if (c.pos === start) c.next();
    c.syncToMember();
    return undefined;
  }
}

function parseMemberBody(c: Cursor): Member {
  const t = c.tok;
  if (t.kind === T.Ident && c.peek().kind === T.Colon) return parseProperty(c);
  if (t.kind === T.Ident) {
    switch (t.value) {
      case "partitionKey":
      case "rowKey":
        return parseKey(c);
      case "index":
        return parseIndex(c);
      case "rows":
      case "entitySize":
      case "retention":
        return parseEstimate(c);
      case "account":
        return parseAccount(c);
      case "query":
        return parseQuery(c);
      case "insert":
      case "upsert":
      case "update":
      case "merge":
      case "delete":
        return parseWrite(c);
      case "transaction":
        return parseTransaction(c);
    }
  }
  return c.fail(
    "a property ('Name: type'), 'partitionKey', 'rowKey', 'index', 'rows', 'entitySize', 'retention', 'account', or an access pattern",
  );
}

function parseProperty(c: Cursor): Property {
  const nameTok = c.next();
  const name: Name = { text: nameTok.value, start: nameTok.start, end: nameTok.end };
  c.next(); // ':'
  const property: Property = {
    kind: "property",
    name,
    modifiers: [],
    start: name.start,
    end: name.end,
    type: { name: "string", nameSpan: { start: name.end, end: name.end }, start: name.end, end: name.end, invalid: true },
  };
  try {
    property.type = parseType(c);
    while (c.tok.kind === T.Ident && MODIFIER_SET.has(c.tok.value) && !c.atMemberBoundary() && c.peek().kind !== T.Colon) {
      property.modifiers.push(parseModifier(c));
    }
  } catch (e) {
    // Keep the declaration (its name still counts for the name checks) and skip the rest.
    if (!(e instanceof ParseAbort)) throw e;
    c.syncToMember();
  }
  property.end = Math.max(name.end, c.lastEnd);
  return property;
}

function parseType(c: Cursor): TypeNode {
  const t = c.tok;
  if (t.kind !== T.Ident || !TYPE_SET.has(t.value)) c.fail(`a type (${TYPE_NAMES.join(", ")})`);
  c.next();
  const type: TypeNode = { name: t.value as TypeName, nameSpan: { start: t.start, end: t.end }, start: t.start, end: t.end };
  const hasArgs = c.is(T.LParen) && !c.tok.lineStart;
  if (type.name === "enum" && !hasArgs) c.fail("'(' with the enum's values");
  if (!hasArgs) return type;
  c.next();
  switch (type.name) {
    case "string":
      type.max = c.expectNumber("a maximum length", parseInteger);
      if (c.eat(T.DotDot)) {
        type.min = type.max;
        type.max = c.expectNumber("a maximum length", parseInteger);
      }
      break;
    case "int":
    case "int64":
      type.min = c.expectNumber("the lower bound of the range (lo..hi)", parseInteger);
      c.expect(T.DotDot, "'..' between the bounds");
      type.max = c.expectNumber("the upper bound of the range (lo..hi)", parseInteger);
      break;
    case "binary":
      type.size = c.expectNumber("a maximum size such as 1KiB", parseSize);
      break;
    case "enum":
      type.values = [parseEnumValue(c)];
      while (c.eat(T.Comma)) type.values.push(parseEnumValue(c));
      break;
    default:
      c.error(c.tok.start, c.tok.end, `type '${type.name}' takes no arguments`);
      while (!c.is(T.RParen) && !c.atMemberBoundary()) c.next();
  }
  type.end = c.expect(T.RParen, "')'").end;
  return type;
}

function parseEnumValue(c: Cursor): EnumValue {
  const t = c.tok;
  if (c.startsTable()) c.fail("an enum value (a name or a string)");
  if (t.kind === T.String) {
    c.next();
    c.stringLit(t);
    return { text: t.value, quoted: true, start: t.start, end: t.end };
  }
  if (t.kind === T.Ident || t.kind === T.Number) {
    c.next();
    return { text: t.value, quoted: false, start: t.start, end: t.end };
  }
  return c.fail("an enum value (a name or a string)");
}

function parseModifier(c: Cursor): Modifier {
  const kw = c.next();
  const start = kw.start;
  switch (kw.value) {
    case "distinct": {
      const count = c.expectNumber("a count after 'distinct'", parseCount);
      return { kind: "distinct", count, start, end: count.end };
    }
    case "hot": {
      const percent = c.expectNumber("a percentage after 'hot', such as 30%", parsePercent);
      const end = c.expect(T.Percent, "'%' after the percentage").end;
      return { kind: "hot", percent, start, end };
    }
    case "charset": {
      const chars = c.expectString("a string of allowed characters after 'charset', such as \"a-z0-9\"");
      return { kind: "charset", chars, start, end: chars.end };
    }
    default:
      return { kind: kw.value as "unique" | "increasing" | "decreasing", start, end: kw.end };
  }
}

function parseKey(c: Cursor): KeyDecl {
  const kw = c.next();
  c.expect(T.Equals, `'=' after '${kw.value}'`);
  const expr = parseExpr(c, true);
  return {
    kind: "key",
    which: kw.value as "partitionKey" | "rowKey",
    keyword: { start: kw.start, end: kw.end },
    expr,
    start: kw.start,
    end: expr.end,
  };
}

function parseIndex(c: Cursor): IndexDecl {
  const kw = c.next();
  const name = c.expectName("an index name after 'index'");
  if (!c.eatWord("rowKey")) c.fail("'rowKey' after the index name");
  c.expect(T.Equals, "'=' after 'rowKey'");
  const expr = parseExpr(c, true);
  return { kind: "index", name, expr, start: kw.start, end: expr.end };
}

function parseEstimate(c: Cursor): Estimate {
  const kw = c.next();
  const which = kw.value as EstimateKind;
  const value =
    which === "rows"
      ? c.expectNumber("a count after 'rows', such as 2M", parseCount)
      : which === "entitySize"
        ? c.expectNumber("a size after 'entitySize', such as 1KB", parseSize)
        : c.expectNumber("a duration after 'retention', such as 90d", parseDuration);
  return { kind: "estimate", which, keyword: { start: kw.start, end: kw.end }, value, start: kw.start, end: value.end };
}

function parseAccount(c: Cursor): AccountDecl {
  const kw = c.next();
  const name = c.expectName("an account name after 'account', such as 'account telemetry'");
  return { kind: "account", keyword: { start: kw.start, end: kw.end }, name, start: kw.start, end: name.end };
}

/**
 * `part ('+' part)*`. With `recover`, a broken part after the first keeps the
 * parts before it (so their names are still checked) and skips to the next member.
 */
export function parseExpr(c: Cursor, recover = false): Expr {
  const parts: Part[] = [];
  try {
    parts.push(parsePart(c));
    while (c.is(T.Plus)) {
      c.next();
      parts.push(parsePart(c));
    }
  } catch (e) {
    if (!(e instanceof ParseAbort) || !recover || !parts.length) throw e;
    c.syncToMember();
  }
  return { kind: "expr", parts, start: parts[0].start, end: parts[parts.length - 1].end };
}

function parsePart(c: Cursor): Part {
  const t = c.tok;
  if (t.kind === T.String) {
    c.next();
    return c.stringLit(t);
  }
  if (t.kind === T.Ident && !c.startsMember(t, c.pos) && !c.startsTable()) {
    c.next();
    const name: Name = { text: t.value, start: t.start, end: t.end };
    if (!c.is(T.LParen)) return { kind: "ref", name, start: t.start, end: t.end };
    if (!FUNCTION_SET.has(t.value)) {
      c.error(t.start, t.end, `unknown key function '${clip(t.value)}': expected ${KEY_FUNCTIONS.join(", ")}`);
    }
    if (c.depth >= MAX_CALL_DEPTH) {
      c.error(t.start, t.end, `key expression nested deeper than ${MAX_CALL_DEPTH} calls: a key needs a few at most; flatten it`);
      throw new ParseAbort();
    }
    c.next();
    c.depth++;
    try {
      const args: CallArg[] = [];
      if (!c.is(T.RParen)) {
        args.push(parseArg(c, 0));
        while (c.eat(T.Comma)) args.push(parseArg(c, args.length));
      }
      const end = c.expect(T.RParen, `')' to close '${clip(t.value)}('`).end;
      const fnName = FUNCTION_SET.has(t.value) ? (t.value as KeyFunction) : undefined;
      return { kind: "call", fn: name, fnName, args, start: t.start, end };
    } finally {
      c.depth--;
    }
  }
  return c.fail('a key part: a property name, a "string" or a function such as pad(P, 5)');
}

function parseArg(c: Cursor, index: number): CallArg {
  const t = c.tok;
  if (t.kind === T.Number) return c.expectNumber("a number", parseInteger);
  const after = c.peek().kind;
  if (index > 0 && t.kind === T.String && (after === T.RParen || after === T.Comma)) return c.expectString("a string");
  return parseExpr(c);
}
