/**
 * Text edits for TypeScript fixes: the `createHash` import added once, a
 * `const` bound before the statement that needs it, names that do not clash.
 */
import ts from "typescript";
import { TextEdit } from "@core";

/** Adds `import { createHash } from "node:crypto";` unless the file already imports it. */
export function createHashImport(sf: ts.SourceFile): TextEdit | undefined {
  let lastImportEnd = 0;
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st)) continue;
    lastImportEnd = st.getEnd();
    const spec = ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : "";
    if (spec !== "node:crypto" && spec !== "crypto") continue;
    const named = st.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) {
      if (named.elements.some((el) => el.name.text === "createHash")) return undefined;
      const last = named.elements[named.elements.length - 1];
      return last ? { start: last.getEnd(), end: last.getEnd(), newText: ", createHash" } : undefined;
    }
  }
  const text = 'import { createHash } from "node:crypto";\n';
  return lastImportEnd ? { start: lastImportEnd, end: lastImportEnd, newText: "\n" + text.trimEnd() } : { start: 0, end: 0, newText: text };
}

/** The statement (in a block or the file) that contains `node`. */
export function enclosingStatement(node: ts.Node): ts.Statement | undefined {
  let n: ts.Node | undefined = node;
  while (
    n &&
    !(n.parent && (ts.isBlock(n.parent) || ts.isSourceFile(n.parent) || ts.isCaseClause(n.parent)) && ts.isStatement(n as ts.Statement))
  )
    n = n.parent;
  return n as ts.Statement | undefined;
}

/** Inserts `const name = init;` on its own line before the statement containing `node`. */
export function bindBefore(sf: ts.SourceFile, node: ts.Node, name: string, init: string): TextEdit | undefined {
  const st = enclosingStatement(node);
  if (!st) return undefined;
  const start = st.getStart(sf);
  const lineStart = sf.text.lastIndexOf("\n", start - 1) + 1;
  const indent = sf.text.slice(lineStart, start).match(/^\s*/)?.[0] ?? "";
  return { start, end: start, newText: `const ${name} = ${init};\n${indent}` };
}

/** A name not yet used as an identifier in the file. */
export function freshName(sf: ts.SourceFile, base: string): string {
  const used = new Set<string>();
  const visit = (n: ts.Node) => {
    if (ts.isIdentifier(n)) used.add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base}${i}`)) return `${base}${i}`;
}
