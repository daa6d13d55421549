/**
 * The entities a write passes, and their keys: each object the argument
 * may be (a literal, a constant, what a helper returns, an element pushed
 * to the array a loop walks, the argument of the call being followed), its
 * `partitionKey` and `rowKey` through spreads (later properties win), and
 * the update mode and options of the SDK call.
 */
import ts from "typescript";
import type { EntityWrite } from "./usage";
import { skipOuter } from "./syntax";
import { Env, NO_ENV, skipValue, Value, ValueResolver, writesProperty } from "./values";

/** A key property's expression (in `env`), or that a spread nobody can see may set it. */
interface Lookup {
  value?: ts.Expression;
  env?: Env;
  unknown: boolean;
}

export class EntityReader {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly values: ValueResolver,
  ) {}

  /**
   * One write record per object the entity may be (one with no object when none can be seen).
   * `site` is where the write is reported (the SDK call, or the call of a helper that makes it);
   * `sdkCall` is the SDK call itself (its mode and options).
   */
  writes(site: ts.CallExpression, sdkCall: ts.CallExpression, method: string, arg: ts.Expression, env: Env = NO_ENV): EntityWrite[] {
    // An object whose other properties are set after it is made is still the entity: its keys hold unless they are set too.
    const objects = this.values.values(arg, env).filter(isObject);
    const base: EntityWrite = {
      call: site,
      method,
      entity: arg,
      ...(env.size ? { env } : {}),
      ...(site !== sdkCall ? { via: sdkCall } : {}),
    };
    if (method === "updateEntity" || method === "upsertEntity") {
      base.mode = this.mode(sdkCall.arguments[1], env);
      base.options = sdkCall.arguments[2];
    }
    if (!objects.length) return [{ ...base, ...this.declared(arg) }];
    return objects.map((o) => {
      const object = skipValue(o.expr) as ts.ObjectLiteralExpression;
      const write: EntityWrite = { ...base, object };
      const pk = writesProperty(o.written, "partitionKey") ? { unknown: true } : this.key(object, "partitionKey", o.env);
      const rk = writesProperty(o.written, "rowKey") ? { unknown: true } : this.key(object, "rowKey", o.env);
      if (pk.value) [write.partitionKey, write.partitionKeyEnv] = [pk.value, pk.env];
      if (rk.value) [write.rowKey, write.rowKeyEnv] = [rk.value, rk.env];
      return write.partitionKey ? write : { ...write, ...this.declared(arg) };
    });
  }

  /** The update mode's text ("Merge" when none is passed), through constants and the call being followed. */
  private mode(arg: ts.Expression | undefined, env: Env): string {
    if (!arg) return "Merge";
    const vals = this.values.values(arg, env);
    const one = vals.length === 1 && vals[0].kind === "expr" ? skipOuter(vals[0].expr) : undefined;
    if (one && ts.isStringLiteralLike(one)) return one.text;
    if (vals.length === 1 && vals[0].kind === "absent") return "Merge";
    return skipOuter(arg).getText();
  }

  /** The partition key an entity's declared type fixes: a property typed as one string literal. */
  private declared(arg: ts.Expression): Pick<EntityWrite, "declaredPartitionKey"> {
    const type = this.checker.getTypeAtLocation(arg);
    const prop = type.getProperty("partitionKey");
    if (!prop) return {};
    const t = this.checker.getTypeOfSymbolAtLocation(prop, arg);
    return t.isStringLiteral() ? { declaredPartitionKey: t.value } : {};
  }

  /**
   * A key's expression in an object literal: the one value the property has (through spreads and the
   * bindings of the call being followed), else the literal's own property as written (a conditional
   * stays one expression), else unknown when a spread nobody can see may set it.
   */
  key(obj: ts.ObjectLiteralExpression, name: string, env: Env): Lookup {
    // The literal's own property, as written (the rules report on it and fix it there), unless a later spread may replace it.
    const own = [...obj.properties].reverse().find((p) => !ts.isSpreadAssignment(p) && p.name && propName(p.name) === name);
    // A later spread replaces it only when it is known to set it (`...lead` of an `any` from a form is taken not to).
    const replaced =
      own &&
      obj.properties
        .slice(obj.properties.indexOf(own) + 1)
        .some(
          (p) =>
            ts.isSpreadAssignment(p) && this.values.property(this.values.values(p.expression, env), name).some((v) => v.kind === "expr"),
        );
    if (own && !replaced) {
      if (ts.isPropertyAssignment(own)) return { value: own.initializer, env, unknown: false };
      if (ts.isShorthandPropertyAssignment(own)) return { value: own.name, env, unknown: false };
    }
    const vals = this.values.property([{ kind: "expr", expr: obj, env }], name);
    const known = vals.filter((v): v is Extract<Value, { kind: "expr" }> => v.kind === "expr");
    if (known.length === 1 && vals.length === 1) return { value: known[0].expr, env: known[0].env, unknown: false };
    return { unknown: vals.some((v) => v.kind === "unknown") };
  }

  /** The first object literal an expression may be (options objects: `{ etag }`). */
  objectOf(e: ts.Expression, env: Env = NO_ENV): { object: ts.ObjectLiteralExpression; env: Env } | undefined {
    const o = this.values.values(e, env).find(isObject);
    return o ? { object: skipValue(o.expr) as ts.ObjectLiteralExpression, env: o.env } : undefined;
  }
}

function isObject(v: Value): v is Extract<Value, { kind: "expr" }> {
  return v.kind === "expr" && ts.isObjectLiteralExpression(skipValue(v.expr));
}

function propName(n: ts.PropertyName): string | undefined {
  return ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : undefined;
}
