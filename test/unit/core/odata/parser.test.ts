import { after, test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";
import { runClassify } from "@cli/commands/classify";
import { classifyFilter, keyConstraint, normalize } from "@core/odata/classify";
import { lexOData } from "@core/odata/lexer";
import { FilterExpr, MAX_FILTER_DEPTH, parseFilter } from "@core/odata/parser";
import { printFilter } from "@core/odata/print";
import { TsFixture } from "../../../helpers/typescript";

function parsed(filter: string): FilterExpr {
  const p = parseFilter(filter);
  assert.ok(p.ok, `${filter.slice(0, 100)}: ${!p.ok ? p.error.message : ""}`);
  return p.expr;
}

function errorOf(filter: string) {
  const p = parseFilter(filter);
  assert.ok(!p.ok, `${filter.slice(0, 100)} should not parse`);
  return p.error;
}

const classOf = (filter: string) => classifyFilter(parsed(filter)).class;

test("'-.' anywhere (typed on the way to a number) is a parse error that says what to write, not a TypeError", () => {
  for (const [filter, at] of [
    ["-.", 0],
    ["Age gt -.", 7],
    ["Age gt -. and PartitionKey eq 'a'", 7],
    ["(-.)", 1],
    ["PartitionKey eq 'a' or -.", 23],
  ] as const) {
    const e = errorOf(filter);
    assert.equal(e.start, at, filter);
    assert.equal(e.end, at + 2, filter);
    assert.match(e.message, /'-\.' is not a number: write digits around the point, such as -0\.5/);
  }
  assert.equal(lexOData("-.").length, 2, "the lexer itself does not throw either");
});

test("decimals may leave out the digits on one side of the point, as OData's grammar allows", () => {
  for (const [filter, value] of [
    ["Ratio gt .5", ".5"],
    ["Ratio gt -.5", "-.5"],
    ["Ratio gt 12.", "12."],
    ["Ratio gt -.5e3", "-.5e3"],
  ] as const) {
    const p = parseFilter(filter);
    assert.ok(p.ok, filter);
    assert.ok(p.expr.kind === "cmp" && p.expr.value.type === "double" && p.expr.value.value === value, filter);
  }
});

test("half-typed numbers and literals fail at their own position with the form to write", () => {
  const cases: Array<[string, number, RegExp]> = [
    ["Age gt 1e", 7, /'1e' is not a number: write the exponent's digits, such as 1e3/],
    ["Age gt 1e+", 7, /'1e\+' is not a number: write the exponent's digits/],
    ["Age gt .", 7, /unexpected character '\.': a number needs digits, such as 0\.5/],
    ["Age gt 5x", 7, /'5x' is not a number: put a space between a number and the word after it/],
    ["Age gt 1.5L", 7, /an int64 literal is a whole number, such as 1L/],
    ["At gt datetime'2026-", 6, /unterminated literal: add the closing '/],
    ["At gt datetime'2026-'", 6, /not an ISO 8601 date-time such as datetime'2026-01-01T00:00:00Z'/],
    ["Id eq guid'", 6, /unterminated literal/],
    ["Blob eq X'0'", 8, /is not hexadecimal bytes such as X'0a1b'/],
    ["Big eq 99999999999999999999L", 7, /does not fit a 64-bit integer/],
    ["Ratio eq 1e999", 9, /too large for a double/],
    ["Age gt -", 7, /a minus sign belongs to a number such as -5/],
    ["Age = 5", 4, /unexpected character '=': write 'eq'/],
    ['Name eq "x"', 8, /string literals take single quotes/],
    ["not", 3, /expected a condition after 'not'/],
    ["PartitionKey eq 'a' and", 23, /expected a property name or a literal, found the end of the filter/],
    ["PartitionKey eq 'a')", 19, /this '\)' closes no '\(': remove it/],
  ];
  for (const [filter, at, message] of cases) {
    const e = errorOf(filter);
    assert.equal(e.start, at, `${filter}: ${e.message}`);
    assert.match(e.message, message, filter);
    assert.ok(e.end >= e.start && e.end <= filter.length, filter);
  }
  // Still valid: a negative number, an exponent with a sign, the int64 and double suffixes.
  for (const f of ["Age gt -5", "Ratio gt 2.5E-3", "Ratio gt -0.5", "Big eq -9223372036854775808L", "Ratio eq 2d", "Age eq -2147483648"])
    parsed(f);
});

test("nesting is limited with a clear error: 1,800 parentheses, 7,500 'not's", () => {
  const deepParens = "(".repeat(1800) + "PartitionKey eq 'a'" + ")".repeat(1800);
  const e1 = errorOf(deepParens);
  assert.match(e1.message, new RegExp(`the filter nests deeper than ${MAX_FILTER_DEPTH} levels of parentheses and 'not'`));
  assert.equal(e1.start, MAX_FILTER_DEPTH, "at the first '(' over the limit");
  const e2 = errorOf("not ".repeat(7500) + "IsActive");
  assert.match(e2.message, /nests deeper than/);
  assert.equal(e2.start, 4 * MAX_FILTER_DEPTH);
  // Up to the limit it parses, and every consumer copes with the tree.
  const atLimit = "(".repeat(MAX_FILTER_DEPTH) + "PartitionKey eq 'a'" + ")".repeat(MAX_FILTER_DEPTH);
  assert.equal(classOf(atLimit), "row-range");
  const notsAtLimit = "not ".repeat(MAX_FILTER_DEPTH) + "(PartitionKey eq 'a')";
  assert.equal(errorOf(notsAtLimit).start, 4 * (MAX_FILTER_DEPTH - 1) + 4, "the '(' after 100 'not's is level 101");
  assert.equal(classOf("not ".repeat(MAX_FILTER_DEPTH - 1) + "(PartitionKey eq 'a')"), "table-scan", "an odd number of 'not's negates");
  assert.equal(classOf("not ".repeat(MAX_FILTER_DEPTH - 2) + "(PartitionKey eq 'a')"), "row-range", "an even number keeps it");
});

test("long runs of 'and'/'or' stay shallow: a 50,000-term filter classifies without overflowing the stack", () => {
  const ors = Array.from({ length: 50_000 }, (_, i) => `RowKey eq '${i}'`).join(" or ");
  const e = parsed(`PartitionKey eq 'p' and (${ors})`);
  let depth = 0;
  for (let stack: Array<[FilterExpr, number]> = [[e, 1]]; stack.length;) {
    const [n, d] = stack.pop()!;
    depth = Math.max(depth, d);
    if (n.kind === "and" || n.kind === "or") stack.push([n.left, d + 1], [n.right, d + 1]);
  }
  assert.ok(depth <= 20, `tree depth ${depth}`);
  assert.equal(classifyFilter(e).class, "row-range");
  assert.equal(keyConstraint(normalize(e), "PartitionKey").kind, "exact");
  assert.equal(parseFilter(printFilter(e)).ok, true);
});

test("bare Boolean properties and literals, as Microsoft documents them", () => {
  const cases: Array<[string, string]> = [
    ["IsActive", "table-scan"],
    ["not IsActive", "table-scan"],
    ["true", "table-scan"],
    ["false", "table-scan"],
    ["PartitionKey eq 'a' and IsActive", "row-range"],
    ["(IsActive) or Age gt 3", "table-scan"],
    ["PartitionKey eq 'a' and RowKey eq '1' and not IsActive", "point"],
    ["PartitionKey eq 'a' and true", "row-range"],
    ["IsActive and PartitionKey eq 'a' and RowKey eq '1'", "point"],
    ["PartitionKey eq 'a' or IsActive", "table-scan"],
  ];
  for (const [filter, cls] of cases) assert.equal(classOf(filter), cls, filter);
  const e = parsed("PartitionKey eq 'a' and IsActive");
  assert.ok(e.kind === "and" && e.right.kind === "prop");
  assert.deepEqual(
    e.right,
    { kind: "prop", property: "IsActive", propStart: 24, propEnd: 32, start: 24, end: 32 },
    "the bare property keeps its position",
  );
  const inParens = parsed("PartitionKey eq 'a' and ( IsActive )");
  assert.ok(inParens.kind === "and" && inParens.right.kind === "prop");
  assert.deepEqual(
    [inParens.right.propStart, inParens.right.propEnd, inParens.right.start, inParens.right.end],
    [26, 34, 24, 36],
    "the name, and the span with its parentheses",
  );
  assert.deepEqual(parsed("not true"), { kind: "not", expr: { kind: "const", value: true, start: 4, end: 8 }, start: 0, end: 8 });
});

test("precedence is the service's: not > comparison > and > or", () => {
  assert.equal(printFilter(parsed("IsActive or A eq 1 and B eq 2")), "IsActive or A eq 1 and B eq 2");
  const e = parsed("IsActive or A eq 1 and B eq 2");
  assert.ok(e.kind === "or" && e.left.kind === "prop" && e.right.kind === "and");
  const n = parsed("not IsActive and B eq 2");
  assert.ok(n.kind === "and" && n.left.kind === "not" && n.left.expr.kind === "prop", "'not' takes only the term after it");
  // (not IsActive) eq true is not IsActive; eq false negates it again.
  assert.deepEqual(normalize(parsed("not IsActive eq true")), normalize(parsed("not IsActive")));
  assert.equal(printFilter(normalize(parsed("not IsActive eq false"))), "IsActive");
  assert.equal(classOf("(PartitionKey eq 'a') eq true and RowKey eq '1'"), "point");
  assert.equal(classOf("(PartitionKey eq 'a') ne true"), "table-scan");
  assert.equal(classOf("true eq (PartitionKey eq 'a')"), "row-range");
  // `not A eq 'x'` is (not A) eq 'x' to the service: an error that shows the fix.
  const bad = errorOf("not PartitionKey eq 'a'");
  assert.equal(bad.start, 0);
  assert.match(bad.message, /this reads as \(not PartitionKey\) eq 'a': to negate the comparison, write not \(PartitionKey eq 'a'\)/);
  assert.equal(classOf("not (PartitionKey eq 'a')"), "table-scan");
});

test("terms that cannot stand alone say why", () => {
  const cases: Array<[string, number, RegExp]> = [
    [
      "PartitionKey",
      12,
      /expected a comparison operator .* after 'PartitionKey', found the end of the filter: PartitionKey is a string: compare it, such as PartitionKey eq 'a'/,
    ],
    ["RowKey and IsActive", 7, /RowKey is a string/],
    ["Timestamp", 9, /Timestamp is a date-time/],
    ["not PartitionKey", 16, /PartitionKey is a string/],
    ["'a'", 0, /'a' alone is not a condition: compare a property with it, such as Name eq 'a'/],
    ["PartitionKey eq 'a' and 5", 24, /5 alone is not a condition/],
    [
      "IsActive Age",
      9,
      /expected a comparison operator \(eq, ne, gt, ge, lt, le\), 'and', 'or' or the end of the filter after 'IsActive', found 'Age'/,
    ],
    ["(A eq 1) eq 'x'", 12, /'\(A eq 1\)' is a condition: compare it only with true or false/],
    ["(A eq 1) gt true", 9, /only eq and ne compare a condition with true/],
    ["(A eq 1) eq (B eq 2)", 9, /comparing two conditions is not supported/],
  ];
  for (const [filter, at, message] of cases) {
    const e = errorOf(filter);
    assert.equal(e.start, at, `${filter}: ${e.message}`);
    assert.match(e.message, message, filter);
  }
});

test("an 'or' across partitions is reported only when every branch pins one (splitting then helps)", () => {
  const across = (f: string) => classifyFilter(parsed(f)).orAcrossPartitions === true;
  assert.equal(across("PartitionKey eq 'a' or PartitionKey eq 'b'"), true);
  assert.equal(across("PartitionKey eq 'a' or PartitionKey eq 'b' or PartitionKey ge 'x'"), true);
  assert.equal(across("PartitionKey eq 'a' or PartitionKey eq 'b' or IsActive"), false);
  assert.equal(across("PartitionKey eq 'a' or IsActive or PartitionKey eq 'b'"), false, "the same answer whatever the order");
  assert.equal(across("(PartitionKey eq 'a' or PartitionKey eq 'b') and RowKey eq '1'"), true);
  assert.match(classifyFilter(parsed("PartitionKey eq 'a' or IsActive")).reasons[0], /PartitionKey is not pinned/);
});

test("messages quote at most a short excerpt and never raw control characters", () => {
  const long = "x".repeat(100_000);
  for (const filter of [
    `At eq datetime'${long}'`,
    `Id eq guid'${long}'`,
    `${long} ${long}`,
    `Age eq ${"9".repeat(100_000)}`,
    "A eq \u0000",
    "A eq \u001b[31m",
    "A eq \ud800",
    "A eq 😀",
  ]) {
    const e = errorOf(filter);
    assert.ok(e.message.length < 400, `${e.message.length} characters`);
    assert.doesNotMatch(e.message, /[\u0000-\u001f\u007f-\u009f]|\p{Cs}/u, JSON.stringify(e.message));
    assert.ok(e.start >= 0 && e.end <= filter.length && e.start <= e.end);
  }
  assert.deepEqual([errorOf("A eq 😀").start, errorOf("A eq 😀").end], [5, 7], "an emoji is one character, not half of one");
  assert.match(errorOf("A eq \u0000").message, /unexpected character U\+0000/);
  assert.equal(classOf("Größe eq 1 and PartitionKey eq 'a'"), "row-range", "property names may be any C# identifier");
});

test("1 MB and 200,000-character filters lex, parse and classify in linear time", () => {
  const build = (size: number, term: (i: number) => string) => {
    const parts: string[] = [];
    let length = 0;
    for (let i = 0; length < size; i++) {
      parts.push(term(i));
      length += term(i).length + 4;
    }
    return parts.join(" or ");
  };
  const shapes = [(i: number) => `(PartitionKey eq '${i}' and RowKey lt 'x')`, (i: number) => `(PartitionKey eq '${i}' and not IsActive)`];
  for (const size of [200_000, 1_000_000]) {
    for (const shape of shapes) {
      const filter = build(size, shape);
      const started = performance.now();
      const c = classifyFilter(parsed(filter));
      const ms = performance.now() - started;
      assert.equal(c.class, "table-scan");
      assert.equal(c.orAcrossPartitions, true);
      // Linear work takes well under a second here; the old parser overflowed the stack, and its walk of 'or' runs was quadratic.
      assert.ok(ms < 3000, `${size} characters took ${ms.toFixed(0)} ms`);
    }
  }
});

test("the consumers read the new terms: .tdl filter queries and tdl classify", () => {
  const design = `table Orders {
  Customer: string(20) distinct 10K
  OrderId:  int(0..99999)
  IsActive: bool
  partitionKey = Customer
  rowKey       = pad(OrderId, 5)
  rows 1M
  query Active filter "PartitionKey eq 'a' and IsActive"
  query Bad filter "PartitionKey eq 'a' and Amount gt -."
}
`;
  const a = analyzeTdl(design);
  const syntax = a.findings.filter((f) => f.code === "syntax");
  assert.deepEqual(
    syntax.map((f) => design.slice(f.start, f.end)),
    ["-."],
    "only the bad filter is a syntax error, at its '-.'",
  );
  assert.match(syntax[0].message, /write digits around the point/);
  assert.ok(
    a.findings.some((f) => f.code === "query/class" && design.slice(f.start, f.end) === "Active" && f.message.startsWith("row-range")),
  );
  const ok = runClassify("PartitionKey eq 'a' and not IsActive", { format: "json" });
  assert.equal(ok.exitCode, 0);
  assert.equal(JSON.parse(ok.stdout).class, "row-range");
  const bad = runClassify("Age gt -.", { format: "text" });
  assert.equal(bad.exitCode, 2);
  assert.match(bad.stderr, /does not parse at character 8: '-\.' is not a number/);
  // A long filter with line breaks: the excerpt is one short line, and the caret sits under the error.
  const long = "A eq 1 and\n".repeat(20_000) + "B eq -. and C eq 1";
  const shown = runClassify(long, { format: "text" }).stderr.split("\n");
  assert.ok(
    shown.every((line) => line.length < 400),
    "no line echoes the whole filter",
  );
  const [excerpt, pointer] = shown.slice(1, 3);
  assert.equal(excerpt[pointer.indexOf("^")], "-");
});

test("the TypeScript analysis classifies listEntities filters with bare Boolean terms", () => {
  const fx = new TsFixture();
  after(() => fx.dispose());
  const found = fx.expect(
    "bool.ts",
    `import { TableClient, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
export async function read(customer: string, flag: boolean) {
  client.«listEntities»({ queryOptions: { filter: odata\`PartitionKey eq \${customer} and IsActive\` } });
  client.«listEntities»({ queryOptions: { filter: "not IsActive" } });
  client.«listEntities»({ queryOptions: { filter: odata\`PartitionKey eq \${customer} and RowKey eq 'a' and IsActive eq \${flag}\` } });
}
`,
    "ts/query-class",
  );
  assert.deepEqual(
    found.map((f) => f.message),
    ["row-range · 1 partition", "table-scan · scans every partition", "point"],
  );
});
