// What the rewrites of the harness (rewrite-kinds.mjs) share: finding the SDK call of a labelled site, the statement
// that holds it, which names a piece of code reads from its surroundings (a small scope resolver: the harness has no
// checker for most rewrites), and text edits that report where each line of the original went.
import ts from "typescript";

export const SDK = "@azure/data-tables";
const SDK_METHOD = /^(createEntity|upsertEntity|updateEntity|deleteEntity|getEntity|listEntities|submitTransaction)$/;

export const parse = (fileName, text) => ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kindOf(fileName));
export const isTsFile = (f) => /\.(ts|tsx|mts|cts)$/.test(f);
const lineOf = (sf, pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;

function kindOf(f) {
  if (/\.tsx$/.test(f)) return ts.ScriptKind.TSX;
  if (/\.(ts|mts|cts)$/.test(f)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(f)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

const isSdkCall = (n) => ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && SDK_METHOD.test(n.expression.name.text);

/**
 * The SDK call of a labelled line: the outermost one that starts on it, else the innermost one whose text spans it
 * (a label on the `partitionKey:` line of a call's entity).
 */
export function siteCall(sf, line) {
  let starts;
  let spans;
  const visit = (n) => {
    if (isSdkCall(n)) {
      const from = lineOf(sf, n.getStart(sf));
      if (from === line && !starts) starts = n;
      else if (from < line && lineOf(sf, n.getEnd()) >= line) spans = n;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return starts ?? spans;
}

/** Whether a node is a function of any kind (its body runs later, or more than once). */
export const isFunctionLike = (n) =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

/** Nodes between an expression and its statement that would change when, or whether, the expression runs if moved before the statement. */
const conditional = (n) =>
  isFunctionLike(n) ||
  ts.isConditionalExpression(n) ||
  ts.isIfStatement(n) ||
  ts.isIterationStatement(n, false) ||
  ts.isTryStatement(n) ||
  ts.isCaseClause(n) ||
  ts.isClassLike(n) ||
  (ts.isBinaryExpression(n) &&
    [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(n.operatorToken.kind));

/**
 * The statement of a block (or source file) that holds a node, when the node runs exactly once each time the
 * statement does and before it ends (nothing conditional or deferred lies between them): what a rewrite may move
 * before the statement. Undefined otherwise.
 */
export function statementOf(sf, n) {
  let s = n;
  while (s.parent && !ts.isBlock(s.parent) && !ts.isSourceFile(s.parent)) {
    s = s.parent;
    if (conditional(s) && !(ts.isForOfStatement(s) && isWithin(n, s.expression))) return undefined;
  }
  if (!s.parent || !ts.isStatement(s) || ts.isIfStatement(s)) return undefined;
  const lineStart = sf.text.lastIndexOf("\n", s.getStart(sf) - 1) + 1;
  return { statement: s, indent: sf.text.slice(lineStart, s.getStart(sf)).match(/^\s*/)[0], lineStart };
}

export const isWithin = (n, outer) => n.pos >= outer.pos && n.end <= outer.end;

/** Whether an identifier reads a value (not a property name, a declared name, a label or a type). */
export function isReference(id) {
  const p = id.parent;
  if (!p) return false;
  if ((ts.isPropertyAccessExpression(p) || ts.isQualifiedName(p)) && p.name === id) return false;
  if (
    (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p)) &&
    p.name === id
  )
    return false;
  if (ts.isBindingElement(p) && (p.propertyName === id || p.name === id)) return false;
  if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isFunctionLike(p) || ts.isClassLike(p)) && p.name === id) return false;
  if (ts.isImportSpecifier(p) || ts.isExportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p)) return false;
  if (ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p) || ts.isJsxAttribute(p)) return false;
  for (let a = p; a; a = a.parent) if (ts.isTypeNode(a) && !ts.isExpressionWithTypeArguments(a)) return false;
  return true;
}

/** The names a scope node declares directly (`var` from anywhere in a function's body). */
function declares(scope, name) {
  const bound = (b) => (ts.isIdentifier(b) ? b.text === name : b.elements.some((e) => !ts.isOmittedExpression(e) && bound(e.name)));
  if (isFunctionLike(scope)) {
    if (ts.isFunctionExpression(scope) && scope.name?.text === name) return true;
    return scope.parameters.some((p) => bound(p.name)) || (!!scope.body && hoistedVar(scope.body, name, bound));
  }
  if (ts.isCatchClause(scope)) return !!scope.variableDeclaration && bound(scope.variableDeclaration.name);
  if (ts.isForStatement(scope) || ts.isForOfStatement(scope) || ts.isForInStatement(scope)) {
    const init = scope.initializer;
    return !!init && ts.isVariableDeclarationList(init) && init.declarations.some((d) => bound(d.name));
  }
  if (ts.isClassExpression(scope)) return scope.name?.text === name;
  if (!(ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope) || ts.isCaseBlock(scope))) return false;
  const statements = ts.isCaseBlock(scope) ? scope.clauses.flatMap((c) => [...c.statements]) : scope.statements;
  for (const s of statements) {
    if (ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => bound(d.name))) return true;
    if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) && s.name?.text === name) return true;
    if (ts.isImportDeclaration(s) && s.importClause) {
      const c = s.importClause;
      if (c.name?.text === name) return true;
      const b = c.namedBindings;
      if (b && (ts.isNamespaceImport(b) ? b.name.text === name : b.elements.some((e) => e.name.text === name))) return true;
    }
    if (ts.isImportEqualsDeclaration(s) && s.name.text === name) return true;
  }
  return ts.isSourceFile(scope) && hoistedVar(scope, name, bound);
}

