/**
 * Property-based fuzzing of the OData filter lexer, parser, printer and
 * classifier (issue 10). Two generators: a grammar that writes valid
 * filters together with the tree they mean, and mutations that write
 * everything else (token soup, half-typed literals, deep nesting, long
 * inputs, NUL, lone surrogates). `npm test` runs a fixed seed; `npm run
 * fuzz` runs long and records failures in test/fuzz-regressions/.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { fuzz } from "../../../helpers/fuzz";
import { classifyFilter, KeyConstraint, keyConstraint, normalize } from "@core/odata/classify";
import { lexOData } from "@core/odata/lexer";
import { CompareOp, FilterExpr, parseFilter } from "@core/odata/parser";
import { printFilter } from "@core/odata/print";

/** The structure a filter means, with runs of `and`/`or` flattened (their grouping is free). */
type Meaning = { k: "and" | "or"; items: Meaning[] } | { k: "not"; e: Meaning } | { k: "leaf"; s: string };
/** A generated filter: its text, what it means, and its top operator (for parentheses). */
interface Written {
  text: string;
  meaning: Meaning;
  top: "and" | "or" | "term";
}

const MIRROR: Record<CompareOp, CompareOp> = { eq: "eq", ne: "ne", gt: "lt", ge: "le", lt: "gt", le: "ge" };
const OPS: CompareOp[] = ["eq", "ne", "gt", "ge", "lt", "le"];
const CLASSES = new Set(["point", "row-range", "partition-range", "table-scan"]);
/** Time bound per input: generous for a noisy shared machine; linear code answers in a few ms. */
const BOUND_MS = 1000;

function show(m: Meaning): string {
  switch (m.k) {
    case "leaf":
      return m.s;
    case "not":
      return `not(${show(m.e)})`;
    default: {
      const flat: Meaning[] = [];
      const stack = [...m.items].reverse();
      while (stack.length) {
        const x = stack.pop()!;
        if (x.k === m.k) stack.push(...[...x.items].reverse());
        else flat.push(x);
      }
      return `${m.k}[${flat.map(show).join(", ")}]`;
    }
  }
}

function meaningOf(e: FilterExpr): Meaning {
  switch (e.kind) {
    case "cmp":
      return { k: "leaf", s: `cmp(${e.property} ${e.op} ${e.value.type}:${JSON.stringify(e.value.value)})` };
    case "prop":
      return { k: "leaf", s: `prop(${e.property})` };
    case "const":
      return { k: "leaf", s: `const(${e.value})` };
    case "not":
      return { k: "not", e: meaningOf(e.expr) };
    case "and":
    case "or":
      return { k: e.kind, items: [meaningOf(e.left), meaningOf(e.right)] };
  }
}

