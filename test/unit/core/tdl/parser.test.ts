import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "@core/tdl/parser";
import { lex, T } from "@core/tdl/lexer";
import { marked } from "../../../helpers/markers";

test("the language reference's example parses without errors into its members", () => {
  const { file, errors } = parse(readFileSync("examples/marathon.tdl", "utf8"));
  assert.deepEqual(errors, []);
  assert.equal(file.service?.value, "azure-table");
  const t = file.tables[0];
  assert.equal(t.name.text, "Registrations");
  assert.deepEqual(
    t.properties.map((p) => p.name.text),
    ["Event", "Distance", "Bib", "Name", "Gender", "Age"],
  );
  assert.deepEqual(
    t.properties[1].type.values?.map((v) => v.text),
    ["Full", "Half", "TenK"],
  );
  assert.equal(t.properties[2].type.max?.value, 99999);
  assert.equal(t.partitionKey?.expr.parts.length, 3);
  assert.equal(t.indexes[0].name.text, "ByAge");
  assert.equal(t.rows?.value.value, 2_000_000);
  assert.equal(t.entitySize?.value.value, 1024);
  const [byBib, byAge, register] = t.accesses;
  assert.equal(byBib.kind === "query" && byBib.where?.length, 3);
  assert.equal(byAge.kind === "query" && byAge.where?.[2].op, "between");
  assert.equal(register.kind === "write" && register.rate?.perSecond, 300);
});

test("counts, sizes, rates and percentages follow the language's units", () => {
  const { file, errors } = parse(`table Abc {
  A: int(-5..150) distinct 1_000 hot 30%
  B: binary(4KiB)
  partitionKey = A
  rowKey = B
  rows 2.5M
  entitySize 20GiB
  insert W 12/min batch 100
  upsert U 1/day
  query Q 25K/s filter "PartitionKey eq 'a'" select A, B returns 5
  transaction X 3/h entities 2 sharing A
}`);
  assert.deepEqual(errors, []);
  const t = file.tables[0];
  assert.equal(t.properties[0].type.min?.value, -5);
  assert.equal(t.properties[0].type.max?.value, 150);
  assert.deepEqual(
    t.properties[0].modifiers.map((m) => m.kind),
    ["distinct", "hot"],
  );
  assert.equal(t.properties[1].type.size?.value, 4096);
  assert.equal(t.rows?.value.value, 2_500_000);
  assert.equal(t.entitySize?.value.value, 20 * 1024 ** 3);
  const [w, u, q, x] = t.accesses;
  assert.equal(w.rate?.perSecond, 0.2);
  assert.equal(w.kind === "write" && w.batch?.value, 100);
  assert.ok(Math.abs(u.rate!.perSecond - 1 / 86400) < 1e-12);
  assert.equal(q.rate?.perSecond, 25_000);
  assert.equal(q.kind === "query" && q.filter?.value, "PartitionKey eq 'a'");
  assert.equal(q.kind === "query" && q.returns?.value, 5);
  assert.equal(x.kind === "transaction" && x.entities?.value, 2);
});

test("an incomplete key expression ends at the next line's member keyword", () => {
  const m = marked(`table Abc {
  A: int
  partitionKey = A +
  «rowKey» = "x"
}`);
  const { file, errors } = parse(m.text);
  assert.equal(errors.length, 1);
  assert.deepEqual({ start: errors[0].start, end: errors[0].end }, m.ranges[0]);
  assert.match(errors[0].message, /expected a key part/);
  assert.ok(file.tables[0].rowKey, "the rowKey after the broken line is still parsed");
  assert.equal(file.tables[0].hasSyntaxError, true);
});

test("a property whose name is a keyword is still a property", () => {
  const { file, errors } = parse(`table Abc {
  rows: int(0..9)
  query: string(5)
  partitionKey = rows
  rowKey = query
}`);
  assert.deepEqual(errors, []);
  assert.deepEqual(
    file.tables[0].properties.map((p) => p.name.text),
    ["rows", "query"],
  );
});

