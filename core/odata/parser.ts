/**
 * Parser for the OData `$filter` subset of `docs/language.md`: comparisons,
 * bare Boolean properties and literals, `and`, `or`, `not`, parentheses and
 * typed literals, with positions and messages that say what was expected
 * where.
 *
 * Precedence is the service's: `not` binds tighter than a comparison, which
 * binds tighter than `and`, then `or` — so `not IsActive eq true` is
 * `(not IsActive) eq true`, and `not A eq 'x'` is an error that says to
 * write `not (A eq 'x')`.
 *
 * Bounded work on any input: nesting (parentheses and `not`) stops at
 * MAX_FILTER_DEPTH with a clear error, and a run of `and` (or `or`) becomes
 * a balanced tree, so the tree is never deeper than about MAX_FILTER_DEPTH ×
 * log2(terms) and every consumer may recurse over it.
 */
import { clipVisible } from "../text/words";
import { lexOData, ODataToken, ODataTokenKind } from "./lexer";
import { literalProblem } from "./literals";

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
  | { kind: "not"; expr: FilterExpr; start: number; end: number }
  /** A bare Boolean property (`IsActive`): true where the property is true. `propStart`/`propEnd`: the name, without parentheses. */
  | { kind: "prop"; property: string; propStart: number; propEnd: number; start: number; end: number }
  /** `true` or `false` standing alone as a condition. */
  | { kind: "const"; value: boolean; start: number; end: number };

export interface FilterError {
  message: string;
  start: number;
  end: number;
}

export type FilterParse = { ok: true; expr: FilterExpr } | { ok: false; error: FilterError };

/** Parentheses and `not`s a filter may nest. */
export const MAX_FILTER_DEPTH = 100;

const COMPARE = new Set(["eq", "ne", "gt", "ge", "lt", "le"]);
const KEYWORDS = new Set([...COMPARE, "and", "or", "not"]);
const MIRROR: Record<CompareOp, CompareOp> = { eq: "eq", ne: "ne", gt: "lt", ge: "le", lt: "gt", le: "ge" };
const LITERAL_KINDS = new Set<ODataTokenKind>(["string", "int", "int64", "double", "bool", "datetime", "guid", "binary"]);
/** System properties that are never Boolean, with an example comparison. */
const NOT_BOOLEAN: Record<string, string> = {
  PartitionKey: "a string: compare it, such as PartitionKey eq 'a'",
  RowKey: "a string: compare it, such as RowKey eq '1'",
  Timestamp: "a date-time: compare it, such as Timestamp ge datetime'2026-01-01T00:00:00Z'",
};

/** What a unary position produced: a name or literal token (a comparison may follow), or a condition. */
type Operand = { kind: "token"; tok: ODataToken } | { kind: "expr"; expr: FilterExpr };

class FilterSyntaxError extends Error {
  constructor(readonly error: FilterError) {
    super(error.message);
  }
}

/** Joins terms into a balanced tree (`and`/`or` are associative), so a long run stays shallow. */
function balance(kind: "and" | "or", items: FilterExpr[]): FilterExpr {
  while (items.length > 1) {
    const next: FilterExpr[] = [];
    for (let k = 0; k + 1 < items.length; k += 2)
      next.push({ kind, left: items[k], right: items[k + 1], start: items[k].start, end: items[k + 1].end });
    if (items.length % 2) next.push(items[items.length - 1]);
    items = next;
  }
  return items[0];
}

