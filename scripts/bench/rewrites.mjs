// The rewriting harness (issue #31): semantics-preserving rewrites of each labelled site, made with the
// TypeScript compiler API on the file's text in memory (the files on disk are only read), then analysed
// again. A labelled finding that disappears under a rewrite is a failure; a finding the original did not
// have is a new false alarm. Prints the survival rate per rewrite and per rule.
// Used by `npm run bench` (the bundled analyzer; test/corpus and ../shared/corpus in a temporary copy)
// and by test/unit/ts-analysis/rewrites.test.ts (the source analyzer, test/corpus, a fast subset).
import ts from "typescript";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const SDK = "@azure/data-tables";

/** The SDK call that starts on a 1-based line (the outermost call expression whose method is the SDK's), if any. */
function callOnLine(sf, line) {
  let found;
  const visit = (n) => {
    if (found) return;
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      /^(createEntity|upsertEntity|updateEntity|deleteEntity|getEntity|listEntities|submitTransaction)$/.test(n.expression.name.text) &&
      sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1 === line
    )
      found = n;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** The statement of a block (or source file) that holds a node, and its indentation. */
function statementOf(sf, n) {
  let s = n;
  while (s.parent && !ts.isBlock(s.parent) && !ts.isSourceFile(s.parent)) s = s.parent;
  if (!s.parent || !ts.isStatement(s)) return undefined;
  const lineStart = sf.text.lastIndexOf("\n", s.getStart(sf)) + 1;
  return { statement: s, indent: sf.text.slice(lineStart, s.getStart(sf)).match(/^\s*/)[0], lineStart };
}

const shift = (at, n) => (line) => (line >= at ? line + n : line);

/**
 * Each rewrite takes the file's text and a labelled line and returns the rewritten text and how lines move, or
 * undefined when it does not apply there.
 */
export const REWRITES = {
  /** `client.upsertEntity({ … })` → `const entity1 = { … }; client.upsertEntity(entity1)`: introduce a variable. */
  "introduce variable"(fileName, text, line) {
    const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
    const call = callOnLine(sf, line);
    const arg = call?.arguments[0];
    const st = call && statementOf(sf, call);
    if (!arg || !st || ts.isIdentifier(arg) || ts.isSpreadElement(arg)) return undefined;
    const decl = `${st.indent}const rewritten1 = ${arg.getText(sf)};\n`;
    const out = text.slice(0, st.lineStart) + decl + text.slice(st.lineStart, arg.getStart(sf)) + "rewritten1" + text.slice(arg.getEnd());
    return { text: out, line: shift(line, decl.split("\n").length - 1) };
  },
  /** The call's argument passed through a helper's parameter: `((value) => client.m(value, …))(arg)`. */
  "pass as parameter"(fileName, text, line) {
    const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
    const call = callOnLine(sf, line);
    const arg = call?.arguments[0];
    if (!call || !arg || ts.isSpreadElement(arg)) return undefined;
    const callee = call.expression.getText(sf);
    const rest = call.arguments
      .slice(1)
      .map((a) => a.getText(sf))
      .join(", ");
    const inner = `((passed1) => ${callee}(passed1${rest ? `, ${rest}` : ""}))(${arg.getText(sf)})`;
    return { text: text.slice(0, call.getStart(sf)) + inner + text.slice(call.getEnd()), line: (l) => l };
  },
  /** Every local variable renamed (`x` → `x_r`): names carry no meaning. */
  rename(fileName, text) {
    const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
    const locals = new Set();
    const visit = (n) => {
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && !isExported(n)) locals.add(n.name.text);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    if (!locals.size) return undefined;
    const edits = [];
    const walk = (n) => {
      if (ts.isIdentifier(n) && locals.has(n.text) && !isPropertyName(n)) edits.push(n);
      ts.forEachChild(n, walk);
    };
    walk(sf);
    let out = text;
    for (const id of edits.sort((a, b) => b.getStart(sf) - a.getStart(sf))) {
      const at = id.getStart(sf);
      // A shorthand `{ name }` keeps its property name.
      const replacement = ts.isShorthandPropertyAssignment(id.parent) ? `${id.text}: ${id.text}_r` : `${id.text}_r`;
      out = out.slice(0, at) + replacement + out.slice(id.getEnd());
    }
    return { text: out, line: (l) => l };
  },
  /** The file's own import of the SDK removed: its clients are then known only by evidence (JavaScript without types). */
  "strip SDK import"(fileName, text) {
    const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
    const imports = sf.statements.filter((s) => ts.isImportDeclaration(s) && s.moduleSpecifier.text === SDK);
    if (!imports.length) return undefined;
    let out = text;
    // Replaced by an untyped stand-in on the same lines, so that the code still runs the same SDK and lines stay put.
    for (const s of [...imports].reverse()) {
      const names = s.importClause ? s.importClause.getText(sf) : "";
      const stand = names ? `const ${names.replace(/\btype\s+/g, "").replace(/\bas\b/g, ":")} = require("${SDK}");` : "";
      out = out.slice(0, s.getStart(sf)) + stand.replace(/\n/g, " ") + out.slice(s.getEnd());
    }
    return { text: out, line: (l) => l };
  },
};

function isExported(decl) {
  const st = decl.parent?.parent;
  return !!st && ts.isVariableStatement(st) && !!st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function isPropertyName(id) {
  const p = id.parent;
  return (
    (ts.isPropertyAccessExpression(p) && p.name === id) ||
    (ts.isPropertyAssignment(p) && p.name === id) ||
    (ts.isMethodDeclaration(p) && p.name === id) ||
    (ts.isPropertyDeclaration(p) && p.name === id) ||
    (ts.isBindingElement(p) && p.propertyName === id) ||
    ts.isImportSpecifier(p) ||
    ts.isExportSpecifier(p)
  );
}

/** Hints (a query's class, how a client was recognised, what the budget skipped) are no alarms. */
const isAlarm = (f) => f.severity !== "hint";

/**
 * Applies every rewrite to every labelled site. `sites`: `{ file, line, code }` (absolute file, 1-based line);
 * `analyzerFor(file)`: the analyzer of the file's project (kept across the sites of a project).
 * Returns per rewrite and per rule: sites tried, survived, new false alarms, and the failures.
 */
export function rewriteSurvival(sites, analyzerFor, rewrites = Object.keys(REWRITES)) {
  const perRewrite = {};
  const perRule = {};
  const failures = [];
  const byFile = new Map();
  for (const s of sites) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
  for (const [file, labelled] of byFile) {
    const original = readFileSync(file, "utf8");
    const analyzer = analyzerFor(file);
    analyzer.update(file, original);
    const before = findings(analyzer, file, original);
    for (const name of rewrites) {
      for (const site of labelled) {
        // Only sites the analysis finds today: the harness measures whether a finding holds, not recall.
        if (!before.some((f) => f.code === site.code && Math.abs(f.line - site.line) <= 5)) continue;
        const r = REWRITES[name](file, original, site.line);
        if (!r) continue;
        analyzer.update(file, r.text);
        const after = findings(analyzer, file, r.text);
        analyzer.update(file, original);
        const at = r.line(site.line);
        const survived = after.some((f) => f.code === site.code && Math.abs(f.line - at) <= 5);
        const fresh = after.filter((f) => isAlarm(f) && !before.some((b) => b.code === f.code && Math.abs(r.line(b.line) - f.line) <= 2));
        const w = (perRewrite[name] ??= { tried: 0, survived: 0, newAlarms: 0 });
        const u = (perRule[site.code] ??= { tried: 0, survived: 0 });
        w.tried++;
        u.tried++;
        if (survived) {
          w.survived++;
          u.survived++;
        } else failures.push({ rewrite: name, file, line: site.line, code: site.code });
        w.newAlarms += fresh.length;
        for (const f of fresh) failures.push({ rewrite: name, file, line: f.line, code: f.code, newAlarm: true });
      }
    }
  }
  return { perRewrite, perRule, failures };
}

function findings(analyzer, file, text) {
  const lineOf = (offset) => text.slice(0, offset).split("\n").length;
  return analyzer.analyze(file).findings.map((f) => ({ code: f.code, severity: f.severity, line: lineOf(f.start) }));
}

/** The `// expect: CODE` labels of test/corpus (test/corpus/README.md), as sites. */
export function corpusSites(root) {
  const out = [];
  const walk = (dir) => {
    for (const e of ts.sys.readDirectory(dir, [".ts", ".tsx", ".js", ".mjs", ".cjs"], ["**/node_modules", "**/*.d.ts"])) {
      readFileSync(e, "utf8")
        .split(/\r?\n/)
        .forEach((l, i) => {
          const m = l.match(/\/\/ expect: ([a-z/, -]+?)(?:\s*\/\/|$)/);
          if (m)
            for (const code of m[1]
              .split(",")
              .map((c) => c.trim())
              .filter(Boolean))
              out.push({ file: e, line: i + 1, code });
        });
    }
  };
  walk(path.resolve(root));
  return out;
}

/** Prints the survival rates, and the failures (at most `show`). */
export function printRewrites(result, title, show = 20) {
  const pct = (s) => (s.tried ? `${((100 * s.survived) / s.tried).toFixed(0)} %` : "–");
  console.log(`\n${title}`);
  for (const [name, s] of Object.entries(result.perRewrite))
    console.log(`  ${name.padEnd(32)} ${`${s.survived}/${s.tried}`.padStart(9)} survive (${pct(s)}), ${s.newAlarms} new false alarms`);
  for (const [code, s] of Object.entries(result.perRule).sort())
    console.log(`  ${code.padEnd(32)} ${`${s.survived}/${s.tried}`.padStart(9)} survive (${pct(s)})`);
  for (const f of result.failures.slice(0, show))
    console.log(`  ${f.newAlarm ? "new alarm" : "lost"} ${f.code} ${f.file}:${f.line} under "${f.rewrite}"`);
  if (result.failures.length > show) console.log(`  … ${result.failures.length - show} more`);
}

/** The `must` rows of ../shared/corpus (real-code.expect.tsv), as sites of a copy of it at `copy`. */
export function sharedSites(tsv, copy) {
  return readFileSync(tsv, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t"))
    .filter((r) => r[0] === "must")
    .map((r) => ({ file: path.join(copy, r[1]), line: Number(r[2]), code: r[3] }));
}

/**
 * `npm run bench`'s section: every rewrite over test/corpus, then over ../shared/corpus in a temporary copy (its
 * node_modules linked to ours, never copied into the project), with the bundled analyzer.
 */
export async function benchRewrites(root, TsAnalyzer) {
  const { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const perProject = (base) => {
    const analyzers = new Map();
    return (file) => {
      const project = path.relative(base, file).split(path.sep)[0];
      if (!analyzers.has(project)) analyzers.set(project, new TsAnalyzer());
      return analyzers.get(project);
    };
  };
  const corpus = path.join(root, "test", "corpus");
  printRewrites(
    rewriteSurvival(corpusSites(corpus), perProject(corpus)),
    "Rewrites of test/corpus's labelled sites (survival per rewrite, per rule)",
  );
  const shared = path.resolve(root, "..", "shared", "corpus");
  if (!existsSync(path.join(shared, "real-code.expect.tsv"))) return;
  const copy = mkdtempSync(path.join(tmpdir(), "rewrites-"));
  try {
    cpSync(path.join(shared, "real-code"), copy, { recursive: true });
    symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"));
    const sites = sharedSites(path.join(shared, "real-code.expect.tsv"), copy).filter((s) => existsSync(s.file));
    printRewrites(rewriteSurvival(sites, perProject(copy)), "Rewrites of ../shared/corpus's labelled problems (a temporary copy)");
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
