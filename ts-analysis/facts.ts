/**
 * What one file does to its variables, found in one walk of the file and
 * kept per type checker: every write to a variable (its initializer, `=`,
 * `+=`, `++`, a `for…of` binding), every `arr.push(…)`, every property
 * written after an object was made (`o.p = v`, `Object.assign(o, …)`),
 * arrays changed in place, and the method calls made on each variable.
 *
 * The rest of the analysis asks these maps instead of walking the file
 * again per question: before, counting a transaction's actions walked the
 * whole file once per loop array on the way, and chains of loops made that
 * factorial in the number of functions (issue #24).
 */
import ts from "typescript";
import { Budget } from "./budget";

/** How a variable gets a value. */
export type DefKind =
  /** `const x = v` / `let x = v`. */
  | "init"
  /** `x = v`, `x ??= v`, `x ||= v`. */
  | "assign"
  /** `x += v` and the other arithmetic assignments, `x++`: the value depends on the one before. */
  | "compound"
  /** `for (const x of xs)`: `value` is `xs`, the variable holds one element at a time. */
  | "forOf"
  /** `for (const k in o)`, a destructuring assignment, a catch variable: a value nobody can see. */
  | "opaque"
  /** `const { p } = v` (`property` names what is taken from `value`). */
  | "binding";

export interface Def {
  kind: DefKind;
  /** The assigned expression (for `forOf`, the iterated one; for `binding`, the destructured one). */
  value?: ts.Expression;
  /** For `binding`: the property taken out of `value`. */
  property?: string;
  /** The node that writes (a declaration, an assignment, the loop). */
  at: ts.Node;
}

export interface PropWrite {
  /** The property written; undefined for a computed name or `Object.assign(o, …)` (any property). */
  name?: string;
  /** For a computed name, the text it is known to start with (`o["budget" + q]`): no property outside that prefix is written. */
  prefix?: string;
  value?: ts.Expression;
  at: ts.Node;
}

/** A method call `x.m(…)` whose receiver is the variable `x`. */
export type MethodCall = ts.CallExpression & { expression: ts.PropertyAccessExpression };

const MUTATORS = new Set(["splice", "pop", "shift", "reverse", "sort", "fill", "copyWithin"]);
const COMPOUND = new Set([
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.AsteriskAsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.PercentEqualsToken,
  ts.SyntaxKind.LessThanLessThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.AmpersandEqualsToken,
  ts.SyntaxKind.BarEqualsToken,
  ts.SyntaxKind.CaretEqualsToken,
]);
const EMPTY: readonly never[] = [];

const byChecker = new WeakMap<ts.TypeChecker, WeakMap<ts.SourceFile, FileFacts>>();

export class FileFacts {
  private readonly defsOf = new Map<ts.Symbol, Def[]>();
  private readonly pushesOf = new Map<ts.Symbol, MethodCall[]>();
  private readonly callsOf = new Map<ts.Symbol, MethodCall[]>();
  private readonly propWritesOf = new Map<ts.Symbol, PropWrite[]>();
  private readonly mutated = new Set<ts.Symbol>();
  /** Every function-like declaration with a body, in source order. */
  readonly functions: ts.SignatureDeclaration[] = [];
  /** Every call in the file, in source order. */
  readonly calls: ts.CallExpression[] = [];

  /** The facts of `sf` under `checker`: computed on first use, then kept as long as both live. */
  static of(checker: ts.TypeChecker, sf: ts.SourceFile, budget: Budget): FileFacts {
    let files = byChecker.get(checker);
    if (!files) byChecker.set(checker, (files = new WeakMap()));
    let facts = files.get(sf);
    if (!facts) {
      facts = new FileFacts(checker, sf, budget);
      files.set(sf, facts);
    }
    return facts;
  }

  private constructor(
    private readonly checker: ts.TypeChecker,
    sf: ts.SourceFile,
    budget: Budget,
  ) {
    // An explicit stack: a key of 5,000 concatenated parts is a tree 5,000 deep.
    const stack: ts.Node[] = [sf];
    const children: ts.Node[] = [];
    while (stack.length) {
      budget.tick();
      const n = stack.pop()!;
      this.visit(n);
      ts.forEachChild(n, (c) => void children.push(c));
      while (children.length) stack.push(children.pop()!);
    }
  }

  /** Every write to a variable, in source order; empty for a variable written nowhere in this file. */
  defs(sym: ts.Symbol | undefined): readonly Def[] {
    return (sym && this.defsOf.get(sym)) ?? EMPTY;
  }

