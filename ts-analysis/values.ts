/**
 * The values an expression may take, as a small set of alternatives: both
 * branches of a conditional, both sides of `??`/`||`, every plain write of a
 * `let`, the elements of the array a `for…of` walks (its literal and what is
 * pushed to it), a property of such values (through spreads, later ones
 * winning), what a helper of the program returns with its parameters bound
 * to the call's arguments. `undefined` and a missing argument are `absent`;
 * what cannot be followed — a parameter nobody binds, a compound
 * assignment, an object whose properties are written after it was made — is
 * `unknown`, never a guess.
 *
 * Each answer is memoised per node and parameter binding, and bounded: at
 * most 16 alternatives, 8 levels deep, and the time budget.
 */
import ts from "typescript";
import { Budget } from "./budget";
import { FileFacts, PropWrite } from "./facts";
import { returnedExpressions } from "./returns";
import { skipOuter, symbolOf } from "./syntax";

/** Parameters bound to the arguments of the call being followed (each with the binding of the caller). */
export type Env = ReadonlyMap<ts.Symbol, { expr: ts.Expression; env: Env }>;

export type Value =
  /** An expression the resolver stops at: a literal, an object or array literal, a call it does not follow… */
  | {
      kind: "expr";
      expr: ts.Expression;
      env: Env;
      written?: ReadonlySet<string> | "any";
      /** The writes behind `written`, and the declaration they follow (to tell a write on every path from one under a condition). */
      writes?: readonly PropWrite[];
      decl?: ts.VariableDeclaration;
      /** The value holds only on some paths: a property set under a condition after the object was made. */
      soft?: true;
    }
  /** `undefined`, `null`, an argument not passed; `soft` when only on the paths where a later write did not happen. */
  | { kind: "absent"; soft?: true }
  /** An entity read by a listing: an element of what `listEntities(…)` yields (`call`), or of one of its pages. */
  | { kind: "row"; call: ts.CallExpression }
  /** A page of a listing (`listEntities(…).byPage()`): its elements are rows. */
  | { kind: "page"; call: ts.CallExpression }
  | { kind: "unknown"; why: string };

export const NO_ENV: Env = new Map();
export const ABSENT: Value = { kind: "absent" };
const unknown = (why: string): Value => ({ kind: "unknown", why });

const MAX_ALTERNATIVES = 16;
/** Array methods that return one of the array's elements. */
const PICKS: ReadonlySet<string> = new Set(["find", "findLast", "at", "pop", "shift"]);
const MAX_DEPTH = 8;
/** Array methods whose callback gets each element first. */
const ARRAY_WALKS: ReadonlySet<string> = new Set(["map", "forEach", "filter", "some", "every", "flatMap", "find", "findIndex"]);
const PENDING: Value[] = [unknown("a value that depends on itself")];

export class ValueResolver {
  private readonly memo = new Map<ts.Node, Map<Env, Value[]>>();

  constructor(
    private readonly checker: ts.TypeChecker,
    readonly budget: Budget,
  ) {}

  facts(n: ts.Node): FileFacts {
    return FileFacts.of(this.checker, n.getSourceFile(), this.budget);
  }

  /** The alternatives of `e` (evaluated where `env` binds the parameters). */
  values(e: ts.Expression | undefined, env: Env = NO_ENV, depth = 0): Value[] {
    if (!e) return [ABSENT];
    const x = skipValue(e);
    if (depth > MAX_DEPTH) return [unknown("followed too deep")];
    this.budget.tick();
    let byEnv = this.memo.get(x);
    if (!byEnv) this.memo.set(x, (byEnv = new Map()));
    const known = byEnv.get(env);
    if (known) return known;
    byEnv.set(env, PENDING);
    const out = cap(this.compute(x, env, depth));
    byEnv.set(env, out);
    return out;
  }

