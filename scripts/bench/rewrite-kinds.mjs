// The rewrites of the harness (issue #31, 4): each takes a file's text and a labelled line and returns the files it
// writes (`files`: the rewritten file, and any new one) and where each original line now is (`at(line)`: every place
// its code lives), or undefined when it does not apply at that site. Each keeps what the code does.
import ts from "typescript";
import { extract } from "./rewrite-extract.mjs";
import { stripTypes } from "./rewrite-strip.mjs";
import {
  SDK,
  applyEdits,
  blank,
  freeNames,
  isFunctionLike,
  isReference,
  isWithin,
  parse,
  scopeOf,
  siteCall,
  statementOf,
} from "./rewrite-syntax.mjs";

/**
 * One file rewritten in place; `lineAt` moves lines (identity by default); `moves`: `{ first, last, to, flat }`, code
 * of those original lines now also (or only) at line `to` onwards (`flat`: all of it on line `to`).
 */
const inPlace = (file, text, lineAt = (l) => l, moves = []) => ({
  files: [{ file, text }],
  at: (l) => [
    { file, line: lineAt(l) },
    ...moves.filter((m) => l >= m.first && l <= m.last).map((m) => ({ file, line: m.flat ? m.to : m.to + l - m.first })),
  ],
});
const linesOf = (sf, n) => ({
  first: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1,
  last: sf.getLineAndCharacterOfPosition(n.getEnd()).line + 1,
});

/** `client.m({ … })` → `const rewritten1 = { … }; client.m(rewritten1)`. */
function introduceVariable(fileName, text, line) {
  const sf = parse(fileName, text);
  const call = siteCall(sf, line);
  const arg = call?.arguments[0];
  const st = call && statementOf(sf, call);
  if (!arg || !st || ts.isIdentifier(arg) || ts.isSpreadElement(arg)) return undefined;
  const decl = `${st.indent}const rewritten1 = ${arg.getText(sf)};\n`;
  const out = applyEdits(text, [
    { start: st.lineStart, end: st.lineStart, text: decl },
    { start: arg.getStart(sf), end: arg.getEnd(), text: "rewritten1" + "\n".repeat(arg.getText(sf).split("\n").length - 1) },
  ]);
  return inPlace(fileName, out.text, out.lineAt, [{ ...linesOf(sf, arg), to: linesOf(sf, st.statement).first }]);
}

