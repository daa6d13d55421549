// The extracting rewrites of the harness: an SDK call moved into a function of its own — at the file's end, in
// another module, as a class's method or an object literal's method — whose parameters are what the call read from
// around it (and, for "pass … as a parameter", the key, entity, filter or client itself). Lines of the original stay
// where they were (the call site keeps its line breaks); the call's own lines also live on in the new function.
import ts from "typescript";
import * as path from "node:path";
import {
  afterImports,
  applyEdits,
  freeNames,
  hasExport,
  importStatements,
  isCommonJs,
  lineAtOffset,
  parse,
  siteCall,
} from "./rewrite-syntax.mjs";
import { typeWriter } from "./rewrite-types.mjs";

/** The sub-expression of the site's call that "pass WHAT as a parameter" hands in from the call site. */
const HOISTS = {
  client: (call) => call.expression.expression,
  entity: (call) => (/^(createEntity|upsertEntity|updateEntity)$/.test(call.expression.name.text) ? call.arguments[0] : undefined),
  key(call) {
    const m = call.expression.name.text;
    if (/^(getEntity|deleteEntity)$/.test(m)) return call.arguments[0];
    const e = call.arguments[0];
    if (!/^(createEntity|upsertEntity|updateEntity)$/.test(m) || !e || !ts.isObjectLiteralExpression(e)) return undefined;
    const prop = (k) => e.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === k);
    return (prop("partitionKey") ?? prop("rowKey"))?.initializer;
  },
  filter(call) {
    if (call.expression.name.text !== "listEntities") return undefined;
    const o = call.arguments[0];
    if (!o) return undefined;
    if (!ts.isObjectLiteralExpression(o)) return o;
    const q = o.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === "queryOptions");
    if (!q || !ts.isObjectLiteralExpression(q.initializer)) return q?.initializer;
    return q.initializer.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === "filter")?.initializer;
  },
};

/**
 * Extracts the site's call. `into`: "function" (declared at the file's end), "module" (a new file beside it),
 * "class" or "object" (a method, the holder declared after the imports); `hoist`: a key of HOISTS, or none.
 */
