/**
 * Where a `TableClient` came from: the table it was made for (a literal
 * name, through constants, class fields set in a constructor and helper
 * functions such as `getTableClient("visitors")`), and — when the SDK's
 * types do not resolve — whether an untyped receiver was made as a
 * `TableClient` or a `TableTransaction` at all.
 */
import ts from "typescript";
import { KeyDecomposer, skipOuter, symbolOf } from "./key-parts";
import { Env, NO_ENV } from "./values";

const MAX_DEPTH = 5;

/** The expression a table's name comes from when it is not a literal: `id` tells sources apart, `shown` names it. */
export interface TableSource {
  id: string;
  shown: string;
}

export class ClientOrigins {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly decomposer: KeyDecomposer,
  ) {}

  /**
   * The table name of the client a receiver holds, when it is a literal somewhere on the way. `env`
   * binds the parameters of the helper the receiver is in (the client a caller passes).
   */
  tableName(receiver: ts.Expression, env: Env = NO_ENV): string | undefined {
    const named = this.nameArgument(receiver, env);
    return named && this.literal(named.arg, named.params);
  }

  /**
   * Where the name of a client's table comes from when it is not a literal (`process.env.TABLE ?? "Trips"`, a
   * constant read from the environment): the same source is the same table, whatever its name at run time.
   */
  tableSource(receiver: ts.Expression, env: Env = NO_ENV): TableSource | undefined {
    const named = this.nameArgument(receiver, env);
    return named && this.sourceOf(named.arg, named.params, 0);
  }

  /** The expression that names a receiver's table where the client is made, with the helper parameters bound there. */
  private nameArgument(receiver: ts.Expression, env: Env): { arg: ts.Expression; params: Map<ts.Symbol, ts.Expression> } | undefined {
    const x = skipOuter(receiver);
    const bound = ts.isIdentifier(x) ? env.get(symbolOf(this.checker, x)!) : undefined;
    if (bound) return this.nameArgument(bound.expr, bound.env);
    // The helper's parameters, as the name lookup binds them (`fromConnectionString(cs, name)` with `name` bound).
    const params = new Map<ts.Symbol, ts.Expression>();
    for (const [sym, b] of env) params.set(sym, b.expr);
    return this.tableOf(receiver, params, 0);
  }

  private sourceOf(e: ts.Expression, params: Map<ts.Symbol, ts.Expression>, depth: number): TableSource | undefined {
    const x = skipOuter(e);
    if (depth > MAX_DEPTH) return undefined;
    const at = (n: ts.Node) => `${n.getSourceFile().fileName}:${n.getStart()}`;
    if (ts.isIdentifier(x)) {
      const sym = symbolOf(this.checker, x);
      const bound = sym && params.get(sym);
      if (bound) return this.sourceOf(bound, params, depth + 1);
      const decl = sym?.valueDeclaration;
      // A parameter not bound here is whatever each caller passes: no one source.
      if (!decl || ts.isParameter(decl)) return undefined;
      return { id: at(decl), shown: x.text };
    }
    const text = x.getText();
    return { id: at(x), shown: text.length > 60 ? `${text.slice(0, 57)}…` : text };
  }

  private tableOf(
    e: ts.Expression,
    params: Map<ts.Symbol, ts.Expression>,
    depth: number,
  ): { arg: ts.Expression; params: Map<ts.Symbol, ts.Expression> } | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const made = this.madeBy(e);
    if (!made) return undefined;
    // `new TableClient(url, "Name", credential)`, `TableClient.fromConnectionString(cs, "Name")`.
    // `TableServiceClient#getTableClient("Name")` names it first.
    const arg = ts.isNewExpression(made)
      ? made.arguments?.[1]
      : isFactory(made)
        ? made.arguments[1]
        : isServiceGetter(made)
          ? made.arguments[0]
          : undefined;
    if (arg) return { arg, params };
    if (!ts.isCallExpression(made)) return undefined;
    // A helper that makes the client: follow its returned expression, its parameters bound to this call's arguments.
    const returned = this.decomposer.returnedExpression(made);
    const decl = this.checker.getResolvedSignature(made)?.declaration;
    if (!returned || !decl || !ts.isFunctionLike(decl)) return undefined;
    const bound = new Map(params);
    decl.parameters.forEach((p, i) => {
      const sym = this.checker.getSymbolAtLocation(p.name);
      const value = made.arguments[i] ?? p.initializer;
      if (sym && value) bound.set(sym, value);
    });
    return this.tableOf(returned, bound, depth + 1);
  }

  /** The expression that made the value a receiver holds: itself, a variable's initializer, or a field's assignment in the constructor. */
  private madeBy(e: ts.Expression): ts.NewExpression | ts.CallExpression | undefined {
    let x = skipOuter(e);
    if (ts.isAwaitExpression(x)) x = skipOuter(x.expression);
    if (ts.isNewExpression(x) || ts.isCallExpression(x)) return x;
    if (!ts.isIdentifier(x) && !ts.isPropertyAccessExpression(x)) return undefined;
    const decl = this.declarationOf(x);
    if (!decl) return undefined;
    let init: ts.Expression | undefined;
    // A local name: its one value (a `let` assigned once too); a name reached through an import: a `const`'s initializer.
    if (ts.isVariableDeclaration(decl))
      init =
        ts.isIdentifier(x) && symbolOf(this.checker, x)?.valueDeclaration === decl ? this.decomposer.constInitializer(x) : constInit(decl);
    else if (ts.isPropertyDeclaration(decl)) init = decl.initializer ?? constructorAssignment(decl);
    // JavaScript's `exports.client = …` / `module.exports.client = …`, and object literal members.
    else if (ts.isBinaryExpression(decl) && decl.operatorToken.kind === ts.SyntaxKind.EqualsToken) init = decl.right;
    else if (
      (ts.isPropertyAccessExpression(decl) || ts.isElementAccessExpression(decl)) &&
      ts.isBinaryExpression(decl.parent) &&
      decl.parent.left === decl
    )
      init = decl.parent.right;
    else if (ts.isPropertyAssignment(decl)) init = decl.initializer;
    if (!init) return undefined;
    init = skipOuter(init);
    if (ts.isAwaitExpression(init)) init = skipOuter(init.expression);
    return ts.isNewExpression(init) || ts.isCallExpression(init) ? init : undefined;
  }

  /**
   * The declaration behind a name, through imports (`import { client } from "./tables"`) and
   * destructured requires (`const { client } = require("./tables")`), to where the value is made.
   */
  private declarationOf(x: ts.Identifier | ts.PropertyAccessExpression): ts.Declaration | undefined {
    let sym = symbolOf(this.checker, x as ts.Identifier);
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = this.checker.getAliasedSymbol(sym);
    let decl = sym?.valueDeclaration;
    if (
      decl &&
      ts.isBindingElement(decl) &&
      ts.isObjectBindingPattern(decl.parent) &&
      ts.isVariableDeclaration(decl.parent.parent) &&
      decl.parent.parent.initializer
    ) {
      const name = (decl.propertyName ?? decl.name).getText();
      const source = this.checker.getTypeAtLocation(decl.parent.parent.initializer).getProperty(name);
      decl = source?.valueDeclaration;
      if (decl && ts.isShorthandPropertyAssignment(decl)) decl = this.checker.getShorthandAssignmentValueSymbol(decl)?.valueDeclaration;
    }
    return decl;
  }

  private literal(e: ts.Expression, params: Map<ts.Symbol, ts.Expression>): string | undefined {
    const x = skipOuter(e);
    if (ts.isIdentifier(x)) {
      const sym = symbolOf(this.checker, x);
      const bound = sym && params.get(sym);
      if (bound) return this.literal(bound, params);
    }
    const parts = this.decomposer.parts(x);
    return parts.length && parts.every((p) => p.kind === "literal") ? parts.map((p) => p.text).join("") : undefined;
  }

  /** Without the SDK's types: `new TableClient(…)`, `TableClient.fromConnectionString(…)` or a declared type name, for a receiver. */
  createdAs(receiver: ts.Expression): string | undefined {
    const x = skipOuter(receiver);
    const sym = ts.isIdentifier(x) || ts.isPropertyAccessExpression(x) ? this.checker.getSymbolAtLocation(x) : undefined;
    const decl = sym?.valueDeclaration;
    if (!decl) return undefined;
    if (
      (ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl) || ts.isParameter(decl)) &&
      decl.type &&
      ts.isTypeReferenceNode(decl.type)
    ) {
      return decl.type.typeName.getText();
    }
    const made = this.madeBy(x);
    if (made && ts.isNewExpression(made) && ts.isIdentifier(made.expression)) return made.expression.text;
    if (
      made &&
      ts.isCallExpression(made) &&
      ts.isPropertyAccessExpression(made.expression) &&
      ts.isIdentifier(made.expression.expression)
    ) {
      return made.expression.expression.text;
    }
    return undefined;
  }
}

