/**
 * What a function of the program returns, read from its body: every
 * `return` expression (an arrow's expression body is one), and whether it
 * can also end with nothing (a bare `return;`, or a body whose end is
 * reachable).
 */
import ts from "typescript";

/**
 * Every `return` expression of a function; undefined for a declaration without a body. With
 * `withNothing`, a bare `return;` and a reachable end of the body are `undefined` entries (the
 * function may return nothing); without it, a function that may return nothing gives undefined.
 */
export function returnedExpressions(decl: ts.SignatureDeclaration, withNothing: true): Array<ts.Expression | undefined> | undefined;
export function returnedExpressions(decl: ts.SignatureDeclaration, withNothing?: false): ts.Expression[] | undefined;
export function returnedExpressions(decl: ts.SignatureDeclaration, withNothing = false): Array<ts.Expression | undefined> | undefined {
  const body = (decl as ts.FunctionLikeDeclaration).body;
  if (!body) return undefined;
  if (!ts.isBlock(body)) return [body];
  const out: Array<ts.Expression | undefined> = [];
  let bare = false;
  const visit = (n: ts.Node): void => {
    if (ts.isReturnStatement(n)) {
      if (n.expression) out.push(n.expression);
      else bare = true;
    } else if (
      ts.isBlock(n) ||
      (ts.isStatement(n) && !ts.isFunctionLike(n) && !ts.isClassLike(n)) ||
      ts.isCaseBlock(n) ||
      ts.isCaseOrDefaultClause(n) ||
      ts.isCatchClause(n)
    )
      // Statements only: a return is never inside an expression (outside a nested function), and expressions can be 5,000 deep.
      ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  if (!withNothing) return bare ? undefined : (out as ts.Expression[]);
  if (bare || !exits(body)) out.push(undefined);
  return out;
}

/** True when control cannot reach the end of the statement (it returns or throws on every path we can see). */
export function exits(s: ts.Statement): boolean {
  if (ts.isReturnStatement(s) || ts.isThrowStatement(s)) return true;
  if (ts.isBlock(s)) return s.statements.length > 0 && exits(s.statements[s.statements.length - 1]);
  if (ts.isIfStatement(s)) return !!s.elseStatement && exits(s.thenStatement) && exits(s.elseStatement);
  if (ts.isTryStatement(s))
    return s.finallyBlock && exits(s.finallyBlock) ? true : exits(s.tryBlock) && (!s.catchClause || exits(s.catchClause.block));
  return false;
}
