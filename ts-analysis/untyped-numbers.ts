/**
 * Numbers the checker cannot see (values typed `any`: JavaScript, a
 * request's body), known by evidence instead:
 * - what a validation schema of the file says a field holds: a field
 *   declared `count: Joi.number()` (or zod's `z.number()`, yup's
 *   `yup.number()`, valibot's `v.number()`, chained or not) is a number
 *   wherever a value of that name enters a key;
 * - the form of the expression: arithmetic (`maxId + 1`, `a * b`), `Number()`,
 *   `parseInt`, `Math.*`, a `.length`, a `reduce` seeded with a number, and a
 *   variable any of whose writes is one of those.
 */
import ts from "typescript";
import { FileFacts } from "./facts";
import { skipOuter, symbolOf } from "./syntax";

/** How far a variable's writes are followed (`id = maxId + 1`, `maxId = rows.reduce(…, 0)`). */
const MAX_DEPTH = 4;
const NUMERIC_CALLS: ReadonlySet<string> = new Set(["Number", "parseInt", "parseFloat", "Number.parseInt", "Number.parseFloat"]);
const ALWAYS_NUMERIC: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.MinusToken,
  ts.SyntaxKind.AsteriskToken,
  ts.SyntaxKind.AsteriskAsteriskToken,
  ts.SyntaxKind.SlashToken,
  ts.SyntaxKind.PercentToken,
]);

/**
 * True when an expression typed `any` is a number by its form, or (a variable) by one of its writes: a key
 * built from it sorts as text on the paths where it is one.
 */
export function numericByForm(checker: ts.TypeChecker, facts: (n: ts.Node) => FileFacts, e: ts.Expression, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const x = skipOuter(e);
  const again = (y: ts.Expression) => numericByForm(checker, facts, y, depth + 1);
  const typedNumber = (y: ts.Expression) => (checker.getTypeAtLocation(y).flags & ts.TypeFlags.NumberLike) !== 0 || again(y);
  if (ts.isNumericLiteral(x)) return true;
  if (ts.isPrefixUnaryExpression(x)) return x.operator === ts.SyntaxKind.MinusToken || x.operator === ts.SyntaxKind.PlusToken;
  if (ts.isBinaryExpression(x)) {
    if (ALWAYS_NUMERIC.has(x.operatorToken.kind)) return true;
    // `+` adds when neither side is text: a number literal beside a number (`maxId + 1`), not `"r" + 1`.
    if (x.operatorToken.kind !== ts.SyntaxKind.PlusToken) return false;
    return (
      (ts.isNumericLiteral(skipOuter(x.right)) && typedNumber(x.left)) || (ts.isNumericLiteral(skipOuter(x.left)) && typedNumber(x.right))
    );
  }
  if (ts.isPropertyAccessExpression(x)) return x.name.text === "length";
  if (ts.isCallExpression(x)) {
    const callee = x.expression.getText();
    if (NUMERIC_CALLS.has(callee) || /^Math\.\w+$/.test(callee)) return true;
    // `rows.reduce((max, r) => Math.max(max, …), 0)`: seeded with a number, a fold of numbers.
    return ts.isPropertyAccessExpression(x.expression) && x.expression.name.text === "reduce" && !!x.arguments[1] && again(x.arguments[1]);
  }
  if (!ts.isIdentifier(x)) return false;
  const sym = symbolOf(checker, x);
  const decl = sym?.valueDeclaration;
  if (!sym || !decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) return false;
  if (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) return !!decl.initializer && again(decl.initializer);
  return facts(decl)
    .defs(sym)
    .some((d) => (d.kind === "init" || d.kind === "assign") && !!d.value && again(d.value));
}

/** The libraries' usual names for their entry object: `Joi.number()`, `z.number()`, `yup.number()`, `v.number()`. */
const SCHEMA_ROOTS: ReadonlySet<string> = new Set(["Joi", "joi", "z", "yup", "Yup", "v"]);

const numberFieldsOf = new WeakMap<ts.SourceFile, ReadonlySet<string>>();

/** True when a field of this name is declared a number by a schema of the expression's file. */
export function schemaSaysNumber(e: ts.Expression): boolean {
  const x = skipOuter(e);
  const name = ts.isIdentifier(x) ? x.text : ts.isPropertyAccessExpression(x) ? x.name.text : undefined;
  if (!name) return false;
  const sf = x.getSourceFile();
  let fields = numberFieldsOf.get(sf);
  if (!fields) numberFieldsOf.set(sf, (fields = numberFields(sf)));
  return fields.has(name);
}

/** The names of the file's object-literal properties whose value is a schema chain built on `.number()`. */
function numberFields(sf: ts.SourceFile): ReadonlySet<string> {
  const out = new Set<string>();
  // A file that names no schema library has nothing to find: skip the walk.
  if (!/\b(Joi|joi|z|yup|Yup|v)\.number\(/.test(sf.text)) return out;
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAssignment(n) && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name)) && isNumberSchema(n.initializer))
      out.add(n.name.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** `Joi.number().integer().min(1)`: a chain of calls whose root is `<library>.number()`. */
function isNumberSchema(e: ts.Expression): boolean {
  let x = skipOuter(e);
  while (ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression)) {
    const target = skipOuter(x.expression.expression);
    if (x.expression.name.text === "number" && ts.isIdentifier(target) && SCHEMA_ROOTS.has(target.text)) return true;
    x = target;
  }
  return false;
}
