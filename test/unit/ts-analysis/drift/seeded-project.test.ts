import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { DesignTable, tablesOfDesign } from "@ts-analysis/drift/design-index";
import { driftCorpus, SEED_KINDS } from "../../../helpers/drift-corpus";

// Issue 14's acceptance: 50 seeded drifts of each kind, ≥ 95 % found, no false finding on the unchanged code.
const corpus = driftCorpus(50);
after(() => corpus.dispose());
const designs = new Map<string, DesignTable>();
for (const d of corpus.designs) tablesOfDesign(readFileSync(d, "utf8"), d, designs);
const analyzer = new TsAnalyzer({ designTable: (t) => (t ? designs.get(t) : undefined) });
const DRIFT = new Set(["ts/design-drift-key", "ts/design-drift-query"]);
const driftFindings = (file: string) => {
  analyzer.update(file, undefined);
  return analyzer.analyze(file).findings.filter((f) => DRIFT.has(f.code));
};

test("the unchanged code has no drift finding (every table's keys, index rows and declared queries, in six styles)", () => {
  assert.ok(corpus.correct.length >= 10, `${corpus.correct.length} tables`);
  for (const file of corpus.correct) {
    const text = readFileSync(file, "utf8");
    assert.deepEqual(
      driftFindings(file).map((f) => `${text.slice(f.start, f.end)}: ${f.message}`),
      [],
      file,
    );
  }
  // It is code that compiles, not text shaped like code.
  const errors = corpus.correct.flatMap((f) =>
    analyzer.semanticDiagnostics(f).map((d) => `${f}: ${typeof d.messageText === "string" ? d.messageText : d.messageText.messageText}`),
  );
  assert.deepEqual(errors, []);
});

test("at least 95 % of 50 seeded drifts of each kind are found, and nothing else in the seeded files", () => {
  const findings = new Map(corpus.seeded.map((f) => [f, driftFindings(f)]));
  const report: string[] = [];
  for (const kind of SEED_KINDS) {
    const seeds = corpus.seeds.filter((s) => s.kind === kind);
    assert.equal(seeds.length, 50, `${kind}: 50 seeds`);
    const code = kind === "undeclared-query" ? "ts/design-drift-query" : "ts/design-drift-key";
    const missed = seeds.filter((s) => !findings.get(s.file)!.some((f) => f.code === code && f.start < s.end && f.end > s.start));
    report.push(`${kind}: ${seeds.length - missed.length}/50`);
    assert.ok(missed.length <= 2, `${kind}: missed ${missed.length}: ${missed.map((m) => `${m.table} ${m.what}`).join("; ")}`);
  }
  const false_ = [...findings].flatMap(([file, fs]) =>
    fs.filter((f) => !corpus.seeds.some((s) => s.file === file && f.start < s.end && f.end > s.start)),
  );
  assert.deepEqual(
    false_.map((f) => f.message),
    [],
    "findings off every seed",
  );
  console.log(report.join(", "));
});
