/**
 * Reads made through the application's own helpers, summarised over their
 * parameters: a callable (function declaration, arrow or function in a
 * variable or property, class or object-literal method) whose body reads
 * with `getEntity` — directly or through another such helper — and returns
 * something made from what it read (the entity itself, a record mapped from
 * it). At a call site the summary is instantiated with the call's arguments:
 * the read's keys become text in the caller's words (`toRowKey(input.id)`),
 * comparable with the keys of a write there. Bounded: three helpers deep.
 */
import ts from "typescript";
import { sdkKindOf } from "./sdk";
import { skipOuter } from "./syntax";
import type { Env } from "./values";

const MAX_DEPTH = 3;
/** The text of a key made from a helper's locals: equal to no key written by a caller. */
const LOCAL = "\u0000local";

/** The keys a helper's read uses, as text in the words of the call that runs the helper. */
export interface HelperRead {
  /** The SDK getEntity call inside the helper (or a helper it calls). */
  get: ts.CallExpression;
  partitionKey: string;
  rowKey: string;
}

/** Text of an expression with the names bound in `names` replaced by their text (a parameter by the argument passed). */
export function instantiate(e: ts.Node, names: (sym: ts.Symbol) => string | undefined, checker: ts.TypeChecker): string {
  const sf = e.getSourceFile();
  const start = e.getStart(sf);
  let out = "";
  let at = start;
  // Walked with a stack of its own, in source order; identifiers replaced where a binding says.
  const stack: ts.Node[] = [e];
  while (stack.length) {
    const n = stack.pop()!;
    if (ts.isIdentifier(n) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n)) {
      const sym = checker.getSymbolAtLocation(n);
      // A constant that holds a literal compares as that literal (`const pk = "pages"` is "pages").
      const passed = sym && names(sym) === undefined ? (argumentInPlace(sym) ?? destructuredFrom(sym)) : undefined;
      const text = sym && (names(sym) ?? literalOf(sym) ?? (passed && instantiate(passed, names, checker)));
      if (text !== undefined) {
        out += sf.text.slice(at, n.getStart(sf)) + text;
        at = n.getEnd();
      }
      continue;
    }
    const children: ts.Node[] = [];
    ts.forEachChild(n, (c) => void children.push(c));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return normal(out + sf.text.slice(at, e.getEnd()));
}

/** Text with its spacing, quotes and trailing commas made uniform: two spellings of one key compare equal. */
export function normal(text: string): string {
  return text.replace(/\s+/g, "").replace(/'/g, '"').replace(/,\)/g, ")");
}

/** The text of an expression evaluated where `env` binds the parameters of the helpers it sits in. */
export function textIn(e: ts.Expression, env: Env | undefined, checker: ts.TypeChecker, depth = 0): string {
  return instantiate(
    e,
    (sym) => {
      const bound = env?.get(sym);
      return bound && depth < MAX_DEPTH ? textIn(bound.expr, bound.env, checker, depth + 1) : undefined;
    },
    checker,
  );
}

export class HelperReads {
  private readonly memo = new Map<ts.Node, ts.CallExpression[] | null>();

  constructor(private readonly checker: ts.TypeChecker) {}