const ws = fc.constantFrom(" ", " ", " ", "  ", "\t", "\n", "\r\n", "\r");
const maybeWs = fc.constantFrom("", "", " ", "\n");
const KEYWORDS = new Set(["eq", "ne", "gt", "ge", "lt", "le", "and", "or", "not", "true", "false"]);
const name = fc.oneof(
  fc.constantFrom("Age", "IsActive", "Name", "_x", "Größe", "Price2", "X", "datetime", "guid"),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/).filter((s) => !KEYWORDS.has(s)),
);
/** Names that may stand alone as Boolean properties (the keys and Timestamp are never Boolean). */
const boolName = name.filter((s) => s !== "PartitionKey" && s !== "RowKey" && s !== "Timestamp");
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** [text, type, decoded value] of a literal. */
const literal: fc.Arbitrary<[string, string, string]> = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => [`'${s.replace(/'/g, "''")}'`, "string", s] as [string, string, string]),
  fc.integer({ min: -2147483648, max: 2147483647 }).map((n) => [String(n), "int", String(n)] as [string, string, string]),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => [`${n}L`, "int64", String(n)] as [string, string, string]),
  fc
    .tuple(
      fc.boolean(),
      fc.nat(99999),
      fc.option(fc.nat(9999)),
      fc.option(fc.integer({ min: -300, max: 300 })),
      fc.constantFrom("", "", "d", "D", "f"),
    )
    .map(([neg, i, frac, exp, suffix]) => {
      const body = `${neg ? "-" : ""}${i}${frac !== null ? `.${frac}` : ""}${exp !== null ? `e${exp}` : ""}`;
      return [`${body}${suffix}`, frac === null && exp === null && !suffix ? "int" : "double", body] as [string, string, string];
    }),
  fc.boolean().map((b) => [String(b), "bool", String(b)] as [string, string, string]),
  fc
    .date({ min: new Date("1601-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true })
    .map((d) => [`datetime'${d.toISOString()}'`, "datetime", d.toISOString()] as [string, string, string]),
  fc.uuid().map((u) => [`guid'${u}'`, "guid", u] as [string, string, string]),
  fc
    .tuple(fc.uint8Array({ maxLength: 6 }), fc.constantFrom("X", "binary"))
    .map(([b, p]) => [`${p}'${hex(b)}'`, "binary", hex(b)] as [string, string, string]),
);

const leaf = (text: string, s: string): Written => ({ text, meaning: { k: "leaf", s }, top: "term" });

/** A comparison written either way round; a literal on the left mirrors the operator. */
function comparison(names: fc.Arbitrary<string>, literals: fc.Arbitrary<[string, string, string]>): fc.Arbitrary<Written> {
  return fc
    .tuple(names, fc.constantFrom(...OPS), literals, fc.boolean(), ws, ws)
    .map(([n, op, [text, type, value], flip, w1, w2]) =>
      leaf(
        flip ? `${text}${w1}${op}${w2}${n}` : `${n}${w1}${op}${w2}${text}`,
        `cmp(${n} ${flip ? MIRROR[op] : op} ${type}:${JSON.stringify(value)})`,
      ),
    );
}

/** Valid filters over `names` and `literals`, with the tree each one means. */
function filters(
  names: fc.Arbitrary<string>,
  bools: fc.Arbitrary<string>,
  literals: fc.Arbitrary<[string, string, string]>,
): fc.Arbitrary<Written> {
  const bare: fc.Arbitrary<Written> = fc.oneof(
    bools.map((n) => leaf(n, `prop(${n})`)),
    fc.boolean().map((b) => leaf(String(b), `const(${b})`)),
  );
  const paren = (w: Written, a: string, b: string): Written => ({ text: `(${a}${w.text}${b})`, meaning: w.meaning, top: "term" });
  const join = (kind: "and" | "or", items: Written[], seps: string[]): Written => ({
    // A run of the other operator inside needs parentheses; 'and' inside 'or' binds tighter and may go without.
    text: items
      .map(
        (w, i) =>
          (i ? seps[i % seps.length] + kind + seps[(i + 1) % seps.length] : "") +
          (w.top !== "term" && w.top !== kind && !(kind === "or" && w.top === "and") ? `(${w.text})` : w.text),
      )
      .join(""),
    meaning: { k: kind, items: items.map((w) => w.meaning) },
    top: kind,
  });
  const { expr } = fc.letrec<{ expr: Written; not: Written; group: Written; boolCmp: Written; and: Written; or: Written }>((tie) => ({
    expr: fc.oneof(
      { maxDepth: 5, depthIdentifier: "filter" },
      comparison(names, literals),
      bare,
      tie("not"),
      tie("group"),
      tie("boolCmp"),
      tie("and"),
      tie("or"),
    ),
    // A condition compared with true or false (`not IsActive eq false`, `true ne (A eq 1)`) keeps or negates it.
    boolCmp: fc
      .tuple(
        fc.oneof({ maxDepth: 5, depthIdentifier: "filter" }, tie("not"), tie("group")),
        fc.constantFrom("eq", "ne"),
        fc.boolean(),
        fc.boolean(),
        ws,
        ws,
      )
      .map(([w, op, value, flip, w1, w2]): Written => ({
        text: flip ? `${value}${w1}${op}${w2}${w.text}` : `${w.text}${w1}${op}${w2}${value}`,
        meaning: (op === "eq") === value ? w.meaning : { k: "not", e: w.meaning },
        top: "term",
      })),
    not: fc
      .tuple(fc.oneof({ maxDepth: 5, depthIdentifier: "filter" }, bare, tie("not"), tie("group")), ws)
      .map(([w, s]): Written => ({ text: `not${s}${w.text}`, meaning: { k: "not", e: w.meaning }, top: "term" })),
    group: fc.tuple(tie("expr"), maybeWs, maybeWs).map(([w, a, b]) => paren(w, a, b)),
    and: fc
      .tuple(fc.array(tie("expr"), { minLength: 2, maxLength: 4 }), fc.array(ws, { minLength: 1, maxLength: 3 }))
      .map(([items, seps]) => join("and", items, seps)),
    or: fc
      .tuple(fc.array(tie("expr"), { minLength: 2, maxLength: 4 }), fc.array(ws, { minLength: 1, maxLength: 3 }))
      .map(([items, seps]) => join("or", items, seps)),
  }));
  return expr;
}

/** Every node's span lies inside the text, and names sit where the tree says. */
function checkPositions(e: FilterExpr, text: string): void {
  for (const stack = [e]; stack.length;) {
    const n = stack.pop()!;
    assert.ok(n.start >= 0 && n.start < n.end && n.end <= text.length, `span ${n.start}..${n.end} of ${n.kind}`);
    if (n.kind === "cmp") {
      assert.equal(text.slice(n.propStart, n.propEnd), n.property);
      assert.ok(n.value.start >= n.start && n.value.end <= n.end);
    }
    if (n.kind === "prop") {
      assert.equal(text.slice(n.propStart, n.propEnd), n.property);
      assert.ok(n.propStart >= n.start && n.propEnd <= n.end);
    }
    if (n.kind === "and" || n.kind === "or") stack.push(n.left, n.right);
    if (n.kind === "not") stack.push(n.expr);
  }
}

function timed<T>(f: () => T): T {
  const started = performance.now();
  const r = f();
  const ms = performance.now() - started;
  assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  return r;
}

test("fuzz: valid filters parse to the tree they were written as, classify, and print back to the same tree", () => {
  const keyName = fc.oneof(name, fc.constantFrom("PartitionKey", "RowKey", "Timestamp"));
  fuzz(
    "odata-grammar",
    filters(keyName, boolName, literal).map((w) => [w.text, show(w.meaning)] as [string, string]),
    ([text, meaning]) => {
      const p = timed(() => parseFilter(text));
      assert.ok(p.ok, `does not parse: ${!p.ok ? `${p.error.message} at ${p.error.start}` : ""}`);
      assert.equal(show(meaningOf(p.expr)), meaning);
      checkPositions(p.expr, text);
      assert.ok(CLASSES.has(timed(() => classifyFilter(p.expr, { rows: 1000, partitions: 10 })).class));
      const printed = printFilter(p.expr);
      const again = parseFilter(printed);
      assert.ok(again.ok, `printed text does not parse: ${printed}`);
      assert.equal(show(meaningOf(again.expr)), meaning, printed);
      assert.equal(printFilter(again.expr), printed);
    },
    400,
  );
});

/** Small alphabets, so that generated comparisons and entities meet. */
const KEY_VALUES = ["", "a", "ab", "b", "it's"];
const keyLiteral = fc.constantFrom(...KEY_VALUES).map((s) => [`'${s.replace(/'/g, "''")}'`, "string", s] as [string, string, string]);
const entity = fc.record({ PartitionKey: fc.constantFrom(...KEY_VALUES), RowKey: fc.constantFrom(...KEY_VALUES), IsActive: fc.boolean() });
type Entity = { PartitionKey: string; RowKey: string; IsActive: boolean };

/** Evaluates a filter on an entity as the service would (a comparison with a missing property is false). */
function matches(e: FilterExpr, x: Entity): boolean {
  switch (e.kind) {
    case "cmp": {
      const v = (x as unknown as Record<string, unknown>)[e.property];
      if (typeof v !== "string" || e.value.type !== "string") return false;
      const w = e.value.value;
      return { eq: v === w, ne: v !== w, gt: v > w, ge: v >= w, lt: v < w, le: v <= w }[e.op];
    }
    case "prop":
      return (x as unknown as Record<string, unknown>)[e.property] === true;
    case "const":
      return e.value;
    case "not":
      return !matches(e.expr, x);
    case "and":
      return matches(e.left, x) && matches(e.right, x);
    case "or":
      return matches(e.left, x) || matches(e.right, x);
  }
}

function admits(c: KeyConstraint, v: string): boolean {
  switch (c.kind) {
    case "none":
      return true;
    case "empty":
      return false;
    case "exact":
      return c.value === v;
    case "range":
      return (c.lo === undefined || v >= c.lo) && (c.hi === undefined || v <= c.hi);
  }
}

test("fuzz: the key constraints the classifier reads hold for every entity the filter matches", () => {
  const keyFilters = filters(fc.constantFrom("PartitionKey", "RowKey"), fc.constantFrom("IsActive"), keyLiteral);
  fuzz(
    "odata-soundness",
    fc.tuple(
      keyFilters.map((w) => w.text),
      fc.array(entity, { minLength: 1, maxLength: 12 }),
    ),
    ([text, entities]) => {
      const p = parseFilter(text);
      assert.ok(p.ok, text);
      const pk = keyConstraint(normalize(p.expr), "PartitionKey");
      const rk = keyConstraint(normalize(p.expr), "RowKey");
      const cls = classifyFilter(p.expr).class;
      for (const x of entities) {
        if (!matches(p.expr, x)) continue;
        assert.ok(
          admits(pk, x.PartitionKey),
          `PartitionKey ${JSON.stringify(x.PartitionKey)} matches but the constraint is ${JSON.stringify(pk)}`,
        );
        assert.ok(admits(rk, x.RowKey), `RowKey ${JSON.stringify(x.RowKey)} matches but the constraint is ${JSON.stringify(rk)}`);
        assert.ok(cls !== "point" || pk.kind === "exact", "a point query pins one PartitionKey");
      }
    },
    400,
  );
});

/** Pieces people type, half-typed literals among them. */
const FRAGMENTS = [
  "PartitionKey",
  "RowKey",
  "Timestamp",
  "IsActive",
  "Age",
  "eq",
  "ne",
  "gt",
  "ge",
  "lt",
  "le",
  "and",
  "or",
  "not",
  "(",
  ")",
  "'",
  "''",
  "'a'",
  "'it''s'",
  "true",
  "false",
  "5",
  "-5",
  "5L",
  "2.5",
  "1e3",
  "-.",
  "-",
  ".",
  "1e",
  "1e+",
  "12.",
  ".5",
  "5x",
  "1.5L",
  "2d",
  "datetime'",
  "datetime'2026-",
  "datetime'2026-01-01T00:00:00Z'",
  "guid'",
  "guid'0f8fad5b-d9cb-469f-a165-70867728950e'",
  "X'",
  "X'0",
  "X'0a'",
  "binary'",
  "99999999999999999999L",
  "1e999",
  "&&",
  "||",
  "!",
  "=",
  "<",
  ">",
  '"',
  "\u0000",
  "\u001b",
  "\ud800",
  "\udc00",
  "😀",
  "é",
  "Größe",
  "\r",
  "\n",
  "\t",
  "$",
  ",",
  "/",
  "null",
  "add",
  "eqeq",
  "nott",
];
const soup = fc
  .tuple(
    fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }),
    fc.array(fc.constantFrom(" ", "", "\n", "\r", "\t"), { minLength: 1, maxLength: 4 }),
  )
  .map(([parts, seps]) => parts.map((p, i) => p + seps[i % seps.length]).join(""));