/** `const { client1, arg1 } = { client1: t, arg1: x }; client1.m(arg1, …)`: the client and the first argument through destructuring. */
function destructure(fileName, text, line) {
  const sf = parse(fileName, text);
  const call = siteCall(sf, line);
  const st = call && statementOf(sf, call);
  if (!st) return undefined;
  const client = call.expression.expression;
  const arg = call.arguments[0];
  if (arg && ts.isSpreadElement(arg)) return undefined;
  const one = (s) => s.replace(/\n/g, " ");
  if (/\/\/|`/.test(client.getText(sf) + (arg?.getText(sf) ?? ""))) return undefined;
  const names = arg ? "client1, arg1" : "client1";
  const values = arg ? `client1: ${one(client.getText(sf))}, arg1: ${one(arg.getText(sf))}` : `client1: ${one(client.getText(sf))}`;
  const edits = [
    { start: st.lineStart, end: st.lineStart, text: `${st.indent}const { ${names} } = { ${values} };\n` },
    { start: client.getStart(sf), end: client.getEnd(), text: "client1" + "\n".repeat(client.getText(sf).split("\n").length - 1) },
  ];
  if (arg) edits.push({ start: arg.getStart(sf), end: arg.getEnd(), text: "arg1" + "\n".repeat(arg.getText(sf).split("\n").length - 1) });
  const out = applyEdits(text, edits);
  const to = linesOf(sf, st.statement).first;
  return inPlace(fileName, out.text, out.lineAt, [
    { ...linesOf(sf, client), to, flat: true },
    ...(arg ? [{ ...linesOf(sf, arg), to, flat: true }] : []),
  ]);
}

/** `const x = READ;` → `const read1 = READ; let x = read1;` (and `x = READ;` → `const read1 = READ; x = read1;`). */
function copyIntoLet(fileName, text, line) {
  const sf = parse(fileName, text);
  const call = siteCall(sf, line);
  const st = call && statementOf(sf, call);
  if (!st) return undefined;
  const s = st.statement;
  if (ts.isVariableStatement(s) && s.declarationList.declarations.length === 1 && !s.modifiers?.length) {
    const d = s.declarationList.declarations[0];
    if (!d.initializer || !isWithin(call, d.initializer) || !ts.isIdentifier(d.name)) return undefined;
    const type = d.type ? `: ${d.type.getText(sf)}` : "";
    const out = applyEdits(text, [
      { start: s.getStart(sf), end: d.initializer.getStart(sf), text: `const read1${type} = ` },
      { start: s.getEnd(), end: s.getEnd(), text: ` let ${d.name.text} = read1;` },
    ]);
    return inPlace(fileName, out.text);
  }
  if (ts.isExpressionStatement(s) && ts.isBinaryExpression(s.expression) && s.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const { left, right } = s.expression;
    if (!isWithin(call, right) || !ts.isIdentifier(left)) return undefined;
    const out = applyEdits(text, [
      { start: s.getStart(sf), end: right.getStart(sf), text: "const read1 = " },
      { start: s.getEnd(), end: s.getEnd(), text: ` ${left.text} = read1;` },
    ]);
    return inPlace(fileName, out.text);
  }
  return undefined;
}

/**
 * `const x = await C; rest` (in an async function's body) → `return C.then(async (x) => { rest });`; and
 * `C.then(f)` → `(async () => (f)(await C))()`.
 */
function awaitThen(fileName, text, line) {
  const sf = parse(fileName, text);
  const call = siteCall(sf, line);
  if (!call || call.expression.name.text === "listEntities") return undefined;
  const p = call.parent;
  if (ts.isPropertyAccessExpression(p) && p.name.text === "then" && ts.isCallExpression(p.parent) && p.parent.arguments.length === 1) {
    const f = p.parent.arguments[0].getText(sf);
    const out = applyEdits(text, [
      { start: p.parent.getStart(sf), end: p.parent.getEnd(), text: `(async () => (${f})(await ${call.getText(sf)}))()` },
    ]);
    return inPlace(fileName, out.text);
  }
  if (!ts.isAwaitExpression(p)) return undefined;
  const s =
    p.parent && (ts.isExpressionStatement(p.parent) ? p.parent : ts.isVariableDeclaration(p.parent) ? p.parent.parent?.parent : undefined);
  const fn = s?.parent?.parent;
  if (
    !s ||
    !ts.isBlock(s.parent) ||
    !fn ||
    !isFunctionLike(fn) ||
    fn.asteriskToken ||
    !fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)
  )
    return undefined;
  let param = "";
  if (ts.isVariableStatement(s)) {
    if (s.declarationList.declarations.length !== 1) return undefined;
    const d = s.declarationList.declarations[0];
    param = d.name.getText(sf) + (d.type ? `: ${d.type.getText(sf)}` : "");
  }
  const rest = s.parent.statements.slice(s.parent.statements.indexOf(s) + 1);
  const end = rest.length ? rest[rest.length - 1].getEnd() : s.getEnd();
  const out = applyEdits(text, [
    { start: s.getStart(sf), end: s.getEnd(), text: `return ${call.getText(sf)}.then(async (${param}) => {` },
    { start: end, end, text: " });" },
  ]);
  return inPlace(fileName, out.text);
}

/** A `const` read once, in the site's call, replaced by its initializer (its declaration blanked: lines stay). */
function inlineVariable(fileName, text, line) {
  const sf = parse(fileName, text);
  const call = siteCall(sf, line);
  if (!call) return undefined;
  const uses = new Map();
  const count = (n) => {
    if (ts.isIdentifier(n) && isReference(n)) {
      const sc = scopeOf(n);
      if (sc) uses.set(`${n.text}@${sc.pos}`, (uses.get(`${n.text}@${sc.pos}`) ?? 0) + 1);
    }
    ts.forEachChild(n, count);
  };
  count(sf);
  const edits = [];
  const from = new Map();
  for (const [name, id] of freeNames(call).locals) {
    const scope = scopeOf(id);
    if (!ts.isBlock(scope) || uses.get(`${name}@${scope.pos}`) !== 1) continue;
    const s = scope.statements.find(
      (x) => ts.isVariableStatement(x) && x.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name),
    );
    if (
      !s ||
      s.declarationList.declarations.length !== 1 ||
      !(s.declarationList.flags & ts.NodeFlags.Const) ||
      s.getEnd() > call.getStart(sf)
    )
      continue;
    const init = s.declarationList.declarations[0].initializer;
    // Nothing between the use and the declaration's block that would run the initializer later or more than once.
    let deferred = false;
    for (let a = id.parent; a && a !== scope; a = a.parent) if (isFunctionLike(a) || ts.isIterationStatement(a, false)) deferred = true;
    if (!init || deferred || /\/\/|`[^`]*\n/.test(init.getText(sf))) continue;
    const value = init.getText(sf).replace(/\n/g, " ");
    const simple =
      ts.isIdentifier(init) ||
      ts.isLiteralExpression(init) ||
      ts.isCallExpression(init) ||
      ts.isPropertyAccessExpression(init) ||
      ts.isTemplateExpression(init);
    const inlined = simple ? value : `(${value})`;
    edits.push({ start: s.getStart(sf), end: s.getEnd(), text: blank(s.getText(sf)) });
    edits.push({
      start: id.getStart(sf),
      end: id.getEnd(),
      text: ts.isShorthandPropertyAssignment(id.parent) ? `${name}: ${inlined}` : inlined,
    });
    const to = sf.getLineAndCharacterOfPosition(id.getStart(sf)).line + 1;
    const first = sf.getLineAndCharacterOfPosition(s.getStart(sf)).line + 1;
    const last = sf.getLineAndCharacterOfPosition(s.getEnd()).line + 1;
    for (let l = first; l <= last; l++) from.set(l, to);
  }
  if (!edits.length) return undefined;
  const out = applyEdits(text, edits);
  return {
    files: [{ file: fileName, text: out.text }],
    at: (l) => [{ file: fileName, line: l }, ...(from.has(l) ? [{ file: fileName, line: from.get(l) }] : [])],
  };
}

/** Every local variable renamed (`x` → `x_r`, every identifier of that name but property names): names carry no meaning. */
function rename(fileName, text) {
  const sf = parse(fileName, text);
  const locals = new Set();
  const visit = (n) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && !isExported(n)) locals.add(n.name.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  if (!locals.size) return undefined;
  const edits = [];
  const walk = (n) => {
    if (ts.isIdentifier(n) && locals.has(n.text) && !isPropertyName(n)) {
      // A shorthand `{ name }` (or `const { name } =`) keeps its property name.
      const short = ts.isShorthandPropertyAssignment(n.parent) || (ts.isBindingElement(n.parent) && !n.parent.propertyName);
      edits.push({ start: n.getStart(sf), end: n.getEnd(), text: short ? `${n.text}: ${n.text}_r` : `${n.text}_r` });
    }
    ts.forEachChild(n, walk);
  };
  walk(sf);
  return inPlace(fileName, applyEdits(text, edits).text);
}

function isPropertyName(id) {
  const p = id.parent;
  return (
    (ts.isPropertyAccessExpression(p) && p.name === id) ||
    (ts.isPropertyAssignment(p) && p.name === id) ||
    (ts.isMethodDeclaration(p) && p.name === id) ||
    (ts.isPropertyDeclaration(p) && p.name === id) ||
    (ts.isPropertySignature(p) && p.name === id) ||
    (ts.isBindingElement(p) && p.propertyName === id) ||
    ts.isImportSpecifier(p) ||
    ts.isExportSpecifier(p) ||
    ts.isImportClause(p) ||
    (ts.isQualifiedName(p) && p.right === id)
  );
}

function isExported(decl) {
  const st = decl.parent?.parent;
  return !!st && ts.isVariableStatement(st) && !!st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** The file's own import of the SDK replaced by an untyped `require` on the same line: its clients known only by evidence. */
function stripSdkImport(fileName, text) {
  const sf = parse(fileName, text);
  const imports = sf.statements.filter((s) => ts.isImportDeclaration(s) && s.moduleSpecifier.text === SDK);
  if (!imports.length) return undefined;
  const edits = imports.map((s) => {
    const names = s.importClause ? s.importClause.getText(sf) : "";
    const stand = names ? `const ${names.replace(/\btype\s+/g, "").replace(/\bas\b/g, ":")} = require("${SDK}");` : "";
    return { start: s.getStart(sf), end: s.getEnd(), text: stand.replace(/\n/g, " ") + "\n".repeat(s.getText(sf).split("\n").length - 1) };
  });
  return inPlace(fileName, applyEdits(text, edits).text);
}

/** A TypeScript file turned into JavaScript (its types blanked, the same lines), under a `.js` name; the `.ts` left empty. */
function toJavaScript(fileName, text, _line, withoutImport = false) {
  const js = stripTypes(fileName, text);
  if (js === undefined) return undefined;
  const jsName = fileName.replace(/\.(m|c)?ts(x?)$/, (_m, a, x) => `.${a ?? ""}js${x}`);
  const out = withoutImport ? (stripSdkImport(jsName, js)?.files[0].text ?? js) : js;
  return {
    files: [
      { file: fileName, text: "" },
      { file: jsName, text: out },
    ],
    at: (l) => [{ file: jsName, line: l }],
  };
}

/** Every rewrite by its name, as `npm run bench` prints it. */
export const REWRITES = {
  "introduce variable": introduceVariable,
  "inline variable": inlineVariable,
  rename,
  destructure,
  "copy into let": copyIntoLet,
  "await ↔ .then": awaitThen,
  "extract into function": (f, t, l) => extract(f, t, l, "function"),
  "extract into module": (f, t, l) => extract(f, t, l, "module"),
  "extract into class method": (f, t, l) => extract(f, t, l, "class"),
  "extract into object method": (f, t, l) => extract(f, t, l, "object"),
  "pass client as parameter": (f, t, l) => extract(f, t, l, "function", "client"),
  "pass entity as parameter": (f, t, l) => extract(f, t, l, "function", "entity"),
  "pass key as parameter": (f, t, l) => extract(f, t, l, "function", "key"),
  "pass filter as parameter": (f, t, l) => extract(f, t, l, "function", "filter"),
  "strip SDK import": stripSdkImport,
  "to JavaScript": (f, t, l) => toJavaScript(f, t, l),
  "to JavaScript, no SDK import": (f, t, l) => toJavaScript(f, t, l, true),
};