export function extract(fileName, text, line, into, hoist) {
  const sf = parse(fileName, text);
  const call = siteCall(sf, line);
  if (!call) return undefined;
  const hoisted = hoist ? HOISTS[hoist](call) : undefined;
  if (hoist && (!hoisted || ts.isSpreadElement(hoisted))) return undefined;
  const free = freeNames(call, hoisted ? [hoisted] : []);
  if (free.stuck) return undefined;
  const elsewhere = into === "module";
  const cjs = isCommonJs(sf);
  const imported = new Set(importStatements(sf).flatMap((s) => namesOf(s)));
  const types = typeWriter(fileName, text, elsewhere);
  const typed = (name, node) => (types ? `${name}: ${types.typeOf(node)}` : name);
  // Parameters: the hoisted expression, `this`, the outer locals, and (in another module) the file's own top-level names.
  const params = [];
  const args = [];
  const typeImports = [];
  if (hoisted) {
    params.push(typed("passed1", hoisted));
    args.push(hoisted.getText(sf));
  }
  if (free.usesThis) {
    // `this` is typed by its class's name (the checker would say `this`), where that name can be written.
    const cls = enclosingClass(call);
    const visible = cls?.name && ts.isSourceFile(cls.parent) && (!elsewhere || hasExport(cls));
    params.push(types ? `self1: ${visible ? cls.name.text : "any"}` : "self1");
    args.push("this");
    if (visible && elsewhere && types) typeImports.push(cls.name.text);
  }
  const outer = [...free.locals, ...(elsewhere ? [...free.module].filter(([n]) => !imported.has(n)) : [])];
  for (const [name, id] of outer) {
    params.push(typed(name, id));
    args.push(name);
  }
  // The body: the call's text with the hoisted expression and `this` replaced.
  const inner = [];
  if (hoisted) inner.push({ start: hoisted.getStart(sf) - call.getStart(sf), end: hoisted.getEnd() - call.getStart(sf), text: "passed1" });
  const visitThis = (n, own) => {
    if (hoisted && n === hoisted) return;
    if (n.kind === ts.SyntaxKind.ThisKeyword && !own)
      inner.push({ start: n.getStart(sf) - call.getStart(sf), end: n.getEnd() - call.getStart(sf), text: "self1" });
    ts.forEachChild(n, (c) => visitThis(c, own || (ts.isFunctionLike(n) && !ts.isArrowFunction(n)) || ts.isClassLike(n)));
  };
  visitThis(call, false);
  const body = applyEdits(call.getText(sf), inner).text;
  const breaks = "\n".repeat(body.split("\n").length - 1);
  const head = `(${params.join(", ")})`;
  const fn = `function extracted1${head} {\n  return ${body};\n}`;
  const callee = { function: "extracted1", module: "extracted1", class: "extracted1.run", object: "extracted1.run" }[into];
  const site = { start: call.getStart(sf), end: call.getEnd(), text: `${callee}(${args.join(", ")}${breaks})` };
  if (into === "function") {
    const appended = `\n\n${fn}\n`;
    const out = applyEdits(text, [site, { start: text.length, end: text.length, text: appended }]);
    const bodyLine = lineAtOffset(out.text, out.text.length - appended.length + appended.indexOf("  return "));
    return moved(fileName, out, call, sf, fileName, bodyLine);
  }
  if (into === "class" || into === "object") {
    const method = `run${head} {\n    return ${body};\n  }`;
    const decl =
      into === "class"
        ? `class Extracted1 {\n  ${method}\n}\nconst extracted1 = new Extracted1();\n`
        : `const extracted1 = {\n  ${method},\n};\n`;
    const at = afterImports(sf);
    const out = applyEdits(text, [site, { start: at, end: at, text: decl }]);
    return moved(fileName, out, call, sf, fileName, lineAtOffset(out.text, at + decl.indexOf("return ")));
  }
  // Another module beside the file, with the file's imports (those the call uses) and its own export.
  const ext = path.extname(fileName);
  const base = path.basename(fileName, ext);
  const other = path.join(path.dirname(fileName), `${base}.extracted1${ext}`);
  const suffix = /\.(m?js)["']/.test(
    importStatements(sf)
      .map((s) => s.getText(sf))
      .join("\n"),
  )
    ? ext.replace("ts", "js")
    : "";
  const spec = `./${base}.extracted1${suffix}`;
  const used = new Set(free.module.keys());
  const carried = [
    ...importStatements(sf)
      .filter((s) => namesOf(s).some((n) => used.has(n)))
      .map((s) => s.getText(sf)),
    ...(typeImports.length ? [`import type { ${typeImports.join(", ")} } from "./${base}${suffix}";`] : []),
  ].join("\n");
  const otherText = cjs ? `${carried}\n${fn}\nmodule.exports = { extracted1 };\n` : `${carried}\nexport ${fn}\n`;
  const load = cjs ? `const { extracted1 } = require("${spec}");\n` : `import { extracted1 } from "${spec}";\n`;
  const at = afterImports(sf);
  const out = applyEdits(text, [site, { start: at, end: at, text: load }]);
  const r = moved(fileName, out, call, sf, other, lineAtOffset(otherText, otherText.indexOf("  return ", carried.length)));
  return { ...r, files: [...r.files, { file: other, text: otherText }] };
}

/** The result: the rewritten file, and where each original line is now (the call's lines also in the new function). */
function moved(fileName, out, call, sf, bodyFile, bodyLine) {
  const first = sf.getLineAndCharacterOfPosition(call.getStart(sf)).line + 1;
  const last = sf.getLineAndCharacterOfPosition(call.getEnd()).line + 1;
  return {
    files: [{ file: fileName, text: out.text }],
    at: (l) => [
      { file: fileName, line: out.lineAt(l) },
      ...(l >= first && l <= last ? [{ file: bodyFile, line: bodyLine + l - first }] : []),
    ],
  };
}

function enclosingClass(n) {
  for (let a = n.parent; a; a = a.parent) if (ts.isClassLike(a)) return a;
  return undefined;
}

/** The names an import (or a top-level `require`) brings in. */
function namesOf(s) {
  const out = [];
  const bind = (b) => {
    if (ts.isIdentifier(b)) out.push(b.text);
    else for (const e of b.elements) if (!ts.isOmittedExpression(e)) bind(e.name);
  };
  if (ts.isImportDeclaration(s)) {
    const c = s.importClause;
    if (c?.name) out.push(c.name.text);
    const b = c?.namedBindings;
    if (b) out.push(...(ts.isNamespaceImport(b) ? [b.name.text] : b.elements.map((e) => e.name.text)));
  } else if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) bind(d.name);
  return out;
}