/** A `const` declaration's initializer (a declaration reached through an import or a require). */
function constInit(decl: ts.VariableDeclaration): ts.Expression | undefined {
  return (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0 ? decl.initializer : undefined;
}

/** `X.fromConnectionString(cs, name)`: the SDK's static factory. */
function isFactory(call: ts.CallExpression): boolean {
  return ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === "fromConnectionString";
}

/** `service.getTableClient(name)` (the SDK's TableServiceClient, or a helper of that name): the table is its one argument. */
function isServiceGetter(call: ts.CallExpression): boolean {
  return ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === "getTableClient" && call.arguments.length === 1;
}

/** `this.client = …` in the constructor of the field's class. */
function constructorAssignment(field: ts.PropertyDeclaration): ts.Expression | undefined {
  const cls = field.parent;
  const name = field.name.getText();
  const ctor = cls.members.find(ts.isConstructorDeclaration);
  let found: ts.Expression | undefined;
  const visit = (n: ts.Node): void => {
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(n.left) &&
      n.left.expression.kind === ts.SyntaxKind.ThisKeyword &&
      n.left.name.text === name
    )
      found ??= n.right;
    else if (!ts.isFunctionLike(n) || n === ctor) ts.forEachChild(n, visit);
  };
  if (ctor) visit(ctor);
  return found;
}