  /** The read a call of a helper makes and returns, with its keys in the call's words; undefined when it makes none. */
  at(
    call: ts.CallExpression,
    outer: (sym: ts.Symbol) => string | undefined = () => undefined,
    depth = 0,
    enclosing?: ts.FunctionLikeDeclaration,
  ): HelperRead | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const decl = this.callee(call);
    if (!decl) return undefined;
    const args = new Map<ts.Symbol, string>();
    decl.parameters.forEach((p, i) => {
      const sym = ts.isIdentifier(p.name) ? this.checker.getSymbolAtLocation(p.name) : undefined;
      const arg = call.arguments[i] ?? p.initializer;
      // An argument made from the enclosing helper's locals is not in the first caller's words: it matches nothing.
      if (sym && arg) args.set(sym, enclosing && this.usesLocals(arg, enclosing) ? LOCAL : instantiate(arg, outer, this.checker));
    });
    const names = (sym: ts.Symbol) => args.get(sym);
    for (const read of this.readsReturned(decl)) {
      if (this.isGetEntity(read)) {
        const [pk, rk] = read.arguments;
        // A key made from the helper's own locals is not in the caller's words: nothing to compare.
        if (!pk || !rk || this.usesLocals(pk, decl) || this.usesLocals(rk, decl)) continue;
        const keys = [instantiate(pk, names, this.checker), instantiate(rk, names, this.checker)];
        if (keys.some((k) => k.includes(LOCAL))) continue;
        return { get: read, partitionKey: instantiate(pk, names, this.checker), rowKey: instantiate(rk, names, this.checker) };
      }
      const inner = this.at(read, names, depth + 1, decl);
      if (inner) return inner;
    }
    return undefined;
  }

  /** True when an expression mentions a variable declared inside the function (not one of its parameters). */
  private usesLocals(e: ts.Expression, decl: ts.FunctionLikeDeclaration): boolean {
    const body = decl.body!;
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isIdentifier(n) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n)) {
        const d = this.checker.getSymbolAtLocation(n)?.valueDeclaration;
        if (d && !ts.isParameter(d) && d.getSourceFile() === body.getSourceFile() && d.pos >= body.pos && d.end <= body.end) found = true;
      }
      ts.forEachChild(n, visit);
    };
    visit(e);
    return found;
  }

  /** The function a call runs, when it is the program's own (not a declaration file's). */
  private callee(call: ts.CallExpression): ts.FunctionLikeDeclaration | undefined {
    const decl = this.checker.getResolvedSignature(call)?.declaration;
    if (!decl || !ts.isFunctionLike(decl) || decl.getSourceFile().isDeclarationFile) return undefined;
    const fn = decl as ts.FunctionLikeDeclaration;
    return fn.body ? fn : undefined;
  }

  /**
   * The calls in a helper's body whose result flows to what it returns: a getEntity, or a call of another
   * function of the program (a helper that may read, asked in turn), when a `return` holds it or a variable made from it.
   */
  private readsReturned(decl: ts.FunctionLikeDeclaration): ts.CallExpression[] {
    const known = this.memo.get(decl);
    if (known !== undefined) return known ?? [];
    this.memo.set(decl, null);
    const made = new Map<ts.Symbol, ts.CallExpression[]>();
    const returns: ts.Expression[] = [];
    const body = decl.body!;
    if (!ts.isBlock(body)) returns.push(body);
    // In source order, with a stack of its own; nested functions are other callables (a callback's reads are its own).
    const stack: ts.Node[] = [body];
    while (stack.length) {
      const n = stack.pop()!;
      if (ts.isReturnStatement(n) && n.expression) returns.push(n.expression);
      else if (ts.isVariableDeclaration(n) && n.initializer && ts.isIdentifier(n.name)) {
        const sym = this.checker.getSymbolAtLocation(n.name);
        const from = this.flowsFrom(n.initializer, made);
        if (sym && from.length) made.set(sym, from);
      }
      const children: ts.Node[] = [];
      ts.forEachChild(n, (c) => void (ts.isFunctionLike(c) || children.push(c)));
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
    const out = [...new Set(returns.flatMap((r) => this.flowsFrom(r, made)))];
    // The SDK's reads first: a helper that reads and maps is asked no further.
    out.sort((a, b) => Number(this.isGetEntity(b)) - Number(this.isGetEntity(a)));
    this.memo.set(decl, out);
    return out;
  }

  /** The calls an expression is made from: the reads and program calls it holds, and those of the variables it mentions. */
  private flowsFrom(e: ts.Expression, made: Map<ts.Symbol, ts.CallExpression[]>): ts.CallExpression[] {
    const out: ts.CallExpression[] = [];
    const stack: ts.Node[] = [e];
    while (stack.length) {
      const n = stack.pop()!;
      if (ts.isCallExpression(n) && (this.isGetEntity(n) || this.callee(n))) out.push(n);
      else if (ts.isIdentifier(n)) {
        const sym = this.checker.getSymbolAtLocation(n);
        out.push(...((sym && made.get(sym)) ?? []));
      }
      ts.forEachChild(n, (c) => void (ts.isFunctionLike(c) || stack.push(c)));
    }
    return out;
  }

  private isGetEntity(x: ts.Expression): x is ts.CallExpression {
    if (!ts.isCallExpression(x) || !ts.isPropertyAccessExpression(x.expression) || x.expression.name.text !== "getEntity") return false;
    if (sdkKindOf(this.checker, x.expression.name) === "client") return true;
    return (this.checker.getTypeAtLocation(x.expression.expression).flags & ts.TypeFlags.Any) !== 0;
  }
}

/** The literal a `const` holds (`const pk = "pages"`), as it is written; undefined for anything else. */
function literalOf(sym: ts.Symbol): string | undefined {
  const d = sym.valueDeclaration;
  if (!d || !ts.isVariableDeclaration(d) || !d.initializer || !(ts.getCombinedNodeFlags(d) & ts.NodeFlags.Const)) return undefined;
  const init = d.initializer;
  return ts.isStringLiteralLike(init) || ts.isNumericLiteral(init) ? JSON.stringify(init.text) : undefined;
}

/** What a name taken out of an object literal stands for: `const { pk, rk = item } = { pk: shop }` gives `pk` the text `shop`, `rk` `item`. */
function destructuredFrom(sym: ts.Symbol): ts.Expression | undefined {
  const b = sym.valueDeclaration;
  if (!b || !ts.isBindingElement(b) || b.dotDotDotToken || !ts.isObjectBindingPattern(b.parent)) return undefined;
  const holder = b.parent.parent;
  if (!ts.isVariableDeclaration(holder) || !(ts.getCombinedNodeFlags(holder) & ts.NodeFlags.Const) || !holder.initializer) return undefined;
  const obj = skipOuter(holder.initializer);
  const key = b.propertyName ?? b.name;
  const name = ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : undefined;
  if (!name || !ts.isObjectLiteralExpression(obj) || obj.properties.some((p) => ts.isSpreadAssignment(p))) return undefined;
  const p = obj.properties.find((x) => x.name && (ts.isIdentifier(x.name) || ts.isStringLiteral(x.name)) && x.name.text === name);
  if (p && ts.isPropertyAssignment(p)) return p.initializer;
  if (p && ts.isShorthandPropertyAssignment(p)) return p.name;
  return p ? undefined : b.initializer;
}

/** The argument a parameter of a function invoked where it is written gets (`((pk) => …)(shop)` gives `pk` the text `shop`). */
function argumentInPlace(sym: ts.Symbol): ts.Expression | undefined {
  const p = sym.valueDeclaration;
  if (!p || !ts.isParameter(p)) return undefined;
  const fn = p.parent;
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
  let outer: ts.Node = fn;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const call = outer.parent;
  return ts.isCallExpression(call) && call.expression === outer ? call.arguments[fn.parameters.indexOf(p)] : undefined;
}
