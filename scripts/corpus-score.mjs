// Scores the TypeScript/JavaScript analysis on the labelled corpus (test/corpus/README.md):
// recall of the labelled findings, false alarms, and the classes of SDK query calls.
// Used by `npm run bench` (with the bundled analyzer) and by test/unit/ts-analysis/corpus.test.ts
// (with the source one), so that both report the same figures.
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const DECLARATION = /\.d\.(ts|mts|cts)$/;
const CLASSES = ["point", "row-range", "partition-range", "table-scan"];

/** Every code file below a folder, in a stable order (node_modules and dot-folders skipped). */
function codeFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...codeFiles(full));
    else if (CODE.test(name) && !DECLARATION.test(name)) out.push(full);
  }
  return out;
}

/** The labels of one file: expected findings and query classes by 1-based line. */
function labels(text) {
  const expected = [];
  const queries = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const e = line.match(/\/\/ expect: ([a-z/, -]+?)(?:\s*\/\/|$)/);
    if (e)
      for (const code of e[1]
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean))
        expected.push({ line: i + 1, code });
    const q = line.match(/\/\/ query: ([a-z-]+)/);
    if (q) queries.push({ line: i + 1, class: q[1] });
  });
  return { expected, queries };
}

/** The class a `ts/query-class` hint names, or "unknown" for a filter not known statically. */
function classOf(message) {
  if (message.startsWith("filter not known statically")) return "unknown";
  return CLASSES.find((c) => message.startsWith(c)) ?? `? ${message}`;
}

const lineOf = (text, offset) => text.slice(0, offset).split("\n").length;

/**
 * Analyses each project of the corpus (one folder each, with its config) with a fresh analyzer
 * made by `makeAnalyzer()`, and compares with the labels.
 */
export function scoreCorpus(makeAnalyzer, root) {
  const result = {
    projects: 0,
    files: 0,
    expected: 0,
    truePositives: 0,
    reported: 0,
    missed: [],
    falseAlarms: [],
    queries: { labelled: 0, answered: 0, right: 0, wrong: [], unlabelled: [] },
    ms: 0,
  };
  const started = performance.now();
  for (const name of readdirSync(root).sort()) {
    const dir = path.join(root, name);
    if (!statSync(dir).isDirectory() || name === "types") continue;
    result.projects++;
    const analyzer = makeAnalyzer();
    const files = codeFiles(dir);
    const texts = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));
    for (const f of files) analyzer.update(f, texts.get(f));
    for (const f of files) {
      result.files++;
      const text = texts.get(f);
      const rel = path.relative(root, f).split(path.sep).join("/");
      const want = labels(text);
      const findings = analyzer.analyze(f).findings;
      const got = findings
        .filter((x) => x.severity !== "hint")
        .map((x) => ({ line: lineOf(text, x.start), code: x.code, message: x.message }));
      result.expected += want.expected.length;
      result.reported += got.length;
      for (const e of want.expected) {
        if (got.some((g) => g.line === e.line && g.code === e.code)) result.truePositives++;
        else result.missed.push(`${rel}:${e.line} ${e.code}`);
      }
      for (const g of got)
        if (!want.expected.some((e) => e.line === g.line && e.code === g.code))
          result.falseAlarms.push(`${rel}:${g.line} ${g.code} ${g.message}`);
      const hints = findings
        .filter((x) => x.code === "ts/query-class")
        .map((x) => ({ line: lineOf(text, x.start), class: classOf(x.message) }));
      result.queries.labelled += want.queries.length;
      for (const q of want.queries) {
        const h = hints.find((x) => x.line === q.line);
        if (!h) continue;
        result.queries.answered++;
        if (h.class === q.class) result.queries.right++;
        else result.queries.wrong.push(`${rel}:${q.line} expected ${q.class}, got ${h.class}`);
      }
      for (const h of hints)
        if (!want.queries.some((q) => q.line === h.line)) result.queries.unlabelled.push(`${rel}:${h.line} ${h.class}`);
    }
  }
  result.ms = performance.now() - started;
  return result;
}

/** The figures the goals are stated in. */
export function corpusFigures(r) {
  return {
    recall: r.expected ? r.truePositives / r.expected : 1,
    falseAlarmShare: r.reported ? r.falseAlarms.length / r.reported : 0,
    queriesAnswered: r.queries.labelled ? r.queries.answered / r.queries.labelled : 1,
    queriesRight: r.queries.answered ? r.queries.right / r.queries.answered : 1,
  };
}