const mutated = fc
  .tuple(
    filters(name, boolName, literal).map((w) => w.text),
    fc.array(fc.tuple(fc.nat(), fc.nat(6), fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: "binary", maxLength: 3 }))), {
      minLength: 1,
      maxLength: 5,
    }),
  )
  .map(([text, edits]) =>
    edits.reduce((t, [at, del, ins]) => {
      const i = at % (t.length + 1);
      return t.slice(0, i) + ins + t.slice(i + del);
    }, text),
  );
const deep = fc
  .tuple(
    fc.integer({ min: 1, max: 8000 }),
    fc.constantFrom("(", "not ", "not (", "((", "( not "),
    fc.constantFrom("IsActive", "PartitionKey eq 'a'", "", "-."),
    fc.nat(8000),
  )
  .map(([n, open, core, close]) => open.repeat(n) + core + ")".repeat(close));
const long = fc
  .tuple(
    fc.constantFrom(...FRAGMENTS, "PartitionKey eq 'a' and ", "RowKey eq '1' or ", "not ", "'x"),
    fc.integer({ min: 1000, max: 60000 }),
    fc.constantFrom("", "IsActive", "'"),
  )
  .map(([piece, n, tail]) => piece.repeat(Math.ceil(n / Math.max(1, piece.length))) + tail);
