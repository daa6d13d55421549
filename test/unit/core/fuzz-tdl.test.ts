/**
 * Property-based fuzzing of the `.tdl` core: mutated designs (the examples
 * with hostile pieces inserted, slices deleted and duplicated) through the
 * lexer, parser, analyzer, IDE features and formatter. `npm test` runs a
 * fixed seed; `npm run fuzz` runs long with a random one (test/helpers/fuzz.ts).
 *
 * Invariants: nothing throws; every call answers within a time bound;
 * findings sit inside the text; formatting is idempotent and keeps every
 * non-whitespace character in order; an analyzer reused across an edit
 * finds what a fresh one finds; `\n`, `\r\n` and `\r` line ends give the
 * same findings at the same LSP positions.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { analyzeTdl, formatTdl, LineIndex, TdlAnalysis, TdlAnalyzer } from "@core";
import { complete, definition, hover, outline, prepareRename, references } from "@server/ide";
import { fuzz } from "../../helpers/fuzz";

/** One call's time bound: generous for a loaded CI machine, far below a hang. */
const BOUND_MS = 1500;

const SOURCES = [
  "marathon",
  "ledger",
  "telemetry",
  "student-cards/composite-colon",
  "student-cards/by-seller",
  "student-cards/by-order-number",
].map((f) => readFileSync(`examples/${f}.tdl`, "utf8"));

/** Pieces a hostile or half-finished edit leaves behind. */
const PIECES = [
  "{",
  "}",
  "(",
  ")",
  "+",
  ":",
  "=",
  "..",
  '"',
  "/*",
  "*/",
  "//",
  "\n",
  "\r",
  "\r\n",
  " ",
  "\t",
  "pad(",
  "hash(",
  "bucket(",
  "date(",
  "table ",
  "query Q ",
  "where ",
  'filter "',
  "'",
  "1_000",
  "2.5M",
  "-3",
  "-.",
  "%",
  "?",
  "rowKey = ",
  "partitionKey = ",
  "index I rowKey = ",
  "between",
  "prefix",
  "\\u12",
  "é",
  "\u0000",
  "𝄞",
  "\ud800",
  "service ",
  "service tablestore\n",
  "retention 90d",
  "rows 1B",
  "entitySize 4MiB",
  "insert W 6000/s batch 100",
  "transaction T 5/s entities 3 sharing ",
  "PartitionKey eq 'a' and (",
  "not not not ",
  "99999999999999999999",
  "int(0..",
  "enum(",
  "string(",
  'charset "a-"',
];

const hostilePiece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 3000 }).map((n) => "pad(".repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 3000 }).map((n) => "(".repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 60 }).map((n) => "\n".repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }).map((n) => "    // comment\n".repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 200_000 }).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

type Mutation =
  | { at: number; op: "insert"; piece: string }
  | { at: number; op: "delete"; length: number }
  | { at: number; op: "copy"; from: number; length: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ at: fc.nat(), op: fc.constant("insert" as const), piece: hostilePiece }),
  fc.record({ at: fc.nat(), op: fc.constant("delete" as const), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ at: fc.nat(), op: fc.constant("copy" as const), from: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }),
);

function apply(text: string, m: Mutation): string {
  const at = m.at % (text.length + 1);
  if (m.op === "insert") return text.slice(0, at) + m.piece + text.slice(at);
  if (m.op === "delete") return text.slice(0, at) + text.slice(at + m.length);
  const from = m.from % (text.length + 1);
  return text.slice(0, at) + text.slice(from, from + m.length) + text.slice(at);
}

/** A design: one example with a few mutations. */
const design = fc
  .record({ source: fc.nat(SOURCES.length - 1), mutations: fc.array(mutation, { minLength: 1, maxLength: 5 }) })
  .map(({ source, mutations }) => mutations.reduce(apply, SOURCES[source]));

function timed<T>(what: string, fn: () => T): T {
  const started = performance.now();
  const out = fn();
  const ms = performance.now() - started;
  assert.ok(ms < BOUND_MS, `${what} took ${ms.toFixed(0)} ms`);
  return out;
}

const shape = (a: TdlAnalysis) => a.findings.map((f) => `${f.code}@${f.start}-${f.end}:${f.message}`);
const nonWhitespace = (s: string) => s.replace(/\s+/g, "");

test("mutated designs: the analyzer and every IDE feature answer, in time, inside the text", () => {
  fuzz(
    "tdl-analysis",
    fc.tuple(design, fc.nat()),
    ([text, where]) => {
      const a = timed("analysis", () => analyzeTdl(text));
      for (const f of a.findings)
        assert.ok(f.start >= 0 && f.start <= f.end && f.end <= text.length, `${f.code} at ${f.start}-${f.end} of ${text.length}`);
      const at = where % (text.length + 1);
      timed("IDE features", () => {
        outline(a);
        hover(a, at);
        complete(a, at);
        definition(a, at);
        references(a, at, true);
        prepareRename(a, at);
      });
    },
    250,
  );
});

test("formatting is idempotent and keeps every non-whitespace character, in time", () => {
  fuzz(
    "tdl-format",
    design,
    (text) => {
      const once = timed("format", () => formatTdl(text));
      assert.equal(nonWhitespace(once), nonWhitespace(text), "formatting changed more than whitespace");
      assert.equal(formatTdl(once), once, "format(format(x)) differs from format(x)");
    },
    250,
  );
});

test("an analyzer reused across an edit finds what a fresh one finds", () => {
  fuzz(
    "tdl-incremental",
    fc.tuple(design, mutation),
    ([before, edit]) => {
      const after = apply(before, edit);
      const reused = new TdlAnalyzer();
      reused.analyze(before);
      assert.deepEqual(shape(timed("incremental analysis", () => reused.analyze(after))), shape(analyzeTdl(after)));
    },
    250,
  );
});

test("\\n, \\r\\n and \\r line ends give the same findings at the same LSP positions", () => {
  fuzz(
    "tdl-line-ends",
    design.filter((t) => !t.includes("\r")),
    (text) => {
      const positions = (t: string) => {
        const lines = new LineIndex(t);
        return analyzeTdl(t).findings.map((f) => `${f.code}@${JSON.stringify(lines.range(f.start, f.end))}`);
      };
      const lf = positions(text);
      assert.deepEqual(positions(text.replace(/\n/g, "\r\n")), lf, "CRLF");
      assert.deepEqual(positions(text.replace(/\n/g, "\r")), lf, "CR");
    },
    150,
  );
});
