// Accuracy: the labelled corpus, the hand-labelled public projects when they are
// there, and `tdl check` on a generated 865-file project (`node scripts/bench.mjs accuracy`).
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { BENCH_TSCONFIG, ROOT, require } from "./shared.mjs";

/** The labelled corpus (test/corpus), scored with the bundled analyzer: ours beside the goals. */
async function benchAccuracy() {
  const { scoreCorpus, corpusFigures } = await import("../corpus-score.mjs");
  const { TsAnalyzer } = require(path.join(ROOT, "dist/ts-analyzer.js"));
  const score = scoreCorpus(() => new TsAnalyzer(), path.join(ROOT, "test", "corpus"));
  return { score, figures: corpusFigures(score) };
}

/**
 * The public projects labelled by hand beside the repository (`../shared/corpus`, when it is there): recall, false
 * alarms, findings in neither list and time per project, as its scorer prints them (issue #19, 5).
 */
function benchRealCode() {
  const scorer = path.resolve(ROOT, "..", "shared", "corpus", "score.mjs");
  if (!existsSync(scorer)) return;
  console.log(`\nReal code: public projects labelled by hand (${path.relative(ROOT, scorer)}, tdl check per project)\n`);
  spawnSync(process.execPath, [scorer, ROOT, "--timeout", "60"], { cwd: ROOT, stdio: "inherit" });
}

function printAccuracy({ score, figures }) {
  const pctText = (x) => `${(x * 100).toFixed(1)} %`;
  console.log(
    `\nAccuracy on the labelled corpus: ${score.projects} projects, ${score.files} files, ${score.expected} labelled findings, ${score.queries.labelled} query calls (${score.ms.toFixed(0)} ms)\n`,
  );
  console.log(`${"measure".padEnd(46)} ${"ours".padStart(10)}   goal`);
  console.log(`${"recall (labelled findings found)".padEnd(46)} ${pctText(figures.recall).padStart(10)}   ≥ 90 %`);
  console.log(`${"false alarms (share of reported findings)".padEnd(46)} ${pctText(figures.falseAlarmShare).padStart(10)}   ≤ 2 %`);
  console.log(`${"query calls classified or 'not known statically'".padEnd(46)} ${pctText(figures.queriesAnswered).padStart(10)}   100 %`);
  console.log(`${"query classes right (of those answered)".padEnd(46)} ${pctText(figures.queriesRight).padStart(10)}   ≥ 95 %`);
  for (const m of score.missed) console.log(`  missed: ${m}`);
  for (const f of score.falseAlarms) console.log(`  false alarm: ${f}`);
  for (const w of score.queries.wrong) console.log(`  wrong class: ${w}`);
}

/** A project of `count` files shaped like an application: a few modules call the SDK through a helper, most are ordinary code. */
function generateProject(dir, count) {
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...BENCH_TSCONFIG.compilerOptions, allowJs: true } }));
  mkdirSync(path.join(dir, "src", "lib"), { recursive: true });
  writeFileSync(
    path.join(dir, "src", "lib", "tables.ts"),
    `import { TableClient } from "@azure/data-tables";\nexport const tableFor = (name: string) => TableClient.fromConnectionString(process.env.CONN ?? "", name);\n`,
  );
  for (let i = 0; i < count - 1; i++) {
    const sub = path.join(dir, "src", `area${i % 20}`);
    mkdirSync(sub, { recursive: true });
    const prev = i >= 20 ? `../area${(i - 20) % 20}/m${i - 20}` : undefined;
    if (i % 10 === 0) {
      writeFileSync(
        path.join(sub, `m${i}.ts`),
        `import { odata } from "@azure/data-tables";\nimport { tableFor } from "../lib/tables";\n${prev ? `import { value${i - 20} } from "${prev}";\n` : ""}export const value${i} = ${prev ? `value${i - 20} + 1` : "1"};
const t = tableFor("Items${i % 7}");
export async function save${i}(owner: string, n: number) {
  await t.upsertEntity({ partitionKey: owner, rowKey: String(n).padStart(10, "0"), v: value${i} });
}
export function list${i}(owner: string) {
  return t.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${owner}\` } });
}
`,
      );
    } else if (i % 10 === 5) {
      writeFileSync(
        path.join(sub, `m${i}.js`),
        `/** @param {number[]} xs */\nexport function total${i}(xs) { return xs.reduce((a, b) => a + b, 0); }\nexport const value${i} = ${i};\n`,
      );
    } else {
      writeFileSync(
        path.join(sub, `m${i}.ts`),
        `${prev && (i - 20) % 10 !== 5 ? `import { value${i - 20} } from "${prev}";\n` : ""}export interface Shape${i} { id: string; size: number; tags: string[]; owner?: { name: string; since: Date } }
export const value${i} = ${prev && (i - 20) % 10 !== 5 ? `value${i - 20} + ${i}` : String(i)};
export function describe${i}(s: Shape${i}): string {
  const tags = s.tags.map((t) => t.trim()).filter(Boolean).join(", ");
  return \`\${s.id} (\${s.size}) \${tags}\${s.owner ? " by " + s.owner.name : ""}\`;
}
export class Store${i} {
  private readonly items = new Map<string, Shape${i}>();
  put(s: Shape${i}): void { this.items.set(s.id, s); }
  largest(): Shape${i} | undefined { return [...this.items.values()].sort((a, b) => b.size - a.size)[0]; }
}
`,
      );
    }
  }
}

/** \`tdl check\` on a generated 865-file project (inside the repository, so that the SDK resolves). */
async function benchCheck(count = 865) {
  const dir = mkdtempSync(path.join(ROOT, "test", "fixtures", "ts", ".tmp-check-"));
  try {
    generateProject(dir, count);
    const started = performance.now();
    const r = spawnSync(process.execPath, [path.join(ROOT, "dist/cli.js"), "check", dir, "--format", "json"], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    const ms = performance.now() - started;
    if (r.status !== 0 && r.status !== 1) throw new Error(`tdl check failed (${r.status}): ${r.stderr}`);
    const report = JSON.parse(r.stdout);
    return {
      files: report.files.length,
      ms,
      queries: report.files.reduce((n, f) => n + f.queries.length, 0),
      diagnostics: report.files.reduce((n, f) => n + f.diagnostics.length, 0),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printCheck(c) {
  console.log(
    `\ntdl check on a generated project of ${c.files} TypeScript/JavaScript files (${c.queries} classified queries, ${c.diagnostics} diagnostics)\n`,
  );
  console.log(`${"measure".padEnd(46)} ${"ours".padStart(10)}   goal`);
  console.log(`${"wall time (s)".padEnd(46)} ${(c.ms / 1000).toFixed(1).padStart(10)}   < 60`);
}

/** The section: the corpus, the public projects, then the 865-file check. */
export async function run() {
  printAccuracy(await benchAccuracy());
  benchRealCode();
  printCheck(await benchCheck());
}
