// TypeScript to JavaScript for the harness's "to JavaScript" rewrite: every type written in the file blanked with
// spaces (lines and columns stay), the way type-stripping runtimes do. Files whose TypeScript changes what the code
// does when its types go (enums, namespaces, parameter properties, decorators, `import x = require`) are left out.
import ts from "typescript";
import { blank, parse } from "./rewrite-syntax.mjs";

const MODIFIERS = new Set([
  ts.SyntaxKind.PublicKeyword,
  ts.SyntaxKind.PrivateKeyword,
  ts.SyntaxKind.ProtectedKeyword,
  ts.SyntaxKind.ReadonlyKeyword,
  ts.SyntaxKind.AbstractKeyword,
  ts.SyntaxKind.OverrideKeyword,
  ts.SyntaxKind.DeclareKeyword,
]);

/** The file's text with its types blanked, or undefined when the file cannot lose its types without changing. */
export function stripTypes(fileName, text) {
  if (!/\.(ts|tsx|mts|cts)$/.test(fileName)) return undefined;
  const sf = parse(fileName, text);
  const ranges = [];
  let refused = false;
  const cut = (start, end) => void ranges.push([start, end]);
  const colonBefore = (type) => text.lastIndexOf(":", type.getStart(sf));
  const angle = (list) => cut(text.lastIndexOf("<", list.pos), text.indexOf(">", list.end) + 1);
  const visit = (n) => {
    if (refused) return;
    const declared = ts.canHaveModifiers(n) && !!ts.getModifiers(n)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword);
    if ((ts.isEnumDeclaration(n) || ts.isModuleDeclaration(n)) && declared) return cut(n.getStart(sf), n.getEnd());
    if (
      ts.isEnumDeclaration(n) ||
      ts.isModuleDeclaration(n) ||
      ts.isImportEqualsDeclaration(n) ||
      ts.isDecorator(n) ||
      (ts.isExportAssignment(n) && n.isExportEquals)
    ) {
      refused = true;
      return;
    }
    if (ts.isParameter(n) && n.modifiers?.some((m) => MODIFIERS.has(m.kind))) {
      refused = true;
      return;
    }
    if (ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isIndexSignatureDeclaration(n))
      return cut(n.getStart(sf), n.getEnd());
    if (n.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) return cut(n.getStart(sf), n.getEnd());
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n)) && !n.body)
      return cut(n.getStart(sf), n.getEnd());
    if ((ts.isPropertyDeclaration(n) || ts.isMethodDeclaration(n)) && n.modifiers?.some((m) => m.kind === ts.SyntaxKind.AbstractKeyword))
      return cut(n.getStart(sf), n.getEnd());
    if (ts.isImportDeclaration(n) && n.importClause?.isTypeOnly) return cut(n.getStart(sf), n.getEnd());
    if (ts.isExportDeclaration(n) && n.isTypeOnly) return cut(n.getStart(sf), n.getEnd());
    if ((ts.isImportSpecifier(n) || ts.isExportSpecifier(n)) && n.isTypeOnly) {
      const comma = text.indexOf(",", n.getEnd());
      const close = text.indexOf("}", n.getEnd());
      return cut(n.getStart(sf), comma >= 0 && comma < close ? comma + 1 : n.getEnd());
    }
    if (ts.isParameter(n) && ts.isIdentifier(n.name) && n.name.text === "this") {
      const list = n.parent.parameters;
      const next = list[list.indexOf(n) + 1];
      return cut(n.getStart(sf), next ? next.getStart(sf) : n.getEnd());
    }
    if (ts.isHeritageClause(n) && n.token === ts.SyntaxKind.ImplementsKeyword) return cut(n.getStart(sf), n.getEnd());
    if (ts.canHaveModifiers(n)) for (const m of ts.getModifiers(n) ?? []) if (MODIFIERS.has(m.kind)) cut(m.getStart(sf), m.getEnd());
    if (
      "type" in n &&
      n.type &&
      ts.isTypeNode(n.type) &&
      !ts.isTypeAliasDeclaration(n) &&
      !ts.isAsExpression(n) &&
      !ts.isSatisfiesExpression(n) &&
      !ts.isTypeAssertionExpression(n)
    )
      cut(colonBefore(n.type), n.type.getEnd());
    if ("typeParameters" in n && n.typeParameters?.length) angle(n.typeParameters);
    if ("typeArguments" in n && n.typeArguments?.length && !ts.isTypeReferenceNode(n)) angle(n.typeArguments);
    if ((ts.isParameter(n) || ts.isPropertyDeclaration(n)) && n.questionToken) cut(n.questionToken.getStart(sf), n.questionToken.getEnd());
    if ((ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n)) && n.exclamationToken)
      cut(n.exclamationToken.getStart(sf), n.exclamationToken.getEnd());
    if (ts.isAsExpression(n) || ts.isSatisfiesExpression(n)) cut(n.expression.getEnd(), n.getEnd());
    if (ts.isTypeAssertionExpression(n)) cut(n.getStart(sf), n.expression.getStart(sf));
    if (ts.isNonNullExpression(n)) cut(n.getEnd() - 1, n.getEnd());
    ts.forEachChild(n, (c) => void visit(c));
  };
  visit(sf);
  if (refused) return undefined;
  // Outermost first; a range inside one already cut is skipped.
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = "";
  let at = 0;
  for (const [s, e] of ranges) {
    if (s < at) continue;
    out += text.slice(at, s) + blank(text.slice(s, e));
    at = e;
  }
  out += text.slice(at);
  // What is left must be JavaScript: a file TypeScript alone can read is not a rewrite.
  const js = ts.createSourceFile(
    fileName.replace(/ts(x?)$/, "js$1"),
    out,
    ts.ScriptTarget.Latest,
    true,
    /x$/.test(fileName) ? ts.ScriptKind.JSX : ts.ScriptKind.JS,
  );
  let typed = false;
  const check = (n) => {
    if (ts.isTypeNode(n) && !ts.isExpressionWithTypeArguments(n)) typed = true;
    if (
      ts.isAsExpression(n) ||
      ts.isNonNullExpression(n) ||
      ts.isSatisfiesExpression(n) ||
      ts.isInterfaceDeclaration(n) ||
      ts.isTypeAliasDeclaration(n)
    )
      typed = true;
    if (!typed) ts.forEachChild(n, check);
  };
  check(js);
  return typed || js.parseDiagnostics?.length ? undefined : out;
}
