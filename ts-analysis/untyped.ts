/**
 * Clients the checker types `any`: a factory with a branch that calls a
 * method the SDK does not have, an untyped JavaScript cache (`let cached =
 * null`), a default import of the SDK under some module settings, an
 * untyped parameter. The common cases are recovered by following the
 * receiver's values to where it is made (`new X.TableClient(…)`,
 * `TableClient.fromConnectionString(…)`, `service.getTableClient(…)`, a
 * typed branch); the others are named — why the analysis is blind there —
 * so that the user hears it once instead of seeing nothing.
 */
import ts from "typescript";
import { isSdkFile, SdkKind } from "./sdk";
import { skipOuter } from "./syntax";
import { Env, skipValue, ValueResolver } from "./values";

export class UntypedClients {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly values: ValueResolver,
  ) {}

  /** The SDK class an untyped receiver holds, when one of its values is made as one (and none as the other). */
  kind(receiver: ts.Expression, depth = 0): SdkKind | undefined {
    const found = this.kindOfValues(receiver);
    if (found) return found;
    // An untyped parameter (`async _update(client, pk, rk)` in JavaScript): what every call of its function in this file passes.
    const values = this.values.values(receiver);
    const only = values.length === 1 && values[0].kind === "expr" ? skipValue(values[0].expr) : undefined;
    const target = only ?? (ts.isPropertyAccessExpression(skipOuter(receiver)) ? skipOuter(receiver) : undefined);
    return target && depth < 3 ? this.fromCallers(target, depth) : undefined;
  }

  private kindOfValues(receiver: ts.Expression): SdkKind | undefined {
    let found: SdkKind | undefined;
    for (const v of this.values.values(receiver)) {
      if (v.kind !== "expr") continue;
      const k = this.madeAs(skipValue(v.expr));
      if (k && found && k !== found) return undefined;
      found = k ?? found;
    }
    return found;
  }

  /** The SDK class every call of the parameter's function (in its file) passes for it; undefined when one passes something else. */
  private fromCallers(e: ts.Expression, depth: number): SdkKind | undefined {
    // `self.client` of an untyped parameter `self`: that property of what each call passes (`helper(this)`).
    const path: string[] = [];
    let x = skipOuter(e);
    while (ts.isPropertyAccessExpression(x) && path.length < 3) {
      path.unshift(x.name.text);
      x = skipOuter(x.expression);
    }
    if (!ts.isIdentifier(x)) return undefined;
    const p = this.checker.getSymbolAtLocation(x)?.valueDeclaration;
    if (!p || !ts.isParameter(p) || p.type || p.dotDotDotToken || !ts.isIdentifier(p.name)) return undefined;
    const fn = p.parent;
    const name = fn.name && ts.isIdentifier(fn.name) ? fn.name.text : undefined;
    if (!name || !(ts.isMethodDeclaration(fn) || ts.isFunctionDeclaration(fn))) return undefined;
    const index = fn.parameters.indexOf(p);
    const calls = (callsByName(fn.getSourceFile()).get(name) ?? []).filter((c) => this.checker.getResolvedSignature(c)?.declaration === fn);
    let found: SdkKind | undefined;
    for (const c of calls) {
      const arg = c.arguments[index];
      // A parameter passed on from another function's parameter: its callers in turn (three functions up).
      const k = arg && (path.length ? this.propertyKind(arg, path) : (this.madeAs(skipValue(arg)) ?? this.kind(arg, depth + 1)));
      if (!k || (found && k !== found)) return undefined;
      found = k;
    }
    return found;
  }

  /** The SDK class of property `path` of an argument, by the checker's type of the argument (`this`, with its `client`). */
  private propertyKind(arg: ts.Expression, path: readonly string[]): SdkKind | undefined {
    let t: ts.Type | undefined = this.checker.getTypeAtLocation(arg);
    for (const name of path) {
      const prop: ts.Symbol | undefined = t?.getProperty(name);
      t = prop ? this.checker.getTypeOfSymbolAtLocation(prop, arg) : undefined;
    }
    const sym = t?.getSymbol();
    const decl = sym?.declarations?.[0];
    return sym && decl && isSdkFile(decl.getSourceFile()) ? classKind(sym.getName()) : undefined;
  }

  /**
   * True when every value of the receiver is made as something else (`new MockTableClient(…)`): not the SDK's, nothing
   * to say. A parameter of a function of this file (`readAll(client: MockTableClient)` in a test) is what every call of
   * it passes, three functions up; an exported function may be called with anything, so it is not judged.
   */
  madeElse(receiver: ts.Expression, depth = 0): boolean {
    const vals = this.values.values(receiver);
    return (
      vals.length > 0 &&
      vals.every((v) => {
        if (v.kind !== "expr") return false;
        const x = skipValue(v.expr);
        if (ts.isNewExpression(x)) return !this.madeAs(x);
        const args = depth < 3 ? this.passedFor(x) : undefined;
        return !!args?.length && args.every((a) => this.madeElse(a, depth + 1));
      })
    );
  }

  /** What each call in the file passes for a parameter of a function it declares; undefined when not known (unnamed, or its name escapes the file's calls). */
  private passedFor(x: ts.Expression): ts.Expression[] | undefined {
    const p = ts.isIdentifier(x) ? this.checker.getSymbolAtLocation(x)?.valueDeclaration : undefined;
    if (!p || !ts.isParameter(p) || p.dotDotDotToken) return undefined;
    const fn = p.parent;
    const holder = ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) ? fn.parent : fn;
    const id = (ts.isFunctionDeclaration(holder) || ts.isVariableDeclaration(holder)) && holder.name;
    if (!id || !ts.isIdentifier(id) || escapes(id, this.checker)) return undefined;
    const name = id.text;
    const index = fn.parameters.indexOf(p);
    const calls = (callsByName(fn.getSourceFile()).get(name) ?? []).filter((c) => this.checker.getResolvedSignature(c)?.declaration === fn);
    const args = calls.map((c) => c.arguments[index]);
    return args.every((a): a is ts.Expression => !!a) ? args : undefined;
  }

  /** The expressions that make the receiver's client, with the bindings they are made in (for its table name). */
  makers(receiver: ts.Expression): Array<{ expr: ts.Expression; env: Env }> {
    return this.values
      .values(receiver)
      .filter((v): v is Extract<typeof v, { kind: "expr" }> => v.kind === "expr" && this.madeAs(skipValue(v.expr)) === "client")
      .map((v) => ({ expr: skipValue(v.expr), env: v.env }));
  }

  private madeAs(x: ts.Expression): SdkKind | undefined {
    if (ts.isNewExpression(x)) return classKind(lastName(x.expression));
    if (ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression)) {
      const method = x.expression.name.text;
      if (method === "fromConnectionString") return classKind(lastName(x.expression.expression));
      if (method === "getTableClient") return "client";
    }
    // A branch the checker does type: its type says.
    const sym = this.checker.getTypeAtLocation(x).getSymbol();
    const decl = sym?.declarations?.[0];
    return sym && decl && isSdkFile(decl.getSourceFile()) ? classKind(sym.getName()) : undefined;
  }

  /** Why a receiver is typed `any`, in words, for the hint at the call. */
  why(receiver: ts.Expression): string {
    const x = skipOuter(receiver);
    if (ts.isCallExpression(x)) return `what ${x.expression.getText().slice(0, 60)}() returns is typed any`;
    if (ts.isPropertyAccessExpression(x)) return `'${x.getText().slice(0, 60)}' is typed any`;
    if (!ts.isIdentifier(x)) return "the client's type is any";
    let sym = this.checker.getSymbolAtLocation(x);
    if (sym && sym.flags & ts.SymbolFlags.Alias) {
      const decl = sym.declarations?.[0];
      if (decl && (ts.isImportClause(decl) || ts.isNamespaceImport(decl)))
        return `'${x.text}' is a default import typed any under this project's module settings`;
      sym = this.checker.getAliasedSymbol(sym);
    }
    const decl = sym?.valueDeclaration;
    const declared =
      decl && (ts.isParameter(decl) || ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl)) ? decl.type : undefined;
    if (declared && declared.kind !== ts.SyntaxKind.AnyKeyword)
      return `its type '${declared.getText().slice(0, 60)}' does not resolve here (a package or a path alias not installed?)`;
    if (decl && ts.isParameter(decl)) return `the parameter '${x.text}' ${declared ? "is typed any" : "has no type"}`;
    if (decl && ts.isVariableDeclaration(decl))
      return `the variable '${x.text}' has no type (it is made as something the checker cannot type)`;
    return `'${x.text}' is typed any`;
  }
}