const anyText = fc.string({ unit: "binary", maxLength: 60 });

test("fuzz: any text lexes and parses without throwing, in bounded time, with errors inside the text that say what to do", () => {
  fuzz(
    "odata-mutations",
    fc.oneof(soup, mutated, deep, long, anyText),
    (text) => {
      const toks = timed(() => lexOData(text));
      let at = 0;
      for (const t of toks) {
        assert.ok(t.start >= at && t.end >= t.start && t.end <= text.length, `token ${t.kind} at ${t.start}..${t.end}`);
        assert.match(text.slice(at, t.start), /^[ \t\r\n]*$/, "only whitespace between tokens");
        at = t.end;
      }
      assert.equal(toks[toks.length - 1].kind, "eof");
      const p = timed(() => parseFilter(text));
      if (p.ok) {
        checkPositions(p.expr, text);
        assert.ok(CLASSES.has(timed(() => classifyFilter(p.expr)).class));
        const again = parseFilter(printFilter(p.expr));
        assert.ok(again.ok && show(meaningOf(again.expr)) === show(meaningOf(p.expr)), "prints back to the same tree");
      } else {
        const { start, end, message } = p.error;
        assert.ok(start >= 0 && start <= end && end <= text.length, `error at ${start}..${end} of ${text.length}`);
        assert.ok(message.length >= 15 && message.length < 400, message);
        assert.doesNotMatch(message, /[\u0000-\u001f\u007f-\u009f]|\p{Cs}/u, "no raw control characters or lone surrogates in messages");
      }
    },
    600,
  );
});
