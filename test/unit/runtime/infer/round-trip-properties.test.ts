/**
 * Inference as a round trip over generated designs (issue #32): tables
 * generated from designs of test/helpers/design-arbitraries.ts with
 * realistic values (counters, zeros, whole minutes and hours, GUIDs) are
 * inferred back. Every inferred key expression rebuilds every sampled key
 * by the core's evaluator, no inferred key repeats a property, and the key
 * expressions come back equivalent — equal to the original, or over the
 * same properties — for at least FLOOR of the keys. Designs whose keys the
 * analyzer finds ambiguous (an unpadded number beside digits) are left out:
 * nobody can read those back. `npm run fuzz` runs
 * more designs; the bench's infer section prints the rate for 200.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { analyzeTdl } from "@core";
import { inferDesign } from "@runtime/infer/infer";
import { FUZZ_SEED, fuzzRuns } from "../../../helpers/fuzz";
import { designArb, designText } from "../../../helpers/design-arbitraries";
import { realisticRows } from "../../../helpers/realistic-rows";
import { keyExpressions, normalizedExpr } from "../../../helpers/infer-round-trip";
import { BoundKey, repeatedKeyProperties, sameKeys, sameOnRows } from "../../../helpers/key-equivalence";
import type { TableModel } from "@core";

/**
 * Where the rate stands (issue #32 asks 95 %): keys that mix a constant
 * prefix, a hash or bucket and an index row's shape in one free column still
 * come back as key-only parts. This floor keeps what was reached.
 */
const FLOOR = 0.65;

/** PartitionKey, RowKey and index RowKeys in the order of `keyExpressions` (indexes sorted by their text). */
function boundKeys(tm: TableModel): BoundKey[] {
  const t = tm.table;
  const text = (e: { start: number; end: number }) => normalizedExpr(tm.text, e);
  const ix = [...t.indexes].sort((a, b) => (text(a.expr) < text(b.expr) ? -1 : text(a.expr) > text(b.expr) ? 1 : 0));
  return [t.partitionKey?.expr, t.rowKey?.expr, ...ix.map((i) => i.expr)].map((expr) => ({ tm, expr: expr! }));
}

test("tables of generated designs come back with keys that rebuild every sample, repeat no property and match the original", (t) => {
  const designs = fc.sample(designArb, { seed: FUZZ_SEED, numRuns: fuzzRuns(40) }).map(designText);
  let keys = 0;
  let equivalent = 0;
  const differ: string[] = [];
  let judged = 0;
  designs.forEach((text, n) => {
    const a = analyzeTdl(text);
    // A key the analyzer finds ambiguous ("v1" + an unpadded number) cannot be read back by anyone: not a case for inference.
    if (a.findings.some((f) => f.code.startsWith("key/") && (f.severity === "error" || f.severity === "warning"))) return;
    judged++;
    const original = a.tables[0];
    const rows = realisticRows(original, 400, n + 1);
    const r = inferDesign(rows, { table: original.table.name.text });
    const where = `design ${n}:\n${text}\ninferred:\n${r.text}`;
    assert.equal(r.check.parsed, true, where);
    assert.equal(r.check.partitionKey, r.check.total, `every PartitionKey rebuilt: ${where}`);
    assert.equal(r.check.anyRowKey, r.check.total, `every RowKey rebuilt: ${where}`);
    const inferred = analyzeTdl(r.text).tables[0];
    assert.deepEqual(repeatedKeyProperties(inferred), [], `no inferred key repeats a property: ${where}`);
    const want = keyExpressions(text, original);
    const got = keyExpressions(r.text, inferred);
    const wantExprs = boundKeys(original);
    const gotExprs = boundKeys(inferred);
    // Entities the inference never read, from the design's whole domain (every step of time, other values).
    const fresh = [1, 2, 3, 4].flatMap((k) => realisticRows(original, 50, n + 1 + k * 1000));
    const same = (i: number, j: number) => sameKeys(want[i], got[j]) || sameOnRows(wantExprs[i], gotExprs[j], fresh);
    // The PartitionKey against the PartitionKey; row keys as a set (which shape is the main row is the inference's call).
    const rowKeys = got.slice(1);
    want.forEach((w, i) => {
      keys++;
      const match = i === 0 ? same(0, 0) : rowKeys.some((_, j) => same(i, j + 1));
      if (match) equivalent++;
      else differ.push(`${w}  ≠  ${i === 0 ? got[0] : rowKeys.join(" | ")}`);
    });
  });
  assert.ok(judged >= designs.length / 3, `${judged} of ${designs.length} generated designs have unambiguous keys`);
  const rate = equivalent / keys;
  t.diagnostic(`${equivalent} of ${keys} keys of ${judged} designs equivalent (${(rate * 100).toFixed(1)} %)`);
  assert.ok(rate >= FLOOR, `${equivalent} of ${keys} keys equivalent (${(rate * 100).toFixed(1)} %):\n${differ.join("\n")}`);
});
