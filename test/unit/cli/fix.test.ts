/**
 * `tdl fix`'s rounds: the edits chosen in one round never overlap (checked
 * against a plain list by a fuzzer), and a design with thousands of fixes is
 * fixed completely without a quadratic number of comparisons.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { fixText, TakenEdits } from "@cli/commands/fix";
import { analyzeTdl, TextEdit } from "@core";
import { fuzz } from "../../helpers/fuzz";

/** The rule as a plain list checks it: overlapping ranges, or two edits of the same range. */
function clashesNaively(taken: TextEdit[], e: TextEdit): boolean {
  return taken.some((t) => (e.start < t.end && t.start < e.end) || (e.start === t.start && e.end === t.end));
}

test("the sorted edits of a round clash exactly where a plain list says they do", () => {
  const edit = fc
    .record({ start: fc.integer({ min: 0, max: 60 }), length: fc.integer({ min: 0, max: 6 }) })
    .map(({ start, length }): TextEdit => ({ start, end: start + length, newText: "x" }));
  fuzz(
    "fix-taken-edits",
    fc.array(edit, { maxLength: 60 }),
    (edits) => {
      const plain: TextEdit[] = [];
      const taken = new TakenEdits();
      for (const e of edits) {
        const expected = clashesNaively(plain, e);
        assert.equal(taken.clashes(e), expected, `edit ${e.start}-${e.end} after ${JSON.stringify(plain.map((t) => [t.start, t.end]))}`);
        if (!expected) {
          plain.push(e);
          taken.add(e);
        }
      }
      assert.equal(taken.edits.length, plain.length);
    },
    500,
  );
});

test("a design with 3,000 unpadded numbers is padded everywhere by one run of fixText", () => {
  const tables = Array.from(
    { length: 3000 },
    (_, i) => `table Table${i} {\n  Id: int(0..99999)\n  Kind: string(8)\n  partitionKey = Kind\n  rowKey = Id\n}\n`,
  );
  const before = analyzeTdl(tables.join("")).findings.filter((f) => f.code === "key/unpadded-number").length;
  assert.equal(before, 3000);
  const { text, applied } = fixText(tables.join(""));
  assert.equal(applied.filter((c) => c === "key/unpadded-number").length, 3000);
  assert.equal(analyzeTdl(text).findings.filter((f) => f.code === "key/unpadded-number").length, 0);
  assert.match(text, /table Table2999 \{[^}]*rowKey = pad\(Id, 5\)/);
});
