// The rewriting harness (issue #31): semantics-preserving rewrites of each labelled site, made with the
// TypeScript compiler API on the file's text in memory (the files on disk are only read), then analysed
// again. A labelled finding that disappears under a rewrite is a failure; a finding the original did not
// have is a new false alarm. Prints the survival rate per rewrite and per rule.
// Used by `npm run bench` (the bundled analyzer; test/corpus and ../shared/corpus in a temporary copy)
// and by test/unit/ts-analysis/rewrites.test.ts (the source analyzer, test/corpus, a fast subset).
import ts from "typescript";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { REWRITES } from "./rewrite-kinds.mjs";
import { forgetTypes } from "./rewrite-types.mjs";

export { REWRITES };

/** Hints (a query's class, how a client was recognised, what the budget skipped) are no alarms. */
const isAlarm = (f) => f.severity !== "hint";
const near = (f, code, places, tol) => f.code === code && places.some((p) => p.file === f.file && Math.abs(p.line - f.line) <= tol);

/**
 * Applies every rewrite to every labelled site. `sites`: `{ file, line, code, kind }` (absolute file, 1-based line;
 * `kind` "must", the default, or "mustnot"); `analyzerFor(file)`: the analyzer of the file's project (kept across
 * its sites). A `must` finding the original has and the rewrite loses is a failure; so is a `mustnot` site that
 * starts to fire; with `anyAlarm` (a corpus where every finding is labelled), so is any finding the original did not
 * have. `sample(site, rewrite)` picks the pairs tried (all by default). Returns per rewrite and per rule: sites tried, survived, new false alarms, and the failures.
 */
export function rewriteSurvival(sites, analyzerFor, rewrites = Object.keys(REWRITES), { anyAlarm = true, sample = () => true } = {}) {
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
    const at0 = (s) => [{ file, line: s.line }];
    // Only `must` sites the analysis finds today: the harness measures whether a finding holds, not recall.
    const held = labelled.filter((s) => s.kind !== "mustnot" && before.some((f) => near(f, s.code, at0(s), 5)));
    const quiet = labelled.filter((s) => s.kind === "mustnot" && !before.some((f) => near(f, s.code, at0(s), 2)));
    for (const name of rewrites) {
      const w = (perRewrite[name] ??= { tried: 0, survived: 0, newAlarms: 0 });
      const done = new Map();
      for (const site of [...held, ...quiet]) {
        if (!sample(site, name)) continue;
        let r;
        try {
          r = REWRITES[name](file, original, site.line);
        } catch (e) {
          failures.push({
            rewrite: name,
            file,
            line: site.line,
            code: site.code,
            error: String(e?.stack ?? e)
              .split("\n")
              .slice(0, 2)
              .join(" "),
          });
          continue;
        }
        if (!r) continue;
        // One analysis per distinct rewritten text (file-wide rewrites give the same text for every site).
        const key = r.files.map((f) => f.file + "\0" + f.text).join("\0");
        let after = done.get(key);
        if (!after) {
          for (const f of r.files) analyzer.update(f.file, f.text);
          after = r.files.filter((f) => f.text).flatMap((f) => findings(analyzer, f.file, f.text));
          for (const f of r.files) if (f.file !== file) analyzer.close(f.file);
          analyzer.update(file, original);
          done.set(key, after);
          if (anyAlarm) {
            const fresh = after.filter((f) => isAlarm(f) && !before.some((b) => near(f, b.code, r.at(b.line), 5)));
            w.newAlarms += fresh.length;
            for (const f of fresh) failures.push({ rewrite: name, file: f.file, line: f.line, code: f.code, newAlarm: true });
          }
        }
        const places = r.at(site.line);
        if (site.kind === "mustnot") {
          if (!anyAlarm && after.some((f) => near(f, site.code, places, 2))) {
            w.newAlarms++;
            failures.push({ rewrite: name, file, line: site.line, code: site.code, newAlarm: true });
          }
          continue;
        }
        const u = (perRule[site.code] ??= { tried: 0, survived: 0 });
        w.tried++;
        u.tried++;
        if (after.some((f) => near(f, site.code, places, 5))) {
          w.survived++;
          u.survived++;
        } else failures.push({ rewrite: name, file, line: site.line, code: site.code });
      }
    }
  }
  return { perRewrite, perRule, failures };
}

