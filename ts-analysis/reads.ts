/**
 * Where an entity that is written was read: the value of the write's
 * entity followed back (values.ts) to a `getEntity` result — returned by a
 * helper, assigned to a `let` inside `try`, bound by `const` — or to a row of
 * a listing (`for await (const row of client.listEntities())`, the rows of a
 * page, rows pushed to an array and walked later). A write that carries such
 * an entity back without its ETag can overwrite a change made in between.
 */
import ts from "typescript";
import type { EntityWrite } from "./usage";
import { sdkKindOf } from "./sdk";
import { Env, NO_ENV, skipValue, Value, ValueResolver } from "./values";

export interface ReadSource {
  /** `get`: a getEntity result; `row`: an element of a listing. */
  kind: "get" | "row";
  /** The getEntity or listEntities call. */
  call: ts.CallExpression;
  /** The entity written is the read itself, or spreads it (its other properties go back too), rather than only its keys. */
  whole: boolean;
}

const MAX_DEPTH = 4;

export class ReadTracer {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly values: ValueResolver,
  ) {}

  /** The read the entity of `w` comes from, if any. */
  of(w: EntityWrite): ReadSource | undefined {
    return this.source(w.entity, w.env ?? NO_ENV, 0);
  }

  /** The read a value made here comes from (an argument a caller passes), if any. */
  ofValueAt(e: ts.Expression): ReadSource | undefined {
    return this.source(e, NO_ENV, 0);
  }

  private source(e: ts.Expression, env: Env, depth: number): ReadSource | undefined {
    if (depth > MAX_DEPTH) return undefined;
    for (const v of this.values.values(e, env)) {
      const found = this.ofValue(v, depth);
      if (found) return found;
    }
    return undefined;
  }

  private ofValue(v: Value, depth: number): ReadSource | undefined {
    if (v.kind === "row") return { kind: "row", call: v.call, whole: true };
    if (v.kind !== "expr") return undefined;
    const x = skipValue(v.expr);
    if (this.isGetEntity(x)) return { kind: "get", call: x, whole: true };
    if (!ts.isObjectLiteralExpression(x)) return undefined;
    // `{ ...current, hits: current.hits + 1 }`: the read goes back whole.
    for (const p of x.properties) {
      if (!ts.isSpreadAssignment(p)) continue;
      const found = this.source(p.expression, v.env, depth + 1);
      if (found) return found;
    }
    // `{ partitionKey: row.partitionKey, rowKey: row.rowKey, … }`: the same entity, its keys taken from the read.
    const pk = this.keyFrom(x, "partitionKey", v.env, depth);
    const rk = pk && this.keyFrom(x, "rowKey", v.env, depth);
    return pk && rk ? { ...pk, whole: false } : undefined;
  }

  /** `name: r.name` where `r` is a read: that read. */
  private keyFrom(obj: ts.ObjectLiteralExpression, name: string, env: Env, depth: number): ReadSource | undefined {
    const prop = obj.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name);
    const init = prop && skipValue(prop.initializer);
    if (!init || !ts.isPropertyAccessExpression(init) || init.name.text !== name) return undefined;
    return this.source(init.expression, env, depth + 1);
  }

  /** `x.getEntity(…)` on a TableClient (by the checker's types, or on an untyped receiver). */
  isGetEntity(x: ts.Expression): x is ts.CallExpression {
    if (!ts.isCallExpression(x) || !ts.isPropertyAccessExpression(x.expression) || x.expression.name.text !== "getEntity") return false;
    if (sdkKindOf(this.checker, x.expression.name) === "client") return true;
    return (this.checker.getTypeAtLocation(x.expression.expression).flags & ts.TypeFlags.Any) !== 0;
  }
}
