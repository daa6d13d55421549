/**
 * Issue #31, item 5: every TypeScript fix is checked as the design fixes
 * are. Over every fix the analysis offers on the team's labelled corpus
 * (test/corpus), applied to its file: the code still type-checks (no error
 * it did not have), the finding it fixes is gone, the analysis of the fixed
 * file raises nothing it did not raise before (a separator out of order, an
 * unpadded number, a forbidden character), and the key text it writes holds
 * no character the service refuses in keys and no serialized object (which
 * may hold any).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { readFileSync } from "node:fs";
import ts from "typescript";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { readConfig, DEFAULT_OPTIONS } from "@ts-analysis/project";

interface Edit {
  start: number;
  end: number;
  newText: string;
}
const apply = (text: string, edits: readonly Edit[]) =>
  [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
/** Where an offset of the original text is after the edits. */
const moved = (offset: number, edits: readonly Edit[]) =>
  offset + edits.filter((e) => e.end <= offset).reduce((d, e) => d + e.newText.length - (e.end - e.start), 0);
/** Characters Azure Table Storage refuses in PartitionKey and RowKey. */
const FORBIDDEN = /[/\\#?\u0000-\u001f\u007f-\u009f]/;

/** The errors TypeScript reports for one file of a project, its text given. */
function errorsOf(file: string, text: string, options: ts.CompilerOptions, old?: ts.Program): { errors: string[]; program: ts.Program } {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (f, v, ...rest) => (f === file ? ts.createSourceFile(f, text, v) : read(f, v, ...rest));
  const program = ts.createProgram({ rootNames: [file], options, host, oldProgram: old });
  const sf = program.getSourceFile(file)!;
  const errors = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
  return { errors, program };
}

test("every TypeScript fix on test/corpus type-checks, removes its finding and raises no design finding", async () => {
  const { corpusSites } = await import("../../../scripts/bench/rewrites.mjs");
  const root = path.resolve("test/corpus");
  const files = [...new Set(corpusSites(root).map((s) => s.file))];
  const analyzers = new Map<string, TsAnalyzer>();
  let checked = 0;
  const problems: string[] = [];
  for (const file of files) {
    const project = path.relative(root, file).split(path.sep)[0];
    if (!analyzers.has(project)) analyzers.set(project, new TsAnalyzer({ budget: { fileMs: 30_000 } }));
    const analyzer = analyzers.get(project)!;
    const text = readFileSync(file, "utf8");
    const before = analyzer.analyze(file).findings;
    const config =
      ts.findConfigFile(path.dirname(file), ts.sys.fileExists, "tsconfig.json") ??
      ts.findConfigFile(path.dirname(file), ts.sys.fileExists, "jsconfig.json");
    const options = { ...(config ? readConfig(config).options : DEFAULT_OPTIONS), noEmit: true };
    let base: ReturnType<typeof errorsOf> | undefined;
    for (const finding of before)
      for (const fix of finding.fixes ?? []) {
        if (fix.command || !fix.edits.length) continue;
        const where = `${path.relative(root, file)}: ${finding.code} "${fix.title}"`;
        base ??= errorsOf(file, text, options);
        const fixed = apply(text, fix.edits);
        const after = errorsOf(file, fixed, options, base.program);
        // Node's own modules resolve where @types/node is installed, as in the projects the corpus stands for (not here).
        const fresh = after.errors.filter((e) => !base!.errors.includes(e) && !/^Cannot find module 'node:/.test(e));
        if (fresh.length) problems.push(`${where}: does not type-check: ${fresh.join("; ")}`);
        analyzer.update(file, fixed);
        const again = analyzer.analyze(file).findings.filter((f) => f.severity !== "hint");
        analyzer.update(file, text);
        const at = moved(finding.start, fix.edits);
        const lineOf = (t: string, o: number) => t.slice(0, o).split("\n").length;
        if (again.some((f) => f.code === finding.code && lineOf(fixed, f.start) === lineOf(fixed, at)))
          problems.push(`${where}: the finding is still there`);
        for (const f of again)
          if (!before.some((b) => b.code === f.code && b.message === f.message)) problems.push(`${where}: raises ${f.code}: ${f.message}`);
        // The text each edit writes (an import it adds aside): its string literals become key text.
        for (const e of fix.edits.filter((x) => !/^\s*import\s/.test(x.newText))) {
          const literals = [...e.newText.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1] ?? m[2]);
          for (const l of literals) if (FORBIDDEN.test(l)) problems.push(`${where}: writes ${JSON.stringify(l)} into a key`);
          if (/JSON\.stringify\(/.test(e.newText)) problems.push(`${where}: builds a key from a serialized object: ${e.newText}`);
        }
        checked++;
      }
  }
  assert.deepEqual(problems, []);
  // The corpus offers fixes of every kind the rules have (composite keys, padding, buckets, ETags, characters).
  assert.ok(checked >= 12, `${checked} fixes checked`);
});