test("errors in one table do not stop the next table from parsing", () => {
  const m = marked(`table Broken {
  A: «strin»
  partitionKey = «}»
table Good {
  B: int
  partitionKey = pad(B, 3)
  rowKey = "x"
}`);
  const { file, errors } = parse(m.text);
  assert.deepEqual(
    errors.map((e) => ({ start: e.start, end: e.end })),
    m.ranges,
  );
  assert.equal(file.tables.length, 2);
  assert.equal(file.tables[1].hasSyntaxError, false);
  assert.equal(file.tables[1].partitionKey?.expr.parts[0].kind, "call");
});

test("strings decode escapes and keep offsets of each character", () => {
  const src = `"a\\"b\\u0041"`;
  const { tokens } = lex(src);
  assert.equal(tokens[0].kind, T.String);
  assert.equal(tokens[0].value, 'a"bA');
  assert.deepEqual(tokens[0].offsets, [1, 2, 4, 5]);
});

test("unterminated strings and comments are syntax errors at their start", () => {
  const m = marked(`table Abc {
  A: string charset «"a-z»
}
«/*» never closed`);
  const { errors } = parse(m.text);
  assert.deepEqual(
    errors.map((e) => ({ start: e.start, end: e.end })),
    m.ranges,
  );
});

test("unknown services and functions are reported", () => {
  const m = marked(`service «azure-tables»
table Abc {
  A: int
  partitionKey = «frob»(A)
  rowKey = "x"
}`);
  const { errors } = parse(m.text);
  assert.deepEqual(
    errors.map((e) => ({ start: e.start, end: e.end })),
    m.ranges,
  );
  assert.match(errors[1].message, /unknown key function 'frob'/);
});

test("retention is an estimate: a duration in seconds, declared once, recovered from like any member", () => {
  const { file, errors } = parse(`table Readings {
  At: datetime increasing
  retention: int
  partitionKey = date(At, "yyyyMMdd")
  rowKey = date(At, "HHmmss")
  retention 90d
}`);
  assert.deepEqual(errors, []);
  const t = file.tables[0];
  assert.deepEqual([t.retention?.which, t.retention?.value.value, t.retention?.value.raw], ["retention", 90 * 86400, "90d"]);
  assert.deepEqual(
    t.properties.map((p) => p.name.text),
    ["At", "retention"],
    "a property may still be called retention",
  );

  const m = marked(`table Readings {
  At: datetime increasing
  partitionKey = date(At, "yyyyMMdd") +
  retention «90»
  «retention» 2y
  rows 1M
}`);
  const bad = parse(m.text);
  assert.deepEqual(
    bad.errors.map((e) => e.message),
    [
      "expected a key part: a property name, a \"string\" or a function such as pad(P, 5), found 'retention'",
      "'90' is not a duration: use a number with a unit s, min, h, d, w or y, such as 90d",
      "'retention' is declared twice; the first declaration counts",
    ],
  );
  assert.deepEqual(
    bad.errors.slice(1).map((e) => ({ start: e.start, end: e.end })),
    m.ranges,
  );
  assert.equal(bad.file.tables[0].rows?.value.value, 1e6, "the members after it still parse");
});

test("a half-typed retention, with \\r line ends and a NUL, costs only its own line", () => {
  for (const half of ["retention", "retention ", "retention 9", "retention 9\u0000d", `retention ${"9".repeat(400)}y`]) {
    const text = `table Readings {\r  At: datetime increasing\r  partitionKey = date(At, "yyyyMMdd")\r  rowKey = date(At, "HHmmss")\r  ${half}\r  insert W 5K/s\r}\r`;
    const { file, errors } = parse(text);
    assert.ok(errors.length >= 1, half);
    // On the retention line, or (nothing typed after the keyword) where the duration was expected: the next token.
    assert.ok(
      errors.every((e) => text.slice(0, e.start).split("\r").length === 5 || /expected a duration after 'retention'/.test(e.message)),
      `${JSON.stringify(half)}: only the retention is in error: ${errors.map((e) => e.message).join(" | ")}`,
    );
    assert.equal(file.tables[0].accesses.length, 1, "the insert after it still parses");
  }
});
