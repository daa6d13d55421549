/**
 * What a validation schema of the file says a field holds, for values the
 * checker types `any` (JavaScript, a request's body): a field declared
 * `count: Joi.number()` (or zod's `z.number()`, yup's `yup.number()`,
 * valibot's `v.number()`, chained or not) is a number wherever a value of
 * that name enters a key.
 */
import ts from "typescript";
import { skipOuter } from "./syntax";

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