/** Parses a filter; on failure returns the first error with its position in the filter text. Never throws. */
export function parseFilter(src: string): FilterParse {
  const toks = lexOData(src);
  let i = 0;
  const tok = () => toks[i];
  const failAt = (start: number, end: number, message: string): never => {
    throw new FilterSyntaxError({ message, start, end });
  };
  const fail = (t: ODataToken, message: string): never =>
    // A token the lexer could not read explains itself better than what was expected there.
    failAt(t.start, Math.max(t.end, t.start + (t.kind === "eof" ? 0 : 1)), t.kind === "error" && t.error ? t.error : message);
  /** A token as messages quote it; quoted literals already carry their quotes. */
  const describe = (t: ODataToken) => {
    if (t.kind === "eof") return "the end of the filter";
    const text = clipVisible(src.slice(t.start, t.end));
    return text.endsWith("'") || text.endsWith("'…") ? text : `'${text}'`;
  };
  const isWord = (t: ODataToken, w: string) => t.kind === "name" && t.text === w;
  const isCompare = (t: ODataToken) => t.kind === "name" && COMPARE.has(t.text);
  /** Tokens after which a term is complete. */
  const endsTerm = (t: ODataToken) => t.kind === "eof" || t.kind === "rparen" || isWord(t, "and") || isWord(t, "or");
  const enter = (t: ODataToken, depth: number) => {
    if (depth >= MAX_FILTER_DEPTH) {
      fail(
        t,
        `the filter nests deeper than ${MAX_FILTER_DEPTH} levels of parentheses and 'not': simplify it (the Table service also allows at most 15 comparisons in one filter)`,
      );
    }
  };

  const chain =
    (word: "and" | "or", next: (depth: number) => FilterExpr) =>
    (depth: number): FilterExpr => {
      const items = [next(depth)];
      while (isWord(tok(), word)) {
        i++;
        items.push(next(depth));
      }
      return balance(word, items);
    };
  const parseAnd = chain("and", (depth) => parseComparison(depth));
  const parseOr = chain("or", parseAnd);

  const parseComparison = (depth: number): FilterExpr => {
    const left = parseUnary(depth);
    const opTok = tok();
    if (!isCompare(opTok)) return condition(left, opTok);
    i++;
    return compare(left, opTok, parseUnary(depth));
  };

  const parseUnary = (depth: number): Operand => {
    const t = tok();
    if (isWord(t, "not")) {
      enter(t, depth);
      i++;
      const next = tok();
      if (!(
        next.kind === "lparen" ||
        next.kind === "error" ||
        LITERAL_KINDS.has(next.kind) ||
        (next.kind === "name" && (!KEYWORDS.has(next.text) || next.text === "not"))
      )) {
        fail(
          next,
          `expected a condition after 'not' (a Boolean property, true, false or a parenthesised condition), found ${describe(next)}`,
        );
      }
      const inner = parseUnary(depth + 1);
      const after = tok();
      const right = toks[i + 1];
      if (isCompare(after) && right.kind !== "bool") {
        const shown = (t: ODataToken) => (t.kind === "name" || LITERAL_KINDS.has(t.kind) ? clipVisible(src.slice(t.start, t.end)) : "…");
        const from = inner.kind === "token" ? inner.tok.start : inner.expr.start;
        const x = clipVisible(
          src
            .slice(from, Math.min(after.start, from + 100))
            .replace(/\s+/g, " ")
            .trim(),
        );
        failAt(
          t.start,
          t.end,
          `'not' applies only to the term right after it, so this reads as (not ${x}) ${after.text} ${shown(right)}: to negate the comparison, write not (${x} ${after.text} ${shown(right)})`,
        );
      }
      const expr = condition(inner, after);
      return { kind: "expr", expr: { kind: "not", expr, start: t.start, end: expr.end } };
    }
    if (t.kind === "lparen") {
      enter(t, depth);
      i++;
      const inner = parseOr(depth + 1);
      const close = tok();
      if (close.kind !== "rparen") fail(close, `expected ')' to close the '(' at ${t.start + 1}, found ${describe(close)}`);
      i++;
      return { kind: "expr", expr: { ...inner, start: t.start, end: close.end } };
    }
    if (t.error) fail(t, t.error);
    if ((t.kind === "name" && !KEYWORDS.has(t.text)) || LITERAL_KINDS.has(t.kind)) {
      const problem = literalProblem(t);
      if (problem) fail(t, problem);
      i++;
      return { kind: "token", tok: t };
    }
    return fail(t, `expected a property name or a literal, found ${describe(t)}`);
  };

  /** An operand standing as a condition by itself; `next` is the token after it. */
  const condition = (o: Operand, next: ODataToken): FilterExpr => {
    if (o.kind === "expr") return o.expr;
    const t = o.tok;
    const ops = "a comparison operator (eq, ne, gt, ge, lt, le)";
    const expectOp = `expected ${ops} after ${describe(t)}`;
    if (t.kind === "bool") return { kind: "const", value: t.text === "true", start: t.start, end: t.end };
    if (t.kind === "name") {
      const notBoolean = NOT_BOOLEAN[t.text];
      if (notBoolean && isCompare(next)) return fail(t, `'not' needs a condition, and ${t.text} is ${notBoolean}`);
      if (notBoolean) return fail(next, `${expectOp}, found ${describe(next)}: ${t.text} is ${notBoolean}`);
      if (endsTerm(next) || isCompare(next))
        return { kind: "prop", property: t.text, propStart: t.start, propEnd: t.end, start: t.start, end: t.end };
      return fail(next, `expected ${ops}, 'and', 'or' or the end of the filter after ${describe(t)}, found ${describe(next)}`);
    }
    const text = clipVisible(src.slice(t.start, t.end));
    if (endsTerm(next) || isCompare(next))
      return fail(t, `${text} alone is not a condition: compare a property with it, such as Name eq ${text}`);
    return fail(next, `${expectOp}, found ${describe(next)}`);
  };

  const compare = (left: Operand, opTok: ODataToken, right: Operand): FilterExpr => {
    const op = opTok.text as CompareOp;
    if (left.kind === "token" && right.kind === "token") {
      const [l, r] = [left.tok, right.tok];
      if (l.kind === "name" && r.kind === "name")
        return fail(r, "comparing two properties is not supported by the Table service: compare a property with a literal");
      if (l.kind !== "name" && r.kind !== "name") return fail(l, "a comparison needs a property name on one side");
      const [prop, lit, dir] = l.kind === "name" ? [l, r, op] : [r, l, MIRROR[op]];
      return {
        kind: "cmp",
        property: prop.text,
        propStart: prop.start,
        propEnd: prop.end,
        op: dir,
        value: { type: lit.kind as LiteralType, value: lit.text, start: lit.start, end: lit.end },
        start: l.start,
        end: r.end,
      };
    }
    if (left.kind === "expr" && right.kind === "expr")
      return fail(opTok, "comparing two conditions is not supported: combine them with 'and' or 'or'");
    // A condition compared with a literal: only `eq`/`ne` with true or false, which keep or negate it.
    const cond = left.kind === "expr" ? left.expr : (right as Extract<Operand, { kind: "expr" }>).expr;
    const other = left.kind === "token" ? left.tok : (right as Extract<Operand, { kind: "token" }>).tok;
    const shown = clipVisible(src.slice(cond.start, cond.end));
    if (other.kind !== "bool") return fail(other, `'${shown}' is a condition: compare it only with true or false, or use it as it is`);
    if (op !== "eq" && op !== "ne") return fail(opTok, `only eq and ne compare a condition with ${other.text}`);
    const start = Math.min(cond.start, other.start);
    const end = Math.max(cond.end, other.end);
    const keeps = (op === "eq") === (other.text === "true");
    return keeps ? { ...cond, start, end } : { kind: "not", expr: cond, start, end };
  };

  try {
    if (tok().kind === "eof") fail(tok(), "the filter is empty: write a condition such as PartitionKey eq 'a'");
    const expr = parseOr(0);
    const t = tok();
    if (t.kind === "rparen") fail(t, "this ')' closes no '(': remove it");
    if (t.kind !== "eof") fail(t, `expected 'and', 'or' or the end of the filter, found ${describe(t)}`);
    return { ok: true, expr };
  } catch (e) {
    if (e instanceof FilterSyntaxError) return { ok: false, error: e.error };
    throw e;
  }
}
