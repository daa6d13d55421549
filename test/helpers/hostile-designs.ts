/**
 * fast-check arbitraries of hostile designs for the fuzzers of the language
 * server and the CLI: the examples, mutated with half-typed tokens and with
 * the inputs of issue 10 (`-.`, deep nesting, blank lines above a design
 * without `service`, NUL, lone surrogates, long lines), under any line end.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";

export const EXAMPLES = [
  "marathon",
  "ledger",
  "telemetry",
  "student-cards/composite-colon",
  "student-cards/by-seller",
  "student-cards/by-device",
].map((f) => readFileSync(`examples/${f}.tdl`, "utf8"));

/** Half-typed tokens, as a user types them. */
const TYPING = [
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
  " ",
  "\t",
  "pad(",
  "hash(",
  "table ",
  "query Q ",
  "where ",
  'filter "',
  "'",
  "1_000",
  "2.5M",
  "-3",
  "%",
  "?",
  "rowKey = ",
  "partitionKey = ",
  "index I rowKey = ",
  "between",
  "\\u12",
  "é",
  "𝄞",
  "service ",
  "service azure-table\n",
  "not ",
  " and ",
  " eq ",
  "true",
  "select ",
  "transaction T 1/s entities 2 sharing ",
  "rows 2M\n",
];

/** The inputs that made the product crash or hang, in pieces small enough to combine. */
const HOSTILE = [
  "-.",
  'query Z filter "A eq -."\n',
  'filter "-.5 eq A"',
  "\u0000",
  "\uD800",
  "\uFFFF",
  "\r",
  "\r\n",
  "\n".repeat(40),
  "    // note\n".repeat(8),
  "/* unterminated",
  '"unterminated',
  `query Deep filter "${"(".repeat(3000)}A eq 1${")".repeat(3000)}"\n`,
  `query Nots filter "${"not ".repeat(7500)}IsActive"\n`,
  `partitionKey = ${"pad(".repeat(2200)}A${", 2)".repeat(2200)}\n`,
  `${"{".repeat(5000)}`,
  `${"(".repeat(5000)}`,
  `// ${"x".repeat(100_000)}\n`,
];

/** Members that parse as members but carry the hostile part where the analysis reads it: inserted at the top of a table. */
const HOSTILE_MEMBERS = [
  '  query Minus filter "Bib eq -."',
  '  query Minus5 filter "Bib eq -.5"',
  '  query Flag filter "IsActive"',
  '  query NotFlag filter "not IsActive and true"',
  `  query Deep filter "${"(".repeat(3000)}Bib eq 1${")".repeat(3000)}"`,
  `  query Nots filter "${"not ".repeat(7500)}IsActive"`,
  `  query Long filter "${"Bib eq 1 and ".repeat(5000)}Bib eq 2"`,
  `  index Nested rowKey = ${"pad(".repeat(2200)}Bib${", 6)".repeat(2200)}`,
  `  query Wide filter "PartitionKey eq '${"a".repeat(50_000)}'"`,
  '  query Nul filter "Bib eq 1\u0000"',
  "  Bad\u0000Name: int",
  "  X: string(-.)",
];

export interface Mutation {
  /** Where, as a fraction of the text's length. */
  at: number;
  /** Characters removed there first. */
  remove: number;
  insert: string;
}

export const piece = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...TYPING) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: "binary" }) },
);

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
  remove: fc.oneof(fc.constant(0), fc.nat({ max: 40 })),
  insert: piece,
});

export type LineEnd = "\n" | "\r\n" | "\r" | "mixed";

/** Applies one mutation to `text` (positions from the fraction, clamped). */
export function applyMutation(text: string, m: Mutation): string {
  const at = Math.min(text.length, Math.floor(m.at * text.length));
  return text.slice(0, at) + m.insert + text.slice(Math.min(text.length, at + m.remove));
}

/** Rewrites every line end; `mixed` cycles through the three. */
export function withLineEnds(text: string, end: LineEnd): string {
  if (end === "\n") return text;
  if (end !== "mixed") return text.replace(/\r\n|\r|\n/g, end);
  let i = 0;
  return text.replace(/\r\n|\r|\n/g, () => ["\n", "\r\n", "\r"][i++ % 3]);
}

/** A hostile design: an example, its `service` line kept or dropped, mutated, under some line end. */
export const hostileDesign: fc.Arbitrary<string> = fc
  .record({
    base: fc.nat({ max: EXAMPLES.length - 1 }),
    dropService: fc.boolean(),
    members: fc.array(fc.constantFrom(...HOSTILE_MEMBERS), { maxLength: 2 }),
    mutations: fc.array(mutation, { maxLength: 6 }),
    lineEnd: fc.constantFrom<LineEnd>("\n", "\n", "\r\n", "\r", "mixed"),
  })
  .map(({ base, dropService, members, mutations, lineEnd }) => {
    let text = EXAMPLES[base];
    if (dropService) text = text.replace(/^service [a-z-]+\n/m, "");
    const body = text.indexOf("{\n") + 2;
    if (members.length) text = text.slice(0, body) + members.join("\n") + "\n" + text.slice(body);
    for (const m of mutations) text = applyMutation(text, m);
    return withLineEnds(text, lineEnd);
  });