  private compute(x: ts.Expression, env: Env, depth: number): Value[] {
    if (x.kind === ts.SyntaxKind.NullKeyword || ts.isVoidExpression(x)) return [ABSENT];
    if (ts.isIdentifier(x)) return x.text === "undefined" ? [ABSENT] : this.identifier(x, env, depth);
    if (ts.isConditionalExpression(x)) return [...this.values(x.whenTrue, env, depth + 1), ...this.values(x.whenFalse, env, depth + 1)];
    if (ts.isBinaryExpression(x)) {
      const op = x.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
        const right = this.values(x.right, env, depth + 1);
        // `x ?? undefined` only turns null into undefined: it is x, whatever x may be.
        if (right.every((v) => v.kind === "absent")) return this.values(x.left, env, depth + 1);
        return [...this.values(x.left, env, depth + 1).filter((v) => v.kind !== "absent"), ...right];
      }
      // `c && v`: v, or nothing.
      if (op === ts.SyntaxKind.AmpersandAmpersandToken) return [ABSENT, ...this.values(x.right, env, depth + 1)];
    }
    if (ts.isPropertyAccessExpression(x) || (ts.isElementAccessExpression(x) && ts.isStringLiteralLike(x.argumentExpression))) {
      const name = ts.isPropertyAccessExpression(x) ? x.name.text : (x.argumentExpression as ts.StringLiteralLike).text;
      const base = skipValue(x.expression);
      // `this.x`, `obj.x.y` of something the resolver cannot see into: the access itself is the value.
      if (base.kind === ts.SyntaxKind.ThisKeyword) return [{ kind: "expr", expr: x, env }];
      const objects = this.values(base, env, depth + 1);
      if (objects.every((o) => o.kind === "expr" && !ts.isObjectLiteralExpression(skipValue(o.expr))))
        return [{ kind: "expr", expr: x, env }];
      return this.property(objects, name, depth + 1, x);
    }
    // `rows.find(…)`, `rows.at(0)`, `rows[0]`: one of the array's elements (or nothing).
    if (
      ts.isCallExpression(x) &&
      ts.isPropertyAccessExpression(x.expression) &&
      PICKS.has(x.expression.name.text) &&
      this.isArray(x.expression.expression)
    )
      return [ABSENT, ...this.elements(x.expression.expression, env, depth + 1)];
    if (ts.isElementAccessExpression(x) && !ts.isStringLiteralLike(x.argumentExpression) && this.isArray(x.expression))
      return [ABSENT, ...this.elements(x.expression, env, depth + 1)];
    // `cache[name]` of a plain object used as a cache: what is stored into it under a computed name (or nothing yet).
    if (ts.isElementAccessExpression(x)) {
      const stored = this.stored(x, depth);
      if (stored) return stored;
    }
    if (ts.isCallExpression(x)) return this.call(x, env, depth);
    return [{ kind: "expr", expr: x, env }];
  }

  /**
   * The values of a callback's parameter: the argument of an immediately invoked function (`((e) => …)(entity)`), or an
   * element of the array an array method walks (`rows.map((r) => …)`, `forEach`, `filter`, `some`, `every`, `flatMap`).
   */
  private callbackArgument(p: ts.ParameterDeclaration, depth: number): Value[] | undefined {
    const fn = p.parent;
    if (!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return undefined;
    const index = fn.parameters.indexOf(p);
    let inner: ts.Node = fn;
    while (ts.isParenthesizedExpression(inner.parent)) inner = inner.parent;
    const call = inner.parent;
    if (!ts.isCallExpression(call)) return undefined;
    if (call.expression === inner) return call.arguments[index] ? this.values(call.arguments[index], NO_ENV, depth + 1) : [ABSENT];
    const callee = call.expression;
    if (
      index === 0 &&
      call.arguments[0] === inner &&
      ts.isPropertyAccessExpression(callee) &&
      ARRAY_WALKS.has(callee.name.text) &&
      this.isArray(callee.expression)
    )
      return this.elements(callee.expression, NO_ENV, depth + 1);
    return undefined;
  }

  /** The values stored into an object variable under computed names (`cache[key] = client`), when there are any. */
  private stored(x: ts.ElementAccessExpression, depth: number): Value[] | undefined {
    const base = skipValue(x.expression);
    if (!ts.isIdentifier(base)) return undefined;
    const sym = this.checker.getSymbolAtLocation(base);
    const decl = sym?.valueDeclaration;
    if (!decl) return undefined;
    const writes = this.facts(decl)
      .propWrites(sym)
      .filter((w) => w.name === undefined && !w.prefix && w.value);
    if (!writes.length) return undefined;
    return [ABSENT, ...writes.flatMap((w) => this.values(w.value, NO_ENV, depth + 1))];
  }

  /** True when the checker types the expression as an array (or a tuple). */
  private isArray(e: ts.Expression): boolean {
    const t = this.checker.getNonNullableType(this.checker.getTypeAtLocation(e));
    return this.checker.isArrayType(t) || this.checker.isTupleType(t);
  }

  private identifier(id: ts.Identifier, env: Env, depth: number): Value[] {
    let sym = symbolOf(this.checker, id);
    if (!sym) return [{ kind: "expr", expr: id, env }];
    const bound = env.get(sym);
    if (bound) return this.values(bound.expr, bound.env, depth + 1);
    if (sym.flags & ts.SymbolFlags.Alias) sym = this.checker.getAliasedSymbol(sym);
    const decl = sym.valueDeclaration;
    if (!decl) return [{ kind: "expr", expr: id, env }];
    if (ts.isParameter(decl)) {
      // A callback's parameter, where the call that runs it is in sight: an immediately invoked function, `map`/`forEach`.
      const passed = this.callbackArgument(decl, depth);
      if (passed) return passed;
      // A default applies when the argument is absent; nobody bound this one, so it is whatever the caller passes.
      return [{ kind: "expr", expr: id, env }];
    }
    const destructured = this.destructured(decl, env, depth);
    if (destructured) return destructured;
    if (!ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) return [{ kind: "expr", expr: id, env }];
    const facts = this.facts(decl);
    const constant = (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0 && !!decl.initializer;
    const defs = constant ? [{ kind: "init" as const, value: decl.initializer, at: decl }] : facts.defs(sym);
    if (!defs.length) return [{ kind: "expr", expr: id, env }];
    const out: Value[] = [];
    // A local of the helper being followed is written from its parameters: the call's bindings hold there too.
    const at = env.size && inFunction(decl) ? env : NO_ENV;
    for (const d of defs) {
      if (d.kind === "init" || d.kind === "assign") out.push(...this.values(d.value, at, depth + 1));
      else if (d.kind === "forOf") out.push(...this.elements(d.value!, at, depth + 1));
      else if (d.kind === "binding") out.push(...this.property(this.values(d.value, at, depth + 1), d.property!, depth + 1));
      else return [unknown(`'${id.text}' is changed in place`)];
    }
    // An object whose properties are written after it was made: those properties are not what its literal says.
    const writes = facts.propWrites(sym);
    if (!writes.length) return out;
    // A computed name known to start with a text (`o["budget" + q]`) writes only the properties with that prefix.
    const written: Set<string> | "any" = writes.some((w) => w.name === undefined && !w.prefix)
      ? "any"
      : new Set(writes.map((w) => w.name ?? `${w.prefix}*`));
    return out.map((v) => (v.kind === "expr" ? { ...v, written, writes, decl } : v));
  }

  /**
   * `const { client, options: o = {} } = { … }`: a name bound by an object pattern of a `const` (or a `let` never
   * written again) over an object literal is that property of the literal, its default where the property is absent.
   */
  private destructured(decl: ts.Declaration, env: Env, depth: number): Value[] | undefined {
    if (!ts.isBindingElement(decl) || decl.dotDotDotToken || !ts.isObjectBindingPattern(decl.parent)) return undefined;
    const holder = decl.parent.parent;
    // Only out of an object literal in sight: a read's result (`const { etag, ...rest } = await getEntity(…)`) keeps its own rules.
    if (!ts.isVariableDeclaration(holder) || !holder.initializer || !ts.isObjectLiteralExpression(skipValue(holder.initializer)))
      return undefined;
    const key = decl.propertyName ?? decl.name;
    const name = ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : undefined;
    if (!name || !ts.isIdentifier(decl.name)) return undefined;
    const sym = this.checker.getSymbolAtLocation(decl.name);
    const constant = (ts.getCombinedNodeFlags(holder) & ts.NodeFlags.Const) !== 0;
    if (
      !constant &&
      (!sym ||
        this.facts(holder)
          .defs(sym)
          .some((d) => d.kind !== "binding" && d.kind !== "init"))
    )
      return undefined;
    const at = env.size && inFunction(holder) ? env : NO_ENV;
    const got = this.property(this.values(holder.initializer, at, depth + 1), name, depth + 1);
    if (!decl.initializer) return got;
    const fallback = decl.initializer;
    return cap(got.flatMap((v) => (v.kind === "absent" ? this.values(fallback, at, depth + 1) : [v])));
  }

  /** The values of property `name` of each alternative (an object literal's, through its spreads). */
  property(objects: readonly Value[], name: string, depth = 0, at?: ts.Expression): Value[] {
    const out: Value[] = [];
    for (const o of objects) {
      if (o.kind === "row" || o.kind === "page") {
        out.push(unknown(`'${name}' of an entity read from the table`));
        continue;
      }
      if (o.kind !== "expr") {
        out.push(o);
        continue;
      }
      if (writesProperty(o.written, name)) {
        const assigned = this.assigned(o, name, depth);
        out.push(...(o.soft ? soften(assigned) : assigned));
        continue;
      }
      const obj = skipValue(o.expr);
      const own: Value[] = ts.isObjectLiteralExpression(obj)
        ? this.ofLiteral(obj, name, o.env, depth + 1)
        : this.typeLacks(obj, name)
          ? [ABSENT]
          : [at ? { kind: "expr", expr: at, env: o.env } : unknown(`'${name}' of a value not known statically`)];
      out.push(...(o.soft ? soften(own) : own));
    }
    return cap(out);
  }

  /**
   * Property `name` of an object literal written after it was made (`const o = {}; if (q) o.filter = f;`): what each
   * plain write assigns, and — when every write is under a condition — the literal's own value on the other paths
   * (both marked as holding on some paths only). Not known when a write is compound, computed or `Object.assign`.
   */
  private assigned(o: Extract<Value, { kind: "expr" }>, name: string, depth: number): Value[] {
    const obj = skipValue(o.expr);
    const writes = (o.writes ?? []).filter((w) => w.name === undefined || w.name === name);
    if (!o.decl || !ts.isObjectLiteralExpression(obj) || !writes.length || writes.some((w) => w.name !== name || !w.value))
      return [unknown(`'${name}' is set after the object is made`)];
    const block = o.decl.parent.parent.parent;
    const always = writes.some((w) => ts.isExpressionStatement(w.at.parent) && w.at.parent.parent === block);
    const out = writes.flatMap((w) => this.values(w.value, o.env, depth + 1));
    return always ? out : soften([...this.ofLiteral(obj, name, o.env, depth + 1), ...out]);
  }

  private ofLiteral(obj: ts.ObjectLiteralExpression, name: string, env: Env, depth: number): Value[] {
    let current: Value[] = [ABSENT];
    for (const p of obj.properties) {
      if (ts.isPropertyAssignment(p) && propName(p.name) === name) current = this.values(p.initializer, env, depth + 1);
      else if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) current = this.values(p.name, env, depth + 1);
      else if ((ts.isMethodDeclaration(p) || ts.isAccessor(p)) && propName(p.name) === name)
        current = [unknown(`'${name}' is a method or an accessor`)];
      else if (ts.isSpreadAssignment(p)) {
        const next: Value[] = [];
        for (const s of this.values(p.expression, env, depth + 1)) {
          if (s.kind === "absent") next.push(...current);
          else if (s.kind !== "expr") next.push(unknown(`a spread that may set '${name}'`));
          else if (ts.isObjectLiteralExpression(skipValue(s.expr)) && !s.written) {
            for (const v of this.ofLiteral(skipValue(s.expr) as ts.ObjectLiteralExpression, name, s.env, depth + 1))
              next.push(...(v.kind === "absent" ? current : [v]));
          } else if (this.typeLacks(s.expr, name)) next.push(...current);
          else next.push(unknown(`a spread that may set '${name}'`));
        }
        current = cap(next);
      }
    }
    return current;
  }

  /** The elements of an array: each element of its literal (spreads included) and each value pushed to it. */
  elements(e: ts.Expression, env: Env = NO_ENV, depth = 0): Value[] {
    const x = skipValue(e);
    if (depth > MAX_DEPTH) return [unknown("followed too deep")];
    const out: Value[] = [];
    // An array a helper of the program fills and returns (`const rows = []; … rows.push(e); return rows`).
    const returned = ts.isCallExpression(x) ? this.returnedElements(x, env, depth) : undefined;
    if (returned) return cap(returned);
    if (ts.isIdentifier(x)) {
      const sym = symbolOf(this.checker, x);
      const decl = sym?.valueDeclaration;
      if (decl && ts.isVariableDeclaration(decl)) {
        const facts = this.facts(decl);
        if (facts.isMutated(sym)) return [unknown(`'${x.text}' is changed in place`)];
        for (const push of facts.pushes(sym)) {
          for (const a of push.arguments)
            out.push(...(ts.isSpreadElement(a) ? this.elements(a.expression, NO_ENV, depth + 1) : this.values(a, NO_ENV, depth + 1)));
        }
        const init =
          (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0 && decl.initializer ? skipValue(decl.initializer) : undefined;
        const fromHelper = init && ts.isCallExpression(init) ? this.returnedElements(init, NO_ENV, depth) : undefined;
        if (fromHelper) return cap([...out, ...fromHelper]);
      }
    }
    for (const v of this.values(x, env, depth + 1)) {
      const listing = v.kind === "expr" ? this.listing(skipValue(v.expr), v.env, depth) : undefined;
      if (listing) out.push(listing);
      else if (v.kind === "page") out.push({ kind: "row", call: v.call });
      else if (v.kind !== "expr") out.push(v.kind === "absent" ? unknown("the elements of nothing") : v);
      else if (ts.isArrayLiteralExpression(skipValue(v.expr))) {
        for (const el of (skipValue(v.expr) as ts.ArrayLiteralExpression).elements)
          out.push(...(ts.isSpreadElement(el) ? this.elements(el.expression, v.env, depth + 1) : this.values(el, v.env, depth + 1)));
      } else if (!ts.isIdentifier(skipValue(v.expr)) || !out.length) out.push(unknown("the elements of an array not known statically"));
    }
    return cap(out);
  }

  /** The elements of what a helper of the program returns, its parameters bound to this call's arguments; undefined for other calls. */
  private returnedElements(c: ts.CallExpression, env: Env, depth: number): Value[] | undefined {
    const decl = this.checker.getResolvedSignature(c)?.declaration;
    if (!decl || !ts.isFunctionLike(decl) || decl.getSourceFile().isDeclarationFile) return undefined;
    const returns = returnedExpressions(decl, true);
    if (!returns) return undefined;
    const bound = this.bind(c, env, decl);
    const out: Value[] = [];
    for (const r of returns) if (r) out.push(...this.elements(r, bound, depth + 1));
    return out;
  }

  /** What iterating `x` yields when it is a listing: rows of `listEntities(…)`, pages of its `.byPage()`. */
  private listing(x: ts.Expression, env: Env, depth: number): Value | undefined {
    if (!ts.isCallExpression(x) || !ts.isPropertyAccessExpression(x.expression)) return undefined;
    const method = x.expression.name.text;
    if (method === "listEntities") return { kind: "row", call: x };
    if (method !== "byPage") return undefined;
    const source = this.values(x.expression.expression, env, depth + 1).find(
      (v) => v.kind === "expr" && ts.isCallExpression(skipValue(v.expr)) && this.listing(skipValue(v.expr), v.env, depth + 1),
    );
    return source?.kind === "expr" ? { kind: "page", call: skipValue(source.expr) as ts.CallExpression } : undefined;
  }

  /** A helper of the program: each returned expression, its parameters bound to this call's arguments. */
  private call(c: ts.CallExpression, env: Env, depth: number): Value[] {
    const decl = this.checker.getResolvedSignature(c)?.declaration;
    if (!decl || !ts.isFunctionLike(decl) || decl.getSourceFile().isDeclarationFile) return [{ kind: "expr", expr: c, env }];
    const returns = returnedExpressions(decl, true);
    if (!returns) return [{ kind: "expr", expr: c, env }];
    const bound = this.bind(c, env, decl);
    const out: Value[] = [];
    for (const r of returns) out.push(...(r ? this.values(r, bound, depth + 1) : [ABSENT]));
    return out;
  }

  /**
   * The bindings inside the function a call runs: each parameter to the call's argument (evaluated in
   * the caller's `env`), or to its default. Undefined-free: a parameter without either stays unbound.
   */
  bind(c: ts.CallExpression, env: Env, decl = this.checker.getResolvedSignature(c)?.declaration): Env {
    if (!decl || !ts.isFunctionLike(decl)) return env;
    const bound = new Map(env);
    decl.parameters.forEach((p, i) => {
      const sym = ts.isIdentifier(p.name) ? this.checker.getSymbolAtLocation(p.name) : undefined;
      const arg = p.dotDotDotToken ? undefined : (c.arguments[i] ?? p.initializer);
      if (sym && arg) bound.set(sym, { expr: arg, env: c.arguments[i] ? env : NO_ENV });
    });
    return bound;
  }

  /** True when the checker knows the expression's type has no such property. */
  private typeLacks(e: ts.Expression, name: string): boolean {
    const t = this.checker.getNonNullableType(this.checker.getTypeAtLocation(e));
    // `T | undefined`: what T may hold, not what undefined lacks.
    const members = t.isUnion() ? t.types : [t];
    return members.every(
      (m) =>
        !(m.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter)) &&
        !m.getProperty(name) &&
        !m.getStringIndexType(),
    );
  }
}