  /** `x.push(…)` and `x.unshift(…)` calls. */
  pushes(sym: ts.Symbol | undefined): readonly MethodCall[] {
    return (sym && this.pushesOf.get(sym)) ?? EMPTY;
  }

  /** Every `x.m(…)` call on the variable. */
  callsOn(sym: ts.Symbol | undefined): readonly MethodCall[] {
    return (sym && this.callsOf.get(sym)) ?? EMPTY;
  }

  /** Properties written after the object was made. */
  propWrites(sym: ts.Symbol | undefined): readonly PropWrite[] {
    return (sym && this.propWritesOf.get(sym)) ?? EMPTY;
  }

  /** True when the array is changed in place other than by push (splice, sort, an element assignment…). */
  isMutated(sym: ts.Symbol | undefined): boolean {
    return !!sym && this.mutated.has(sym);
  }

  private add<T>(map: Map<ts.Symbol, T[]>, sym: ts.Symbol | undefined, item: T): void {
    if (!sym) return;
    const list = map.get(sym);
    if (list) list.push(item);
    else map.set(sym, [item]);
  }

  private symbol(e: ts.Node): ts.Symbol | undefined {
    return this.checker.getSymbolAtLocation(e);
  }

  private visit(n: ts.Node): void {
    if (ts.isVariableDeclaration(n)) this.declaration(n);
    else if (ts.isBinaryExpression(n)) this.binary(n);
    else if (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) {
      const op = n.operator;
      const target = unwrap(n.operand);
      if ((op === ts.SyntaxKind.PlusPlusToken || op === ts.SyntaxKind.MinusMinusToken) && ts.isIdentifier(target))
        this.add(this.defsOf, this.symbol(target), { kind: "compound", at: n });
    } else if (ts.isCallExpression(n)) this.call(n);
    else if (ts.isCatchClause(n) && n.variableDeclaration && ts.isIdentifier(n.variableDeclaration.name))
      this.add(this.defsOf, this.symbol(n.variableDeclaration.name), { kind: "opaque", at: n });
    else if (ts.isFunctionLike(n) && (n as ts.FunctionLikeDeclaration).body) this.functions.push(n);
  }

  private declaration(d: ts.VariableDeclaration): void {
    const list = d.parent;
    const loop = ts.isVariableDeclarationList(list) ? list.parent : undefined;
    if (ts.isIdentifier(d.name)) {
      const sym = this.symbol(d.name);
      if (loop && ts.isForOfStatement(loop) && loop.initializer === list)
        this.add(this.defsOf, sym, { kind: "forOf", value: loop.expression, at: loop });
      else if (loop && ts.isForInStatement(loop) && loop.initializer === list) this.add(this.defsOf, sym, { kind: "opaque", at: loop });
      else if (d.initializer) this.add(this.defsOf, sym, { kind: "init", value: d.initializer, at: d });
      return;
    }
    // `const { a, b: c } = v`: each name is a property of v (one level; deeper patterns are opaque).
    const forLoop = loop && (ts.isForOfStatement(loop) || ts.isForInStatement(loop)) && loop.initializer === list;
    for (const el of ts.isObjectBindingPattern(d.name) ? d.name.elements : []) {
      if (!ts.isIdentifier(el.name)) continue;
      const prop = el.propertyName ? propertyNameText(el.propertyName) : el.name.text;
      const def: Def =
        forLoop || !d.initializer || el.dotDotDotToken || prop === undefined
          ? { kind: "opaque", at: d }
          : { kind: "binding", value: d.initializer, property: prop, at: d };
      this.add(this.defsOf, this.symbol(el.name), def);
    }
    if (ts.isArrayBindingPattern(d.name)) this.opaqueNames(d.name, d);
  }

  private binary(b: ts.BinaryExpression): void {
    const op = b.operatorToken.kind;
    if (op < ts.SyntaxKind.FirstAssignment || op > ts.SyntaxKind.LastAssignment) return;
    const left = unwrap(b.left);
    if (ts.isIdentifier(left)) {
      this.add(this.defsOf, this.symbol(left), { kind: COMPOUND.has(op) ? "compound" : "assign", value: b.right, at: b });
    } else if (ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) {
      const base = unwrap(left.expression);
      if (!ts.isIdentifier(base)) return;
      const sym = this.symbol(base);
      const name = ts.isPropertyAccessExpression(left)
        ? left.name.text
        : ts.isStringLiteralLike(left.argumentExpression)
          ? left.argumentExpression.text
          : undefined;
      const prefix = name === undefined && ts.isElementAccessExpression(left) ? literalPrefix(left.argumentExpression) : undefined;
      this.add(this.propWritesOf, sym, { name, ...(prefix ? { prefix } : {}), value: COMPOUND.has(op) ? undefined : b.right, at: b });
      if (ts.isElementAccessExpression(left) && sym) this.mutated.add(sym);
    } else if (ts.isObjectLiteralExpression(left) || ts.isArrayLiteralExpression(left)) this.opaqueNames(left, b);
  }

