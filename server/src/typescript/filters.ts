/**
 * Turns a `listEntities` filter expression into the OData text the service
 * would receive: the `odata` tag's interpolations become quoted literals,
 * string literals, template strings and local constants are followed, and
 * run-time values stand in as placeholders of their type.
 */
import ts from "typescript";
import { KeyDecomposer, skipOuter, TsKeyPart } from "./key-parts";

/** The filter text, or undefined when it cannot be known statically. */
export function filterText(expr: ts.Expression, checker: ts.TypeChecker): string | undefined {
  const e = skipOuter(expr);
  const decomposer = new KeyDecomposer(checker);
  if (ts.isTaggedTemplateExpression(e) && ts.isIdentifier(e.tag) && e.tag.text === "odata") {
    const tpl = e.template;
    if (ts.isNoSubstitutionTemplateLiteral(tpl)) return tpl.text;
    let text = tpl.head.text;
    for (const span of tpl.templateSpans) text += placeholder(checker.getTypeAtLocation(span.expression)) + span.literal.text;
    return text;
  }
  if (ts.isIdentifier(e)) {
    const init = decomposer.constInitializer(e);
    if (init && ts.isTaggedTemplateExpression(skipOuter(init))) return filterText(init, checker);
  }
  const parts = decomposer.parts(e);
  let text = "";
  for (const p of parts) {
    if (p.kind === "literal") text += p.text;
    else text += valueText(p, text, checker);
  }
  return parts.length ? text : undefined;
}

/** A run-time value: inside quotes a bare placeholder, outside them a typed literal. */
function valueText(p: TsKeyPart, before: string, checker: ts.TypeChecker): string {
  const quoted = (before.match(/'/g)?.length ?? 0) % 2 === 1;
  if (quoted) return "x";
  return placeholder(checker.getTypeAtLocation(p.node));
}

function placeholder(t: ts.Type): string {
  if (t.flags & ts.TypeFlags.NumberLike) return "0";
  if (t.flags & ts.TypeFlags.BigIntLike) return "0L";
  if (t.flags & ts.TypeFlags.BooleanLike) return "true";
  if (t.getSymbol()?.getName() === "Date") return "datetime'2026-01-01T00:00:00Z'";
  return "'x'";
}
