/**
 * Small helpers over TypeScript's syntax that every part of the analysis
 * uses: the expression under parentheses and type assertions, and the
 * variable an identifier names.
 */
import ts from "typescript";

/** The variable an identifier names; in `{ filter }` shorthand, the variable rather than the property. */
export function symbolOf(checker: ts.TypeChecker, id: ts.Identifier): ts.Symbol | undefined {
  return id.parent && ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id
    ? checker.getShorthandAssignmentValueSymbol(id.parent)
    : checker.getSymbolAtLocation(id);
}

/** The expression under parentheses, `as`, `!`, `satisfies` and `<T>` assertions. */
export function skipOuter(e: ts.Expression): ts.Expression {
  let x = e;
  while (
    ts.isParenthesizedExpression(x) ||
    ts.isAsExpression(x) ||
    ts.isNonNullExpression(x) ||
    ts.isSatisfiesExpression(x) ||
    ts.isTypeAssertionExpression(x)
  ) {
    x = x.expression;
  }
  return x;
}