  /** Every identifier written by a destructuring pattern: values nobody follows. */
  private opaqueNames(pattern: ts.Node, at: ts.Node): void {
    const visit = (n: ts.Node): void => {
      if (ts.isIdentifier(n)) {
        const p = n.parent;
        // Property names of a pattern are not written; the names bound are.
        if ((ts.isBindingElement(p) && p.propertyName === n) || (ts.isPropertyAssignment(p) && p.name === n)) return;
        this.add(this.defsOf, this.symbol(n), { kind: "opaque", at });
      } else if (!ts.isComputedPropertyName(n) && !(ts.isPropertyAssignment(n.parent) && n.parent.name === n)) ts.forEachChild(n, visit);
    };
    visit(pattern);
  }

  private call(c: ts.CallExpression): void {
    this.calls.push(c);
    const callee = c.expression;
    if (!ts.isPropertyAccessExpression(callee)) return;
    const receiver = unwrap(callee.expression);
    const method = callee.name.text;
    if (method === "assign" && ts.isIdentifier(receiver) && receiver.text === "Object" && c.arguments[0]) {
      const target = unwrap(c.arguments[0]);
      if (ts.isIdentifier(target)) this.add(this.propWritesOf, this.symbol(target), { at: c });
      return;
    }
    if (!ts.isIdentifier(receiver) && !isThisProperty(receiver)) return;
    const sym = this.symbol(receiver);
    if (!sym) return;
    this.add(this.callsOf, sym, c as MethodCall);
    if (method === "push" || method === "unshift") this.add(this.pushesOf, sym, c as MethodCall);
    else if (MUTATORS.has(method)) this.mutated.add(sym);
  }
}

/** `this.x`: a field of the class, followed like a variable. */
function isThisProperty(e: ts.Expression): e is ts.PropertyAccessExpression {
  return ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword;
}

function unwrap(e: ts.Expression): ts.Expression {
  let x = e;
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isNonNullExpression(x) || ts.isSatisfiesExpression(x))
    x = x.expression;
  return x;
}

function propertyNameText(n: ts.PropertyName): string | undefined {
  return ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n) ? n.text : undefined;
}

/** Array methods whose callback runs once per element of the receiver. */
const PER_ELEMENT = new Set(["forEach", "map", "flatMap", "filter", "some", "every", "find", "reduce"]);

/**
 * The loops that repeat a node, innermost first, up to (not including) the
 * innermost node that holds `scope` (the declaration of the variable the
 * node fills: loops around the whole variable do not multiply its count).
 * A loop repeats its body only; a callback of an array method
 * (`items.forEach((x) => …)`) repeats once per element of its receiver, so
 * the call stands for that loop. Other callbacks count as running once.
 */
export function enclosingLoops(n: ts.Node, scope?: ts.Node): Array<ts.IterationStatement | MethodCall> {
  const out: Array<ts.IterationStatement | MethodCall> = [];
  let child: ts.Node = n;
  for (let p = n.parent; p && !ts.isSourceFile(p); child = p, p = p.parent) {
    if (scope && p.pos <= scope.pos && scope.end <= p.end) break;
    if (ts.isIterationStatement(p, false)) {
      if (child === p.statement) out.push(p);
    } else if ((ts.isArrowFunction(p) || ts.isFunctionExpression(p)) && ts.isCallExpression(p.parent)) {
      const call = p.parent;
      if (ts.isPropertyAccessExpression(call.expression) && PER_ELEMENT.has(call.expression.name.text) && call.arguments[0] === p)
        out.push(call as MethodCall);
    }
  }
  return out;
}

/** The literal text a computed property name starts with: `"budget" + q`, `` `budget${q}` ``; undefined when none. */
function literalPrefix(e: ts.Expression): string | undefined {
  let x = unwrap(e);
  while (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.PlusToken) x = unwrap(x.left);
  if (ts.isStringLiteralLike(x)) return x.text || undefined;
  if (ts.isTemplateExpression(x)) return x.head.text || undefined;
  return undefined;
}
