/**
 * The rewriting harness's fast subset (the whole runs in `npm run bench`,
 * section `rewrites`): labelled findings of test/corpus must survive the
 * rewrites the analysis holds today, on a sample of sites drawn with a fixed
 * seed, and no rewrite may raise a finding the original did not have. A
 * rewrite joins HOLDING once the bench shows it at 95 % or more.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { TsAnalyzer } from "@ts-analysis/analysis";

const HOLDING = ["introduce variable", "inline variable", "rename", "strip SDK import", "pass entity as parameter"];
const SEED = 31;
/** Of every site and rewrite, about this share is tried (under 30 s on a loaded machine). */
const SHARE = 0.4;

/** A fixed pseudo-random choice per (site, rewrite): FNV-1a over its name and the seed. */
function chosen(key: string): boolean {
  let h = 0x811c9dc5 ^ SEED;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 2 ** 32 < SHARE;
}

test("labelled findings of test/corpus survive the rewrites the analysis holds, with no new false alarm", async () => {
  // A dynamic import: this test compiles as CommonJS and the harness is an ES module shared with scripts/bench.mjs.
  const { corpusSites, rewriteSurvival } = await import("../../../scripts/bench/rewrites.mjs");
  const root = path.resolve("test/corpus");
  const analyzers = new Map<string, TsAnalyzer>();
  const result = rewriteSurvival(
    corpusSites(root),
    (file: string) => {
      const project = path.relative(root, file).split(path.sep)[0];
      if (!analyzers.has(project)) analyzers.set(project, new TsAnalyzer({ budget: { fileMs: 30_000 } }));
      return analyzers.get(project)!;
    },
    HOLDING,
    { sample: (site, rewrite) => chosen(`${path.relative(root, site.file)}:${site.line}:${site.code}:${rewrite}`) },
  );
  const detail = JSON.stringify(result.failures, null, 1);
  for (const name of HOLDING) {
    const s = result.perRewrite[name];
    assert.ok(s.tried >= 3, `${name}: enough sites to measure (${s.tried})`);
    assert.ok(s.survived / s.tried >= 0.95, `${name}: ${s.survived}/${s.tried} survive: ${detail}`);
    assert.equal(s.newAlarms, 0, `${name}: ${detail}`);
  }
});

test("each rewrite keeps the code's lines where the harness looks for them, and the text parses", async () => {
  const { REWRITES } = await import("../../../scripts/bench/rewrites.mjs");
  const ts = await import("typescript");
  const file = path.resolve("test/corpus/orders-api/src/repositories/audit.ts");
  const text = [
    'import { TableClient } from "@azure/data-tables";',
    "const audit = TableClient.fromConnectionString(process.env.CONN ?? '', 'audit');",
    "export async function record(actor: string, seq: number): Promise<void> {",
    "  const day: string = new Date().toISOString().slice(0, 10);",
    "  await audit.createEntity({",
    "    partitionKey: day,",
    "    rowKey: `${actor}-${seq}`,",
    "  });",
    "}",
  ].join("\n");
  for (const [name, rewrite] of Object.entries(REWRITES)) {
    const r = rewrite(file, text, 6);
    if (!r) continue;
    for (const f of r.files) {
      if (!f.text) continue;
      const sf = ts.createSourceFile(f.file, f.text, ts.ScriptTarget.Latest, true);
      assert.equal((sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length, 0, `${name}: ${f.file} parses:\n${f.text}`);
    }
    // The key's line is one of the places the harness looks at, in some file of the rewrite.
    const places = r.at(6);
    const lineOf = (p: { file: string; line: number }) => r.files.find((f) => f.file === p.file)?.text.split("\n")[p.line - 1] ?? "";
    assert.ok(
      places.some((p) => lineOf(p).includes("partitionKey")),
      `${name}: line 6 is at ${JSON.stringify(places)}:\n${r.files.map((f) => f.text).join("\n---\n")}`,
    );
  }
});
