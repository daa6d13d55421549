/**
 * What a key fix may build a partition key from: a value of the written
 * entity that tells its entities apart — its row key, an id, an owner —
 * never a literal, a clock reading (a time bucket moves with every insert of
 * the moment), a value of a few literals (a status) or a number that is not an
 * id (an amount, a count: payload, not identity).
 */
import ts from "typescript";
import { KeyDecomposer, skipOuter } from "./key-parts";
import type { Key } from "./written-keys";

/** What the choice reads: the file, the checker and the decomposer of its analysis. */
export interface MaterialContext {
  sf: ts.SourceFile;
  checker: ts.TypeChecker;
  decomposer: KeyDecomposer;
}

export interface KeyMaterial {
  /** The property's name (`rowKey` for the row key). */
  name: string;
  expr: ts.Expression;
  kind: "string" | "number";
}

/** Property names that identify an entity or its owner: preferred. */
const IDENTIFYING = /(^id$|Id$|_id$|ID$|^key$|Key$|_key$|^(user|customer|tenant|account|owner|device|session|email|name|code|sku|slug)$)/i;

/**
 * The values of the entity written with `key` that can spread it, best first: the row key when `rowKey`
 * says so, then properties that identify the entity, then other text. `pure` keeps only expressions that
 * read the same value twice (a name, a property, `String(…)` of one), for a fix that computes from it
 * where the key is and the reader recomputes from the entity.
 */
export function keyMaterial(ctx: MaterialContext, key: Key, options: { rowKey: boolean; pure: boolean }): KeyMaterial[] {
  const obj = key.write?.object;
  if (!obj || obj.getSourceFile() !== ctx.sf) return [];
  const out: Array<KeyMaterial & { rank: number }> = [];
  for (const p of obj.properties) {
    if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) continue;
    const name = p.name.getText(ctx.sf);
    if (name === "partitionKey" || (name === "rowKey" && !options.rowKey)) continue;
    const expr = ts.isPropertyAssignment(p) ? p.initializer : p.name;
    const kind = usable(ctx, expr, name === "rowKey" || IDENTIFYING.test(name));
    if (!kind || (options.pure && !isPure(expr))) continue;
    out.push({ name, expr, kind, rank: name === "rowKey" ? 0 : IDENTIFYING.test(name) ? 1 : 2 });
  }
  return out.sort((a, b) => a.rank - b.rank).map(({ name, expr, kind }) => ({ name, expr, kind }));
}

/** "string" or "number" when a value can join a key (numbers only when they identify), else undefined. */
function usable(ctx: MaterialContext, e: ts.Expression, identifying: boolean): KeyMaterial["kind"] | undefined {
  const x = skipOuter(e);
  if (ts.isStringLiteralLike(x) || ts.isNumericLiteral(x)) return undefined;
  // A serialized object is payload, not identity: it changes with every field and may hold `/`, `#` or `?`, which keys refuse.
  if (ts.isCallExpression(x) && x.expression.getText(ctx.sf).replace(/\s/g, "") === "JSON.stringify") return undefined;
  const t = ctx.checker.getTypeAtLocation(e);
  const kind = t.flags & ts.TypeFlags.StringLike ? "string" : t.flags & ts.TypeFlags.NumberLike ? "number" : undefined;
  if (!kind || (kind === "number" && !identifying)) return undefined;
  const parts = ctx.decomposer.parts(e);
  if (parts.some((p) => p.kind === "clock" || p.kind === "time-id" || p.kind === "counter" || p.kind === "reversed-clock"))
    return undefined;
  if (parts.some((p) => p.kind === "value" && p.literals?.length)) return undefined;
  if (parts.every((p) => p.kind === "literal")) return undefined;
  return kind;
}

/** A name, a property read, or `String(…)`/a template of those: the same value each time it is read. */
function isPure(e: ts.Expression): boolean {
  const x = skipOuter(e);
  if (ts.isIdentifier(x)) return true;
  if (ts.isPropertyAccessExpression(x)) return isPure(x.expression);
  if (ts.isCallExpression(x) && ts.isIdentifier(x.expression) && x.expression.text === "String" && x.arguments.length === 1)
    return isPure(x.arguments[0]);
  if (ts.isTemplateExpression(x)) return x.templateSpans.every((s) => isPure(s.expression));
  return false;
}
