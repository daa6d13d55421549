/**
 * TypeScript fixtures: marked sources written into a temporary project
 * inside the repository (so `@azure/data-tables` resolves to the real
 * package), analysed with the real analyzer and type-checked after fixes.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { TsAnalyzer, TsFileResult, TsNotice } from "@ts-analysis/analysis";
import { Finding } from "@core";
import { annotated, applyEdits, marked } from "./markers";

export const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "Node16",
    moduleResolution: "Node16",
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  },
};

/** The text of a result's notice of `kind` ("" when there is none). */
export const noticeText = (result: TsFileResult, kind: TsNotice["kind"]): string =>
  result.notices?.find((n) => n.kind === kind)?.text ?? "";

export class TsFixture {
  readonly dir: string;
  readonly analyzer: TsAnalyzer;

  constructor(tsconfig: object = TSCONFIG, analyzer: TsAnalyzer = new TsAnalyzer()) {
    const base = path.resolve("test/fixtures/ts");
    mkdirSync(base, { recursive: true });
    this.dir = mkdtempSync(path.join(base, ".tmp-"));
    writeFileSync(path.join(this.dir, "tsconfig.json"), JSON.stringify(tsconfig));
    this.analyzer = analyzer;
  }

  file(name: string, text: string): string {
    const f = path.join(this.dir, name);
    writeFileSync(f, text);
    this.analyzer.update(f, text, Date.now());
    return f;
  }

  /**
   * Findings of `code` must sit exactly on the marked ranges (none anywhere, when nothing is marked); a range
   * annotated `«…»‹messageId›` must carry that message.
   */
  expect(name: string, source: string, code: string): Finding[] {
    const m = marked(source);
    const f = this.file(name, m.text);
    const found = this.analyzer.analyze(f).findings.filter((x) => x.code === code);
    assert.deepEqual(
      found.map((x) => m.text.slice(x.start, x.end)),
      m.ranges.map((r) => m.text.slice(r.start, r.end)),
      `${code}: ${found.map((x) => x.message).join(" | ")}`,
    );
    assert.deepEqual(
      found.map((x) => [x.start, x.end]),
      m.ranges.map((r) => [r.start, r.end]),
    );
    const notes = annotated(m, found);
    assert.deepEqual(notes.actual, notes.expected, `messages of ${code}: ${found.map((x) => x.message).join(" | ")}`);
    return found;
  }

  /** Applies the preferred fix of the first `code` finding; asserts the text, that it type-checks and that the finding is gone. */
  fix(name: string, source: string, code: string, after: string): void {
    const text = marked(source).text;
    const f = this.file(name, text);
    assert.deepEqual(this.typeErrors(f), [], "the fixture type-checks before the fix");
    const finding = this.analyzer.analyze(f).findings.find((x) => x.code === code);
    assert.ok(finding?.fixes?.length, `no fix on ${code}`);
    const fix = finding.fixes.find((x) => x.preferred) ?? finding.fixes[0];
    const fixed = applyEdits(text, fix.edits);
    assert.equal(fixed, after);
    this.file(name, fixed);
    assert.deepEqual(this.typeErrors(f), [], "the fixed file type-checks");
    assert.deepEqual(
      this.analyzer
        .analyze(f)
        .findings.filter((x) => x.code === code && x.start === finding.start)
        .map((x) => x.message),
      [],
    );
  }

  typeErrors(file: string): string[] {
    return this.analyzer
      .semanticDiagnostics(file)
      .map((d) => (typeof d.messageText === "string" ? d.messageText : d.messageText.messageText));
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
