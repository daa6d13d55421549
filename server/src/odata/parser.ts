/**
 * Parser for the OData `$filter` subset of `language.md`: comparisons,
 * `and`, `or`, `not`, parentheses and typed literals, with positions and
 * messages that say what was expected where.
 */
import { lexOData, ODataToken, ODataTokenKind } from "./lexer";

export type CompareOp = "eq" | "ne" | "gt" | "ge" | "lt" | "le";
export type LiteralType = "string" | "int" | "int64" | "double" | "bool" | "datetime" | "guid" | "binary";

export interface Literal {
  type: LiteralType;
  /** The decoded value as text (`'it''s'` → `it's`). */
  value: string;
  start: number;
  end: number;
}

export type FilterExpr =
  | { kind: "cmp"; property: string; propStart: number; propEnd: number; op: CompareOp; value: Literal; start: number; end: number }
  | { kind: "and" | "or"; left: FilterExpr; right: FilterExpr; start: number; end: number }
  | { kind: "not"; expr: FilterExpr; start: number; end: number };

export interface FilterError {
  message: string;
  start: number;
  end: number;
}

export type FilterParse = { ok: true; expr: FilterExpr } | { ok: false; error: FilterError };

const COMPARE = new Set(["eq", "ne", "gt", "ge", "lt", "le"]);
const MIRROR: Record<CompareOp, CompareOp> = { eq: "eq", ne: "ne", gt: "lt", ge: "le", lt: "gt", le: "ge" };
const LITERAL_KINDS = new Set<ODataTokenKind>(["string", "int", "int64", "double", "bool", "datetime", "guid", "binary"]);

class FilterSyntaxError extends Error {
  constructor(readonly error: FilterError) {
    super(error.message);
  }
}

/** Parses a filter; on failure returns the first error with its position in the filter text. */
export function parseFilter(src: string): FilterParse {
  const toks = lexOData(src);
  let i = 0;
  const tok = () => toks[i];
  const fail = (t: ODataToken, message: string): never => {
    // A token the lexer could not read explains itself better than what was expected there.
    if (t.kind === "error" && t.error) message = t.error;
    throw new FilterSyntaxError({ message, start: t.start, end: Math.max(t.end, t.start + (t.kind === "eof" ? 0 : 1)) });
  };
  const describe = (t: ODataToken) => (t.kind === "eof" ? "the end of the filter" : `'${src.slice(t.start, t.end)}'`);
  const isWord = (t: ODataToken, w: string) => t.kind === "name" && t.text === w;

  /** `next (word next)*`, left-associative: `or` over `and` over unary. */
  const binary = (word: "and" | "or", next: () => FilterExpr) => (): FilterExpr => {
    let left = next();
    while (isWord(tok(), word)) {
      i++;
      const right = next();
      left = { kind: word, left, right, start: left.start, end: right.end };
    }
    return left;
  };
  const parseAnd = (): FilterExpr => binary("and", parseUnary)();
  const parseOr = (): FilterExpr => binary("or", parseAnd)();
  const parseUnary = (): FilterExpr => {
    const t = tok();
    if (isWord(t, "not")) {
      i++;
      const expr = parseUnary();
      return { kind: "not", expr, start: t.start, end: expr.end };
    }
    if (t.kind === "lparen") {
      i++;
      const inner = parseOr();
      const close = tok();
      if (close.kind !== "rparen") fail(close, `expected ')' to close the '(' at ${t.start + 1}, found ${describe(close)}`);
      i++;
      return { ...inner, start: t.start, end: close.end };
    }
    return parseComparison();
  };
  const operand = (): ODataToken => {
    const t = tok();
    if (t.error) fail(t, t.error);
    if (t.kind === "name" && !COMPARE.has(t.text) && !["and", "or", "not"].includes(t.text)) { i++; return t; }
    if (LITERAL_KINDS.has(t.kind)) { i++; validateLiteral(t, fail); return t; }
    return fail(t, `expected a property name or a literal, found ${describe(t)}`);
  };
  const parseComparison = (): FilterExpr => {
    const left = operand();
    const opTok = tok();
    if (!(opTok.kind === "name" && COMPARE.has(opTok.text))) {
      return fail(opTok, `expected a comparison operator (eq, ne, gt, ge, lt, le) after ${describe(left)}, found ${describe(opTok)}`);
    }
    i++;
    const right = operand();
    let op = opTok.text as CompareOp;
    let prop = left;
    let lit = right;
    if (left.kind === "name" && right.kind === "name") fail(right, "comparing two properties is not supported by the Table service: compare a property with a literal");
    if (left.kind !== "name" && right.kind !== "name") fail(left, "a comparison needs a property name on one side");
    if (left.kind !== "name") { prop = right; lit = left; op = MIRROR[op]; }
    return {
      kind: "cmp", property: prop.text, propStart: prop.start, propEnd: prop.end, op,
      value: { type: lit.kind as LiteralType, value: lit.text, start: lit.start, end: lit.end },
      start: left.start, end: right.end,
    };
  };

  try {
    if (tok().kind === "eof") fail(tok(), "the filter is empty: write a condition such as PartitionKey eq 'a'");
    const expr = parseOr();
    if (tok().kind !== "eof") fail(tok(), `expected 'and', 'or' or the end of the filter, found ${describe(tok())}`);
    return { ok: true, expr };
  } catch (e) {
    if (e instanceof FilterSyntaxError) return { ok: false, error: e.error };
    throw e;
  }
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})$/;
const GUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

function validateLiteral(t: ODataToken, fail: (t: ODataToken, m: string) => never): void {
  if (t.kind === "datetime" && (!ISO_DATETIME.test(t.text) || Number.isNaN(Date.parse(t.text)))) {
    fail(t, `datetime'${t.text}' is not an ISO 8601 date-time such as datetime'2026-01-01T00:00:00Z'`);
  }
  if (t.kind === "guid" && !GUID.test(t.text)) fail(t, `guid'${t.text}' is not a GUID such as guid'0f8fad5b-d9cb-469f-a165-70867728950e'`);
  if (t.kind === "binary" && !/^([0-9A-Fa-f]{2})*$/.test(t.text)) fail(t, `X'${t.text}' is not hexadecimal bytes such as X'0a1b'`);
  if (t.kind === "int" && (Number(t.text) > 2147483647 || Number(t.text) < -2147483648)) fail(t, `${t.text} does not fit a 32-bit integer: add the L suffix (${t.text}L) for int64`);
}
