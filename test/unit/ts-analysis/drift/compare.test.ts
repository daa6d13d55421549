import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, profileFor } from "@core";
import { bestMatch, compareShapes } from "@ts-analysis/drift/compare";
import { designShape, render, Shape } from "@ts-analysis/drift/shape";
import { tablesOfDesign } from "@ts-analysis/drift/design-index";

const AZURE = profileFor("azure-table");

/** A design key's shape, from a one-table design. */
function design(key: string, props = "A: string(10)\n  B: int(0..999)\n  C: string(10)"): Shape {
  const a = analyzeTdl(`table T {\n  ${props}\n  partitionKey = ${key}\n  rowKey = A\n}\n`);
  const tm = a.tables[0];
  return designShape(tm.table.partitionKey!.expr, tm.props);
}

const lit = (text: string): Shape[number] => ({ kind: "lit", text, nodes: [] });
const slot = (name: string, extra: Partial<Extract<Shape[number], { kind: "slot" }>> = {}): Shape[number] => ({
  kind: "slot",
  props: [name],
  ...extra,
});
const kinds = (code: Shape, d: Shape) => compareShapes(code, d, AZURE).map((x) => x.kind);

test("design shapes: literals merge, functions keep their widths, lower/upper are their value", () => {
  assert.equal(render(design(`"P:" + ":" + pad(B, 3) + "_" + lower(A) + hash(C, 4)`)), `"P::" + pad(B, 3) + "_" + A + hash(C, 4)`);
});

test("the same shape has no drift; each difference is named once", () => {
  const d = design(`"P:" + pad(B, 3) + "_" + A`);
  assert.deepEqual(kinds([lit("P:"), slot("b", { fn: "pad", width: 3 }), lit("_"), slot("a")], d), []);
  assert.deepEqual(kinds([lit("P:"), slot("b", { fn: "pad", width: 4 }), lit("_"), slot("a")], d), ["pad-width"]);
  assert.deepEqual(kinds([lit("P:"), slot("b", { numeric: true }), lit("_"), slot("a")], d), ["pad-width"]);
  assert.deepEqual(kinds([slot("b", { fn: "pad", width: 3 }), lit("_"), slot("a")], d), ["prefix"]);
  assert.deepEqual(kinds([lit("Q:"), slot("b", { fn: "pad", width: 3 }), lit("_"), slot("a")], d), ["prefix"]);
  assert.deepEqual(kinds([lit("P:"), slot("b", { fn: "pad", width: 3 }), lit("-"), slot("a")], d), ["separator"]);
  assert.deepEqual(kinds([lit("P:"), slot("b", { fn: "pad", width: 3 }), lit("_"), slot("a"), lit("_")], d), ["separator"]);
  assert.deepEqual(kinds([lit("P:"), slot("a"), lit("_"), slot("b", { fn: "pad", width: 3 })], d), ["segment-order"]);
  assert.deepEqual(kinds([lit("P:"), slot("b", { fn: "pad", width: 3 }), lit("_"), slot("a"), lit("_"), slot("zzz")], d), ["extra-part"]);
  assert.deepEqual(kinds([lit("P:"), slot("b", { fn: "pad", width: 3 })], d), ["missing-part"]);
});

test("values named differently or not at all are matched by position, not called drift", () => {
  const d = design(`A + "_" + C`);
  assert.deepEqual(kinds([slot("input"), lit("_"), slot("other")], d), []);
  assert.deepEqual(kinds([{ kind: "slot", props: [] }, lit("_"), slot("c")], d), []);
});

test("forbidden characters: NUL, \\r, '/', '#' in the code's literals; not when the design itself has them", () => {
  const d = design(`A + "_" + C`);
  for (const ch of ["\u0000", "\r", "/", "#", "?", "\\", "\u007f"]) {
    assert.ok(kinds([slot("a"), lit(`_${ch}`), slot("c")], d).includes("forbidden-character"), JSON.stringify(ch));
  }
  // Tablestore forbids none of them: only the separator differs.
  assert.deepEqual(
    compareShapes([slot("a"), lit("#"), slot("c")], d, profileFor("tablestore")).map((x) => x.kind),
    ["separator"],
  );
});

test("a 1 MB literal and a 2,000-part key compare in linear time", () => {
  const d = design(`A + "_" + C`);
  const started = process.hrtime.bigint();
  assert.deepEqual(kinds([slot("a"), lit("_".repeat(1 << 20)), slot("c")], d), ["separator"]);
  const many: Shape = [];
  for (let i = 0; i < 2000; i++) many.push(slot(`v${i}`), lit("_"));
  assert.ok(kinds(many, d).includes("extra-part"));
  // Generous: the point is that it does not blow up, not how fast this machine is.
  assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 5000);
});

test("the closest of several row keys is the one compared (the index row with the 'AGE:' prefix)", () => {
  const designs = tablesOfDesign(
    `table R {
  Age: int(0..120)
  Bib: int(0..99999)
  partitionKey = "x"
  rowKey = "BIB:" + pad(Bib, 5) + "_" + pad(Age, 3)
  index ByAge rowKey = "AGE:" + pad(Age, 3) + "_" + pad(Bib, 5)
}
`,
    "/r.tdl",
  );
  const r = designs.get("R")!;
  const best = bestMatch(
    [lit("AGE:"), slot("age", { fn: "pad", width: 3 }), lit("_"), slot("bib", { fn: "pad", width: 4 })],
    r.rowKeys,
    AZURE,
  )!;
  assert.equal(best.candidate.label, "index ByAge");
  assert.deepEqual(
    best.drifts.map((x) => x.kind),
    ["pad-width"],
  );
  assert.deepEqual(r.keyProps, {
    partitionKey: [],
    rowKeys: [
      ["Bib", "Age"],
      ["Age", "Bib"],
    ],
  });
});

test("a design that does not parse, or a table without keys, still indexes (no shapes, no queries)", () => {
  const designs = tablesOfDesign("table Broken {\n  A: string\n  partitionKey = A +\n", "/b.tdl");
  const t = designs.get("Broken");
  assert.ok(t);
  assert.deepEqual(t.rowKeys, []);
  assert.deepEqual(t.queries, []);
  assert.equal(tablesOfDesign("\u0000\r\r table", "/n.tdl").size <= 1, true);
});