function hoistedVar(body, name, bound) {
  let found = false;
  const visit = (n) => {
    if (found || isFunctionLike(n) || ts.isClassLike(n)) return;
    if (ts.isVariableDeclarationList(n) && !(n.flags & ts.NodeFlags.BlockScoped) && n.declarations.some((d) => bound(d.name))) found = true;
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** The scope node that declares what an identifier reads, or undefined for a global. */
export function scopeOf(id) {
  for (let a = id.parent; a; a = a.parent) if (declares(a, id.text)) return a;
  return undefined;
}

/**
 * What a piece of code reads from outside itself: `locals` (declared in a function or block around it), `module`
 * (declared at the file's top level, imports included), whether it reads `this`, and whether it cannot be moved into
 * a function of its own (it awaits, yields, assigns an outer name, or reads `super` or `arguments`).
 */
export function freeNames(node, skip = []) {
  const locals = new Map();
  const module = new Map();
  let usesThis = false;
  let stuck = false;
  // `inAny`: inside a function of the code (its awaits are its own); `inOwn`: inside one with its own `this`.
  const visit = (n, inAny, inOwn) => {
    if (skip.includes(n)) return;
    if (!inAny && (ts.isAwaitExpression(n) || ts.isYieldExpression(n))) stuck = true;
    if (n.kind === ts.SyntaxKind.SuperKeyword) stuck = true;
    if (n.kind === ts.SyntaxKind.ThisKeyword && !inOwn) usesThis = true;
    if (ts.isIdentifier(n) && isReference(n)) {
      if (n.text === "arguments" && !inOwn) stuck = true;
      const scope = scopeOf(n);
      if (scope && !isWithin(scope, node)) {
        (ts.isSourceFile(scope) ? module : locals).set(n.text, n);
        if (isAssigned(n)) stuck = true;
      }
    }
    const own = inOwn || (isFunctionLike(n) && !ts.isArrowFunction(n)) || ts.isClassLike(n);
    ts.forEachChild(n, (c) => visit(c, inAny || isFunctionLike(n), own));
  };
  visit(node, false, false);
  return { locals, module, usesThis, stuck };
}

function isAssigned(id) {
  const p = id.parent;
  if (
    ts.isBinaryExpression(p) &&
    p.left === id &&
    p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    p.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  )
    return true;
  return (
    (ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) &&
    [ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken].includes(p.operator)
  );
}

/** Whether the file is a CommonJS module (no import or export, a `require`). */
export function isCommonJs(sf) {
  if (/\.cjs$/.test(sf.fileName)) return true;
  if (/\.(mjs|mts)$/.test(sf.fileName)) return false;
  const esm = sf.statements.some((s) => ts.isImportDeclaration(s) || ts.isExportDeclaration(s) || ts.isExportAssignment(s) || hasExport(s));
  return !esm && /\brequire\s*\(/.test(sf.text);
}

export const hasExport = (s) => !!ts.canHaveModifiers(s) && !!ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Top-level statements that bring names in: imports, and `const … = require(…)` in CommonJS. */
export function importStatements(sf) {
  return sf.statements.filter(
    (s) =>
      (ts.isImportDeclaration(s) && !!s.importClause) ||
      (ts.isVariableStatement(s) &&
        s.declarationList.declarations.every(
          (d) => d.initializer && /^require\s*\(|^require\(/.test(d.initializer.getText(sf).replace(/^await\s+/, "")),
        )),
  );
}

/** The offset after the file's leading directives and imports: where a rewrite adds a declaration the whole file sees. */
export function afterImports(sf) {
  let at = 0;
  for (const s of sf.statements) {
    const directive = ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression);
    if (!directive && !importStatements(sf).includes(s)) break;
    at = s.getEnd();
  }
  const nl = sf.text.indexOf("\n", at);
  return nl < 0 ? sf.text.length : nl + 1;
}

/**
 * Applies edits (`{ start, end, text }`, not overlapping) and returns the new text with `lineAt(line)`: the line of
 * the new text where an original line's start now is.
 */
export function applyEdits(text, edits) {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  out += text.slice(at);
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const nl = (s) => s.split("\n").length - 1;
  const lineAt = (line) => {
    const offset = starts[line - 1] ?? text.length;
    let delta = 0;
    for (const e of sorted) if (e.end <= offset) delta += nl(e.text) - nl(text.slice(e.start, e.end));
    return line + delta;
  };
  return { text: out, lineAt };
}

/** The 1-based line of an offset of a text. */
export const lineAtOffset = (text, offset) => text.slice(0, offset).split("\n").length;

/** Text with every character but line breaks made a space: code removed without moving any line. */
export const blank = (s) => s.replace(/[^\n\r]/g, " ");
