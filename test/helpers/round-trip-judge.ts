/**
 * The round trip of inference over generated designs (issue #32), judged
 * the same way by the unit test (sampled rows in memory) and by the bench
 * (rows written to the emulator and read back): which generated designs
 * can be read back at all, and, for one design and what was inferred from
 * its table, how many keys came back equivalent, which differ, and what an
 * inferred key repeats.
 */
import fc from "fast-check";
import { analyzeTdl } from "@core";
import type { TableModel } from "@core";
import { designArb, designText } from "./design-arbitraries";
import { keyExpressions, normalizedExpr } from "./infer-round-trip";
import { BoundKey, repeatedKeyProperties, sameKeys, sameOnRows } from "./key-equivalence";
import { realisticRows } from "./realistic-rows";

/** A generated design whose keys can be read back, with its number in the sample (its rows' seed). */
/** Below this many entities a table shows no shape to read (a key of a two-valued enum holds two entities). */
export const FEWEST_ENTITIES = 30;

export interface JudgedDesign {
  n: number;
  text: string;
  original: TableModel;
}

/**
 * The first `count` designs of the generator (fixed seed) whose keys the
 * analyzer finds unambiguous: a key it warns about ("v1" + an unpadded
 * number) cannot be read back by anyone, so it is no case for inference.
 */
export function judgedDesigns(seed: number, count: number): { generated: number; designs: JudgedDesign[] } {
  const texts = fc.sample(designArb, { seed, numRuns: count }).map(designText);
  const designs: JudgedDesign[] = [];
  texts.forEach((text, n) => {
    const a = analyzeTdl(text);
    if (a.findings.some((f) => f.code.startsWith("key/") && (f.severity === "error" || f.severity === "warning"))) return;
    designs.push({ n, text, original: a.tables[0] });
  });
  return { generated: texts.length, designs };
}

export interface RoundTripVerdict {
  keys: number;
  equivalent: number;
  /** "original ≠ inferred" for each key that did not come back. */
  differ: string[];
  /** What the inferred keys repeat ("Orders.rowKey repeats Seq"). */
  repeated: string[];
}

/** PartitionKey, RowKey and index RowKeys in the order of `keyExpressions` (indexes sorted by their text). */
function boundKeys(tm: TableModel): BoundKey[] {
  const t = tm.table;
  const text = (e: { start: number; end: number }) => normalizedExpr(tm.text, e);
  const ix = [...t.indexes].sort((a, b) => (text(a.expr) < text(b.expr) ? -1 : text(a.expr) > text(b.expr) ? 1 : 0));
  return [t.partitionKey?.expr, t.rowKey?.expr, ...ix.map((i) => i.expr)].map((expr) => ({ tm, expr: expr! }));
}

/**
 * Judges what was inferred from a design's table. A key comes back when the
 * inferred expression is the original as written, or builds the same key
 * from entities the inference never read, from the design's whole domain
 * (every grain of time, other values): `lower(Active)` of a bool is
 * `Active`. The PartitionKey is compared with the PartitionKey, row keys as
 * a set (which shape is the main row is the inference's call).
 */
export function judgeRoundTrip(d: JudgedDesign, inferredText: string): RoundTripVerdict {
  const inferred = analyzeTdl(inferredText).tables[0];
  const want = keyExpressions(d.text, d.original);
  const got = inferred ? keyExpressions(inferredText, inferred) : [];
  const wantKeys = boundKeys(d.original);
  const gotKeys = inferred ? boundKeys(inferred) : [];
  const fresh = [1, 2, 3, 4].flatMap((k) => realisticRows(d.original, 50, d.n + 1 + k * 1000));
  const same = (i: number, j: number) =>
    got[j] !== undefined && (sameKeys(want[i], got[j]) || (!!gotKeys[j]?.expr && sameOnRows(wantKeys[i], gotKeys[j], fresh)));
  const rowKeys = got.slice(1);
  const verdict: RoundTripVerdict = { keys: 0, equivalent: 0, differ: [], repeated: inferred ? repeatedKeyProperties(inferred) : [] };
  want.forEach((w, i) => {
    verdict.keys++;
    if (i === 0 ? same(0, 0) : rowKeys.some((_, j) => same(i, j + 1))) verdict.equivalent++;
    else verdict.differ.push(`design ${d.n}: ${w}  ≠  ${i === 0 ? (got[0] ?? "nothing") : rowKeys.join(" | ")}`);
  });
  return verdict;
}
