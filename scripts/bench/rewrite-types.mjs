// Types for the parameters the rewrites add (rewrite-kinds.mjs): a TypeScript file's extracted function declares
// what its parameters are, as a person extracting the code would, when the type can be written where the function
// goes; otherwise `any`. One program per tsconfig, grown as files are asked for.
import ts from "typescript";
import * as path from "node:path";

const programs = new Map();
const KEYWORDS = new Set(
  "string number boolean any unknown never undefined null void object symbol bigint true false readonly keyof typeof infer extends is asserts unique".split(
    " ",
  ),
);

function configOf(fileName) {
  return (
    ts.findConfigFile(path.dirname(fileName), ts.sys.fileExists, "tsconfig.json") ??
    ts.findConfigFile(path.dirname(fileName), ts.sys.fileExists, "jsconfig.json")
  );
}

function optionsOf(config) {
  const base = {
    allowJs: true,
    noEmit: true,
    skipLibCheck: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
  };
  if (!config) return base;
  const read = ts.readConfigFile(config, ts.sys.readFile);
  if (read.error) return base;
  return { ...ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(config)).options, allowJs: true, noEmit: true };
}

/** The checker of a file as it is on disk, and its source file. */
function checked(fileName) {
  const config = configOf(fileName) ?? path.dirname(fileName);
  let entry = programs.get(config);
  if (!entry || !entry.roots.includes(fileName)) {
    const roots = [...(entry?.roots ?? []), fileName];
    const options = entry?.options ?? optionsOf(configOf(fileName));
    entry = { roots, options, program: ts.createProgram({ rootNames: roots, options, oldProgram: entry?.program }) };
    programs.set(config, entry);
  }
  const sf = entry.program.getSourceFile(fileName);
  return sf && { checker: entry.program.getTypeChecker(), sf };
}

/** Forgets the programs (the harness calls it between corpora). */
export function forgetTypes() {
  programs.clear();
}

/**
 * A writer of parameter types for code of `fileName` moved to the file's top level (`elsewhere`: to another module
 * that has the file's imports): `typeOf(node)` is the node's type as text, or `any` when its text names something not
 * visible there. Undefined for JavaScript, or when the file's text is not the one on disk.
 */
export function typeWriter(fileName, text, elsewhere = false) {
  if (!/\.(ts|tsx|mts|cts)$/.test(fileName)) return undefined;
  let c;
  try {
    c = checked(fileName);
  } catch {
    return undefined;
  }
  if (!c || c.sf.text !== text) return undefined;
  const { checker, sf } = c;
  const own = new Set();
  for (const s of sf.statements)
    if (!ts.isImportDeclaration(s)) {
      if ("name" in s && s.name && ts.isIdentifier(s.name)) own.add(s.name.text);
      if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) own.add(d.name.text);
    }
  const flags = ts.SymbolFlags.Type | ts.SymbolFlags.Value | ts.SymbolFlags.Namespace | ts.SymbolFlags.Alias;
  const visible = new Set(
    checker
      .getSymbolsInScope(sf, flags)
      .map((s) => s.name)
      .filter((n) => !(elsewhere && own.has(n))),
  );
  return {
    typeOf(node) {
      // The node is of the original text: find the same span in the checked tree.
      const at = findSame(sf, node);
      if (!at) return "any";
      let t;
      try {
        const type = checker.getTypeAtLocation(at);
        t = checker.typeToString(checker.getBaseTypeOfLiteralType(type) ?? type, undefined, ts.TypeFormatFlags.NoTruncation);
      } catch {
        return "any";
      }
      if (/import\(|\.\.\.|=>/.test(t) || t.length > 200) return "any";
      const names = t
        .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, "")
        .replace(/[\w$]+\??\s*:/g, "")
        .match(/[A-Za-z_$][\w$]*/g);
      return (names ?? []).every((n) => KEYWORDS.has(n) || visible.has(n)) ? t : "any";
    },
  };
}

function findSame(sf, node) {
  let found;
  const visit = (n) => {
    if (found || n.pos > node.pos || n.end < node.end) return;
    if (n.pos === node.pos && n.end === node.end && n.kind === node.kind) found = n;
    else ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}