/** True when a declaration is made inside a function (a local), not at the top of a module. */
function inFunction(n: ts.Node): boolean {
  for (let p = n.parent; p; p = p.parent) if (ts.isFunctionLike(p)) return true;
  return false;
}

/** Parentheses, type assertions and `await` do not change the value. */
export function skipValue(e: ts.Expression): ts.Expression {
  let x = skipOuter(e);
  while (ts.isAwaitExpression(x)) x = skipOuter(x.expression);
  return x;
}

function propName(n: ts.PropertyName): string | undefined {
  return ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n) ? n.text : undefined;
}

/** The same values, holding on some paths only. */
function soften(values: readonly Value[]): Value[] {
  return values.map((v) => (v.kind === "absent" || v.kind === "expr" ? { ...v, soft: true } : v));
}

/** At most 16 alternatives, duplicates dropped; past that the value is not known. */
function cap(values: Value[]): Value[] {
  const out: Value[] = [];
  for (const v of values) {
    const same = out.some(
      (o) =>
        o.kind === v.kind &&
        (o.kind !== "absent" || v.kind !== "absent" || o.soft === v.soft) &&
        (v.kind !== "expr" || (o.kind === "expr" && o.soft === v.soft)) &&
        (v.kind !== "expr" || (o.kind === "expr" && o.expr === v.expr && o.env === v.env && o.written === v.written)) &&
        ((v.kind !== "row" && v.kind !== "page") || ((o.kind === "row" || o.kind === "page") && o.call === v.call)),
    );
    if (!same) out.push(v);
  }
  return out.length > MAX_ALTERNATIVES ? [unknown("more alternatives than followed")] : out;
}

/** True when the writes recorded for an object (values' `written`) may set property `name`. */
export function writesProperty(written: ReadonlySet<string> | "any" | undefined, name: string): boolean {
  if (!written) return false;
  if (written === "any" || written.has(name)) return true;
  for (const w of written) if (w.endsWith("*") && name.startsWith(w.slice(0, -1))) return true;
  return false;
}
