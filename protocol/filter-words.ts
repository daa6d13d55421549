/**
 * What fits next in an OData filter, with a line of documentation each: the
 * one vocabulary of the explorer's filter editor and of the `filter "…"`
 * strings of a design. What comes next follows the last word before the
 * caret — a property (or `not`, `(`) where a comparison starts, an operator
 * after a property, a literal of the property's type after an operator, and
 * `and` / `or` after a value — so a newcomer is offered what parses.
 */
import { lexOData, OPERATOR_WORDS } from "@core/odata/lexer";
import type { EdmType } from "./entities";

export interface FilterWord {
  label: string;
  kind: "property" | "operator" | "value";
  /** What it inserts: plain text, or a snippet when `snippet` is set (`${1:…}` tab stops). */
  insert: string;
  snippet?: true;
  /** A short label beside it: the property's type, `key`, the Edm type of a literal. */
  detail: string;
  /** One line of markdown: what it means. */
  doc: string;
}

/** A property the filter may name, with its type when known (a sample of the table, a design's declaration). */
export interface FilterProperty {
  name: string;
  type?: EdmType;
}

/** The system properties every entity has. */
export const SYSTEM_PROPERTIES: readonly FilterWord[] = [
  {
    label: "PartitionKey",
    kind: "property",
    insert: "PartitionKey",
    detail: "key",
    doc: "The partition key: `eq` on it reads one partition.",
  },
  {
    label: "RowKey",
    kind: "property",
    insert: "RowKey",
    detail: "key",
    doc: "The row key: with the PartitionKey, one entity; a range of it, a row range.",
  },
  {
    label: "Timestamp",
    kind: "property",
    insert: "Timestamp",
    detail: "DateTime",
    doc: "When the service last wrote the entity (not indexed: a scan).",
  },
];

const COMPARISONS: readonly FilterWord[] = [
  ["eq", "equal to"],
  ["ne", "not equal to (on a key, still a scan of the rest)"],
  ["gt", "greater than"],
  ["ge", "greater than or equal to"],
  ["lt", "less than"],
  ["le", "less than or equal to"],
].map(([label, what]) => ({ label, kind: "operator", insert: label, detail: "comparison", doc: `\`A ${label} value\` — ${what}.` }));

const LOGICAL: readonly FilterWord[] = [
  {
    label: "and",
    kind: "operator",
    insert: "and",
    detail: "logical",
    doc: "Both must hold: `PartitionKey eq 'a' and RowKey ge 'b'` narrows the read.",
  },
  {
    label: "or",
    kind: "operator",
    insert: "or",
    detail: "logical",
    doc: "Either may hold: on the PartitionKey, each side is read on its own.",
  },
];

const STARTS: readonly FilterWord[] = [
  { label: "not", kind: "operator", insert: "not", detail: "logical", doc: "The opposite of what follows: `not (Age gt 30)`." },
  { label: "(", kind: "operator", insert: "($1)", snippet: true, detail: "group", doc: "A group: `(A eq 1 or A eq 2) and B eq 3`." },
];

/** Each literal form, by the Edm type it writes. */
const LITERALS: Record<EdmType, FilterWord> = {
  String: {
    label: "'text'",
    kind: "value",
    insert: "'${1:text}'",
    snippet: true,
    detail: "Edm.String",
    doc: "Text in single quotes; write `''` for a quote inside.",
  },
  Int32: { label: "42", kind: "value", insert: "${1:42}", snippet: true, detail: "Edm.Int32", doc: "A whole number (32-bit)." },
  Int64: {
    label: "42L",
    kind: "value",
    insert: "${1:42}L",
    snippet: true,
    detail: "Edm.Int64",
    doc: "A 64-bit whole number: the `L` says Int64, which an Int32 of the same value does not match.",
  },
  Double: { label: "1.5", kind: "value", insert: "${1:1.5}", snippet: true, detail: "Edm.Double", doc: "A floating-point number." },
  Boolean: { label: "true", kind: "value", insert: "${1|true,false|}", snippet: true, detail: "Edm.Boolean", doc: "`true` or `false`." },
  DateTime: {
    label: "datetime'…'",
    kind: "value",
    insert: "datetime'${1:2026-01-01T00:00:00Z}'",
    snippet: true,
    detail: "Edm.DateTime",
    doc: "A UTC date and time: `datetime'2026-01-01T00:00:00Z'`.",
  },
  Guid: {
    label: "guid'…'",
    kind: "value",
    insert: "guid'${1:00000000-0000-0000-0000-000000000000}'",
    snippet: true,
    detail: "Edm.Guid",
    doc: "A GUID: `guid'…'` (a String holding the same text does not match).",
  },
  Binary: {
    label: "X'…'",
    kind: "value",
    insert: "X'${1:0a1b}'",
    snippet: true,
    detail: "Edm.Binary",
    doc: "Bytes in hexadecimal: `X'0a1b'`.",
  },
};

const COMPARISON_WORDS = new Set(COMPARISONS.map((c) => c.label));
const VALUE_KINDS = new Set(["string", "int", "int64", "double", "bool", "datetime", "guid", "binary", "rparen"]);

/** The properties as words: the system ones first, then the table's (each once). */
export function propertyWords(properties: readonly FilterProperty[]): FilterWord[] {
  const system = new Set(SYSTEM_PROPERTIES.map((p) => p.label));
  const own = properties
    .filter((p, i) => !system.has(p.name) && properties.findIndex((q) => q.name === p.name) === i)
    .map((p): FilterWord => ({
      label: p.name,
      kind: "property",
      insert: p.name,
      detail: p.type ?? "property",
      doc: p.type ? `A property of type Edm.${p.type}.` : "A property of the table.",
    }));
  return [...SYSTEM_PROPERTIES, ...own];
}

/**
 * What fits after `before` (the filter's text up to the caret; a word being
 * typed at its end is the prefix, not context). Nothing inside a string.
 */
export function filterSuggestions(before: string, properties: readonly FilterProperty[]): FilterWord[] {
  const tokens = lexOData(before).filter((t) => t.kind !== "eof");
  let last = tokens.at(-1);
  // A name or number that reaches the caret is being typed: what came before decides.
  if (last && last.end === before.length && (last.kind === "name" || last.kind === "int" || last.kind === "bool")) {
    tokens.pop();
    last = tokens.at(-1);
  }
  if (last?.error && last.kind !== "error") return []; // inside an unterminated literal
  const word = last?.kind === "name" ? last.text : undefined;
  if (!last || last.kind === "lparen" || word === "and" || word === "or" || word === "not")
    return [...propertyWords(properties), ...STARTS];
  if (word && COMPARISON_WORDS.has(word)) {
    const prop = tokens.at(-2);
    const type = prop?.kind === "name" ? typeOf(prop.text, properties) : undefined;
    const literals = Object.values(LITERALS);
    return type ? [LITERALS[type], ...literals.filter((l) => l !== LITERALS[type])] : literals;
  }
  if (word && !OPERATOR_WORDS.has(word)) return [...COMPARISONS];
  if (VALUE_KINDS.has(last.kind)) return [...LOGICAL];
  return [];
}

function typeOf(name: string, properties: readonly FilterProperty[]): EdmType | undefined {
  if (name === "PartitionKey" || name === "RowKey") return "String";
  if (name === "Timestamp") return "DateTime";
  return properties.find((p) => p.name === name)?.type;
}
