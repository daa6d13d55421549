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
  kind(receiver: ts.Expression): SdkKind | undefined {
    let found: SdkKind | undefined;
    for (const v of this.values.values(receiver)) {
      if (v.kind !== "expr") continue;
      const k = this.madeAs(skipValue(v.expr));
      if (k && found && k !== found) return undefined;
      found = k ?? found;
    }
    return found;
  }

  /** True when every value of the receiver is made as something else (`new MockTableClient(…)`): not the SDK's, nothing to say. */
  madeElse(receiver: ts.Expression): boolean {
    const vals = this.values.values(receiver);
    return (
      vals.length > 0 && vals.every((v) => v.kind === "expr" && ts.isNewExpression(skipValue(v.expr)) && !this.madeAs(skipValue(v.expr)))
    );
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

function lastName(e: ts.Expression): string | undefined {
  const x = skipOuter(e);
  if (ts.isIdentifier(x)) return x.text;
  if (ts.isPropertyAccessExpression(x)) return x.name.text;
  return undefined;
}

function classKind(name: string | undefined): SdkKind | undefined {
  return name === "TableClient" ? "client" : name === "TableTransaction" ? "transaction" : undefined;
}
