/**
 * How much of a listing the code reads: all of it, or a bounded number of
 * entities — a `for await` loop that leaves after the first entity or once
 * it holds N (`if (items.length >= 200) break`), one `.next()` of the
 * iterator, or one page of `byPage({ maxPageSize: N })`. Without a filter,
 * such a read is the table's first entities, one request: a probe, not a
 * scan. (With a filter that does not pin the partition, finding N matches
 * may still read every partition, so only listings without one are probes.)
 */
import ts from "typescript";
import { skipOuter } from "./key-parts";

/** Past this, a bound is no probe: a page holds at most 1,000 entities. */
export const PROBE_MAX = 1000;

/** The most entities the code reads of the listing `call` returns, when it is bounded; undefined when it reads them all. */
export function readBound(checker: ts.TypeChecker, call: ts.CallExpression): number | undefined {
  // Listed again in a loop (page after page, a continuation token carried over): the reads add up.
  if (inLoop(call)) return undefined;
  const use = consumer(call);
  if (!use) return undefined;
  if (ts.isForOfStatement(use.parent) && use.parent.expression === use) return loopBound(checker, use.parent);
  // `it.next()` (or `listing.byPage(…).next()`) once, never in a loop: one entity, or one page.
  if (ts.isPropertyAccessExpression(use.parent) && use.parent.expression === use) return onceBound(checker, use.parent);
  if (ts.isVariableDeclaration(use.parent) && ts.isIdentifier(use.parent.name) && use.parent.initializer === use) {
    const sym = checker.getSymbolAtLocation(use.parent.name);
    const refs = sym ? references(checker, use.parent, sym) : [];
    if (refs.length !== 1) return undefined;
    return readBoundOf(checker, refs[0]);
  }
  return undefined;
}

/** The same question for a reference to the listing held in a variable. */
function readBoundOf(checker: ts.TypeChecker, ref: ts.Identifier): number | undefined {
  const use = consumer(ref);
  if (ts.isForOfStatement(use.parent) && use.parent.expression === use) return loopBound(checker, use.parent);
  if (ts.isPropertyAccessExpression(use.parent) && use.parent.expression === use) return onceBound(checker, use.parent);
  return undefined;
}

/** The expression that stands for the listing (through parentheses, `as`, `!`). */
function consumer(e: ts.Expression): ts.Expression {
  let n: ts.Expression = e;
  while (ts.isParenthesizedExpression(n.parent) || ts.isAsExpression(n.parent) || ts.isNonNullExpression(n.parent)) n = n.parent;
  return n;
}

/** `.next()` called once, or `.byPage({ maxPageSize: N }).next()`: 1 entity, or N. */
function onceBound(checker: ts.TypeChecker, access: ts.PropertyAccessExpression): number | undefined {
  const call = access.parent;
  if (!ts.isCallExpression(call) || call.expression !== access || inLoop(call)) return undefined;
  if (access.name.text === "next") return 1;
  if (access.name.text !== "byPage") return undefined;
  const size = pageSize(checker, call);
  const next = call.parent;
  return size !== undefined && ts.isPropertyAccessExpression(next) && next.name.text === "next" && !inLoop(call) ? size : undefined;
}

/** `byPage({ maxPageSize: N })`'s N, when a number is in sight. */
function pageSize(checker: ts.TypeChecker, call: ts.CallExpression): number | undefined {
  const arg = call.arguments[0] && skipOuter(call.arguments[0]);
  if (!arg || !ts.isObjectLiteralExpression(arg)) return undefined;
  // A page after a continuation token goes on with a listing begun elsewhere: a page of a scan, not the first page.
  if (arg.properties.some((x) => x.name?.getText() === "continuationToken" || ts.isSpreadAssignment(x))) return undefined;
  const p = arg.properties.find((x): x is ts.PropertyAssignment => ts.isPropertyAssignment(x) && x.name.getText() === "maxPageSize");
  return p ? numberOf(checker, p.initializer) : undefined;
}

/**
 * A `for await` over the listing that always leaves on its first entity (its body ends in an unconditional
 * `break` or `return`), or once a count reaches N: `if (x.length >= N) break` / `if (++n > N) return`; never one that
 * `continue`s, since what it counts is then not what it reads.
 */
