/**
 * How the analysis knows a call is an `@azure/data-tables` call: by the
 * checker's types, not by names or imports. A call's method is the SDK's
 * when the symbol the checker resolves for it is declared by the SDK's
 * `TableClient` or `TableTransaction` — whatever the receiver's type looks
 * like on the way (a helper's return, a field, `TableClient & {…}`,
 * `Pick<TableClient, …>`, `TableClient | undefined`, a type parameter
 * constrained by it, a JSDoc type in JavaScript).
 *
 * Two cheap pre-filters keep ordinary code untouched: a file whose text
 * names none of the SDK's methods is never walked, and a program that
 * holds none of the SDK's declaration files is never asked about types.
 */
import ts from "typescript";

export const SDK = "@azure/data-tables";
export const WRITE_METHODS: ReadonlySet<string> = new Set(["createEntity", "upsertEntity", "updateEntity"]);
export const CLIENT_METHODS: ReadonlySet<string> = new Set([
  ...WRITE_METHODS,
  "deleteEntity",
  "getEntity",
  "listEntities",
  "submitTransaction",
]);

export type SdkKind = "client" | "transaction";

/** True when the text names an SDK method: only such files can call one. A few substring searches, linear in the text. */
export function mayCallSdk(text: string): boolean {
  for (const m of CLIENT_METHODS) if (text.includes(m)) return true;
  return false;
}

/** True when the file imports or requires `@azure/data-tables` (the fallback when the SDK's types do not resolve). */
export function importsSdk(sf: ts.SourceFile): boolean {
  if (!sf.text.includes(SDK)) return false;
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.moduleSpecifier.text === SDK) return true;
  }
  return /require\(\s*["']@azure\/data-tables["']\s*\)|import\(\s*["']@azure\/data-tables["']\s*\)/.test(sf.text);
}

/** A declaration file of the SDK package (in node_modules, or a monorepo's linked copy). */
export function isSdkFile(sf: ts.SourceFile): boolean {
  return sf.isDeclarationFile && /[\\/]@azure[\\/]data-tables[\\/]/.test(sf.fileName);
}

const resolvedIn = new WeakMap<ts.Program, boolean>();

/** True when the program holds the SDK's declarations (its types resolve somewhere in the project); computed once per program. */
export function sdkResolves(program: ts.Program): boolean {
  let known = resolvedIn.get(program);
  if (known === undefined) {
    known = program.getSourceFiles().some(isSdkFile);
    resolvedIn.set(program, known);
  }
  return known;
}

/** The SDK class that declares the method a call resolves to, from the checker. */
export function sdkKindOf(checker: ts.TypeChecker, name: ts.MemberName): SdkKind | undefined {
  const sym = checker.getSymbolAtLocation(name);
  for (const d of sym?.declarations ?? []) {
    const owner = d.parent;
    if (!(ts.isClassDeclaration(owner) || ts.isInterfaceDeclaration(owner)) || !owner.name || !isSdkFile(d.getSourceFile())) continue;
    if (owner.name.text === "TableClient") return "client";
    if (owner.name.text === "TableTransaction") return "transaction";
  }
  return undefined;
}