function findings(analyzer, file, text) {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const lineOf = (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return analyzer.analyze(file).findings.map((f) => ({ file, code: f.code, severity: f.severity, line: lineOf(f.start) }));
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
  const all = Object.values(result.perRewrite).reduce((a, s) => ({ tried: a.tried + s.tried, survived: a.survived + s.survived }), {
    tried: 0,
    survived: 0,
  });
  console.log(`  ${"all rewrites".padEnd(32)} ${`${all.survived}/${all.tried}`.padStart(9)} survive (${pct(all)})`);
  for (const f of result.failures.slice(0, show)) console.log(`  ${describe(f)}`);
  if (result.failures.length > show) console.log(`  … ${result.failures.length - show} more`);
}

const describe = (f, base = "") =>
  `${f.error ? "error" : f.newAlarm ? "new alarm" : "lost"} ${f.code} ${path.relative(base, f.file) || f.file}:${f.line} under "${f.rewrite}"${f.error ? `: ${f.error}` : ""}`;

/** The `must` and `mustnot` rows of ../shared/corpus (real-code.expect.tsv), as sites of a copy of it at `copy`. */
export function sharedSites(tsv, copy) {
  return readFileSync(tsv, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t"))
    .filter((r) => r[0] === "must" || r[0] === "mustnot")
    .map((r) => ({ file: path.join(copy, r[1]), line: Number(r[2]), code: r[3], kind: r[0] }));
}

/** An analyzer per project (the first folder under `base`), with a budget no loaded machine runs out of: the harness measures shapes, not time. */
function perProject(base, TsAnalyzer) {
  const analyzers = new Map();
  return (file) => {
    const project = path.relative(base, file).split(path.sep)[0];
    if (!analyzers.has(project)) analyzers.set(project, new TsAnalyzer({ budget: { fileMs: 30_000 } }));
    return analyzers.get(project);
  };
}

/**
 * `npm run bench`'s `rewrites` section: every rewrite over test/corpus, then over ../shared/corpus in a temporary copy
 * (its node_modules linked to ours, never copied into the project), with the bundled analyzer. With
 * REWRITES_FAILURES=FILE, every failure is also written there, a line each (for whoever fixes the analysis).
 */
export async function benchRewrites(root, TsAnalyzer, only = process.env.REWRITES_ONLY) {
  const { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const lines = [];
  const record = (title, result, base) => {
    printRewrites(result, title);
    lines.push(`\n## ${title}\n`, ...result.failures.map((f) => `- ${describe(f, base)}`));
  };
  const names = only ? Object.keys(REWRITES).filter((n) => only.split(",").includes(n)) : Object.keys(REWRITES);
  const corpus = path.join(root, "test", "corpus");
  record(
    "Rewrites of test/corpus's labelled sites (survival per rewrite, per rule)",
    rewriteSurvival(corpusSites(corpus), perProject(corpus, TsAnalyzer), names),
    corpus,
  );
  forgetTypes();
  const shared = sharedCorpus(root, existsSync);
  if (shared) {
    const copy = mkdtempSync(path.join(tmpdir(), "rewrites-"));
    try {
      cpSync(path.join(shared, "real-code"), copy, { recursive: true });
      symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"));
      const sites = sharedSites(path.join(shared, "real-code.expect.tsv"), copy).filter((s) => existsSync(s.file));
      // One project at a time, its analyzer dropped after it: 36 programs held at once took gigabytes.
      const projects = [...new Set(sites.map((s) => path.relative(copy, s.file).split(path.sep)[0]))];
      const result = { perRewrite: {}, perRule: {}, failures: [] };
      for (const project of projects) {
        const mine = sites.filter((s) => path.relative(copy, s.file).split(path.sep)[0] === project);
        const one = rewriteSurvival(mine, perProject(copy, TsAnalyzer), names, { anyAlarm: false });
        for (const [k, v] of Object.entries(one.perRewrite)) add((result.perRewrite[k] ??= { tried: 0, survived: 0, newAlarms: 0 }), v);
        for (const [k, v] of Object.entries(one.perRule)) add((result.perRule[k] ??= { tried: 0, survived: 0 }), v);
        result.failures.push(...one.failures);
        forgetTypes();
      }
      record("Rewrites of ../shared/corpus's labelled sites (a temporary copy; new alarms at `mustnot` rows)", result, copy);
    } finally {
      forgetTypes();
      rmSync(copy, { recursive: true, force: true });
    }
  }
  if (process.env.REWRITES_FAILURES)
    writeFileSync(process.env.REWRITES_FAILURES, `# Rewrite failures (${new Date().toISOString()})\n${lines.join("\n")}\n`);
}

/** Adds one tally into another (same keys). */
function add(into, more) {
  for (const k of Object.keys(into)) into[k] += more[k] ?? 0;
}

/** The labelled public projects: `../shared/corpus` beside the project (or beside a folder above it, for a worktree). */
function sharedCorpus(root, existsSync) {
  for (let dir = path.resolve(root); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const at = path.join(path.dirname(dir), "shared", "corpus");
    if (existsSync(path.join(at, "real-code.expect.tsv"))) return at;
  }
  return undefined;
}

/** The bench section (`node scripts/bench.mjs rewrites`). */
export async function run() {
  const { ROOT, require } = await import("./shared.mjs");
  await benchRewrites(ROOT, require(path.join(ROOT, "dist/ts-analyzer.js")).TsAnalyzer);
}