function loopBound(checker: ts.TypeChecker, loop: ts.ForOfStatement): number | undefined {
  const body = ts.isBlock(loop.statement) ? loop.statement.statements : [loop.statement];
  const last = body[body.length - 1];
  // A loop that skips entities (`continue` past a client-side check) reads an unknown number of them, whatever it keeps.
  if (continues(loop.statement)) return undefined;
  if (last && leaves(last, loop)) return 1;
  let bound: number | undefined;
  const visit = (n: ts.Node): void => {
    if (bound !== undefined || ts.isFunctionLike(n) || (n !== loop.statement && ts.isIterationStatement(n, false))) return;
    if (ts.isIfStatement(n) && leaves(n.thenStatement, loop)) bound = capOf(checker, n.expression);
    ts.forEachChild(n, visit);
  };
  visit(loop.statement);
  return bound !== undefined && bound <= PROBE_MAX ? bound : undefined;
}

/** `a >= N`, `a > N`, `a === N` (and `N <= a`…): the count at which the condition holds. */
function capOf(checker: ts.TypeChecker, cond: ts.Expression): number | undefined {
  const c = skipOuter(cond);
  if (!ts.isBinaryExpression(c)) return undefined;
  const op = c.operatorToken.kind;
  const right = numberOf(checker, c.right);
  const left = numberOf(checker, c.left);
  if (right !== undefined && (op === ts.SyntaxKind.GreaterThanEqualsToken || op === ts.SyntaxKind.EqualsEqualsEqualsToken)) return right;
  if (right !== undefined && op === ts.SyntaxKind.GreaterThanToken) return right + 1;
  if (left !== undefined && (op === ts.SyntaxKind.LessThanEqualsToken || op === ts.SyntaxKind.EqualsEqualsEqualsToken)) return left;
  if (left !== undefined && op === ts.SyntaxKind.LessThanToken) return left + 1;
  return undefined;
}

/** A number literal, or a `const` holding one. */
function numberOf(checker: ts.TypeChecker, e: ts.Expression): number | undefined {
  const x = skipOuter(e);
  if (ts.isNumericLiteral(x)) return Number(x.text);
  if (!ts.isIdentifier(x)) return undefined;
  const decl = checker.getSymbolAtLocation(x)?.valueDeclaration;
  const init = decl && ts.isVariableDeclaration(decl) && ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const ? decl.initializer : undefined;
  return init && ts.isNumericLiteral(skipOuter(init)) ? Number((skipOuter(init) as ts.NumericLiteral).text) : undefined;
}

/** A statement that always leaves `loop`: `break` (of this loop), `return`, `throw`, or a block ending in one. */
function leaves(s: ts.Statement, loop: ts.IterationStatement): boolean {
  if (ts.isReturnStatement(s) || ts.isThrowStatement(s)) return true;
  if (ts.isBreakStatement(s)) return !s.label || (ts.isLabeledStatement(loop.parent) && loop.parent.label.text === s.label.text);
  return ts.isBlock(s) && s.statements.length > 0 && leaves(s.statements[s.statements.length - 1], loop);
}

/** True when a loop's body has a `continue` of its own (it may then go past its first entity). */
function continues(body: ts.Statement): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || ts.isFunctionLike(n) || ts.isIterationStatement(n, false)) return;
    if (ts.isContinueStatement(n)) found = true;
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** True when a node runs again and again: in a loop's body or test (not in the list a `for…of` walks, which runs once). */
function inLoop(n: ts.Node): boolean {
  let c: ts.Node = n;
  for (let p = n.parent; p && !ts.isFunctionLike(p); c = p, p = p.parent) {
    if ((ts.isForOfStatement(p) || ts.isForInStatement(p)) && p.expression === c) continue;
    if (ts.isIterationStatement(p, false)) return true;
  }
  return false;
}

/** The references to `sym` in the function (or file) around its declaration, the declaration's name excluded. */
function references(checker: ts.TypeChecker, decl: ts.VariableDeclaration, sym: ts.Symbol): ts.Identifier[] {
  let scope: ts.Node = decl;
  while (scope.parent && !ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) scope = scope.parent;
  const out: ts.Identifier[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && n !== decl.name && n.text === sym.name && checker.getSymbolAtLocation(n) === sym) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(scope);
  return out;
}