const callIndex = new WeakMap<ts.SourceFile, Map<string, ts.CallExpression[]>>();

/** The calls of a file by the name they call (`f(…)`, `this.f(…)`, `x.f(…)`), found once per file with a stack of its own. */
function callsByName(sf: ts.SourceFile): Map<string, ts.CallExpression[]> {
  let index = callIndex.get(sf);
  if (index) return index;
  callIndex.set(sf, (index = new Map()));
  const stack: ts.Node[] = [sf];
  while (stack.length) {
    const n = stack.pop()!;
    ts.forEachChild(n, (c) => void stack.push(c));
    if (!ts.isCallExpression(n)) continue;
    const name = lastName(n.expression);
    if (!name) continue;
    const list = index.get(name) ?? [];
    list.push(n);
    index.set(name, list);
  }
  return index;
}

/**
 * True when a function's name is used other than to call it (exported, `module.exports = { f }`, passed on):
 * it may then be called with anything.
 */
function escapes(name: ts.Identifier, checker: ts.TypeChecker): boolean {
  // One walk of the file per function name, however many receivers ask (nodes belong to one program, so one checker).
  let known = escaping.get(name);
  if (known === undefined) escaping.set(name, (known = walkEscapes(name, checker)));
  return known;
}
const escaping = new WeakMap<ts.Identifier, boolean>();

