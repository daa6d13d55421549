/**
 * `tdl check --format json` under fuzzing, as a process: folders of hostile
 * designs never produce a stack trace or a hang, every file is reported,
 * the exit code says what the report holds (3 an internal failure, else 1
 * an error, else 0), and every range lies inside its file as editors count
 * lines (\n, \r\n and \r alike).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { fuzz } from "../helpers/fuzz";
import { hostileDesign } from "../helpers/hostile-designs";

const CLI = process.env.TDL_CLI ? path.resolve(process.env.TDL_CLI) : path.resolve("dist/cli.js");
/** A hang of issue 10 lasted minutes; an ordinary run of a few files takes well under a second. */
const BOUND_MS = 30_000;
const STACK_FRAME = /^\s+at .*(:\d+:\d+\)?|<anonymous>\)?)$/m;

interface Report {
  files: Array<{
    path: string;
    diagnostics: Array<{
      code: string;
      severity: string;
      range: { start: { line: number; character: number }; end: { line: number; character: number } };
    }>;
  }>;
  summary: { errors: number; warnings: number; infos: number; hints: number };
}

let documents = 0;

test("tdl check survives folders of hostile designs: no stack trace, no hang, every file reported, exit code as the report says", (t) => {
  fuzz(
    "cli-check",
    fc.array(hostileDesign, { minLength: 1, maxLength: 4 }),
    (designs) => {
      const dir = mkdtempSync(path.join(tmpdir(), "tdl-fuzz-"));
      try {
        designs.forEach((text, i) => writeFileSync(path.join(dir, `d${i}.tdl`), text));
        documents += designs.length;
        const r = spawnSync(process.execPath, [CLI, "check", ".", "--format", "json"], {
          cwd: dir,
          encoding: "utf8",
          timeout: BOUND_MS,
          maxBuffer: 64 << 20,
          env: { ...process.env, TDL_DEBUG: "" },
        });
        assert.equal(r.signal, null, `tdl check did not finish within ${BOUND_MS} ms`);
        assert.doesNotMatch(r.stdout + r.stderr, STACK_FRAME);
        assert.equal(r.stderr, "");
        const report = JSON.parse(r.stdout) as Report;
        assert.deepEqual(
          report.files.map((f) => f.path),
          designs.map((_, i) => `d${i}.tdl`).sort(),
        );
        const all = report.files.flatMap((f) => f.diagnostics);
        const count = (s: string) => all.filter((d) => d.severity === s).length;
        assert.deepEqual(report.summary, {
          errors: count("error"),
          warnings: count("warning"),
          infos: count("info") + count("hint"),
          hints: count("hint"),
        });
        assert.equal(r.status, all.some((d) => d.code === "internal") ? 3 : report.summary.errors ? 1 : 0);
        for (const f of report.files) {
          const lines = designs[Number(f.path.slice(1, -4))].split(/\r\n|\r|\n/);
          for (const d of f.diagnostics) {
            for (const p of [d.range.start, d.range.end]) {
              assert.ok(
                p.line < lines.length && p.character <= lines[p.line].length,
                `${f.path}: ${d.code} at ${JSON.stringify(d.range)} is outside the file (${lines.length} lines)`,
              );
            }
          }
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    12,
  );
  t.diagnostic(`fuzz-cli: ${documents} designs checked`);
});