function walkEscapes(name: ts.Identifier, checker: ts.TypeChecker): boolean {
  const sf = name.getSourceFile();
  const sym = checker.getSymbolAtLocation(name);
  const holder = name.parent;
  const statement = ts.isVariableDeclaration(holder) ? holder.parent.parent : holder;
  if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return true;
  let out = false;
  const stack: ts.Node[] = [sf];
  while (stack.length && !out) {
    const n = stack.pop()!;
    ts.forEachChild(n, (c) => void stack.push(c));
    if (!ts.isIdentifier(n) || n === name || n.text !== name.text) continue;
    const called = ts.isCallExpression(n.parent) && n.parent.expression === n;
    const s = ts.isShorthandPropertyAssignment(n.parent)
      ? checker.getShorthandAssignmentValueSymbol(n.parent)
      : checker.getSymbolAtLocation(n);
    if (s === sym && !called) out = true;
  }
  return out;
}

function lastName(e: ts.Expression): string | undefined {
  const x = skipOuter(e);
  if (ts.isIdentifier(x)) return x.text;
  if (ts.isPropertyAccessExpression(x)) return x.name.text;
  return undefined;
}

function classKind(name: string | undefined): SdkKind | undefined {
  return name === "TableClient" ? "client" : name === "TableTransaction" ? "transaction" : undefined;
}

/**
 * How a call on a receiver typed `any` has the SDK's shape, in words; undefined when it does not: a write whose entity
 * is an object with `partitionKey` and `rowKey`, a point read or delete with two keys, a listing whose options hold
 * `queryOptions` (or none), a batch of `[operation, entity]` actions. Asked only in a project that depends on the SDK.
 */
export function sdkShape(checker: ts.TypeChecker, call: ts.CallExpression, method: string, values: ValueResolver): string | undefined {
  const [first, second] = call.arguments;
  const has = (e: ts.Expression | undefined, ...names: string[]) =>
    !!e &&
    values.values(e).some((v) => {
      if (v.kind !== "expr") return false;
      const x = skipValue(v.expr);
      if (ts.isObjectLiteralExpression(x))
        return names.every((n) => x.properties.some((p) => p.name && ts.isIdentifier(p.name) && p.name.text === n));
      const t = checker.getTypeAtLocation(x);
      return !(t.flags & ts.TypeFlags.Any) && names.every((n) => !!t.getProperty(n));
    });
  const shape = "its call has the SDK's shape";
  if (["createEntity", "upsertEntity", "updateEntity"].includes(method) && has(first, "partitionKey", "rowKey"))
    return `${shape}: ${method}({ partitionKey, rowKey, … })`;
  if ((method === "getEntity" || method === "deleteEntity") && first && second && call.arguments.length <= 3)
    return `${shape}: ${method}(partitionKey, rowKey)`;
  if (method === "listEntities" && (!first || has(first, "queryOptions")))
    return `${shape}: listEntities(${first ? "{ queryOptions }" : ""})`;
  if (
    method === "submitTransaction" &&
    first &&
    (ts.isArrayLiteralExpression(skipValue(first)) || checker.isArrayType(checker.getTypeAtLocation(first)))
  )
    return `${shape}: submitTransaction([[operation, entity], …])`;
  return undefined;
}
