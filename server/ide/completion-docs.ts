/**
 * What completion inserts and says: a snippet and a line of documentation
 * for every keyword, type, modifier and key function (docs/language.md in
 * brief), a table skeleton that is a clean design as inserted, a property
 * with a choice of types, and key functions whose arguments offer the
 * table's properties of a type the function takes.
 */
import type { KeyFunction, MEMBER_KEYWORDS, MODIFIERS, PropertyInfo } from "@core";
import { renderedDigits } from "@core/model/properties";
import { FUNCTION_DOCS } from "./hover";

/**
 * A new table: the properties, keys, estimates and access patterns a design
 * needs, named so that the tab stops walk through them and the keys and
 * query follow the names typed. As inserted it parses and has no finding.
 */
export const TABLE_SNIPPET = [
  "table ${1:Orders} {",
  '  ${2:CustomerId}: string(${3:36}) charset "a-z0-9-" distinct ${4:10K}',
  "  ${5:OrderId}: int(0..999999)",
  "  partitionKey = ${2}",
  "  rowKey       = pad(${5}, 6)",
  "  rows ${6:1M}",
  "  insert ${7:PlaceOrder} ${8:100}/s",
  "  query ${9:ByCustomer} ${10:50}/s where ${2} = ?",
  "}",
].join("\n");

export const TABLE_DOC =
  "`table Name { … }` — one table: its properties (`Name: type modifiers`), `partitionKey` and `rowKey`, estimates (`rows`, `entitySize`, `retention`) and access patterns (`query`, writes, `transaction`). Inserts a skeleton to fill in.";

export const SERVICE_DOC =
  "`service azure-table | cosmos-table | tablestore` — the limits every table of the file is checked against (default: the `tableDesign.service` setting).";

/** The types a property may have; `enum` needs its comma escaped inside a snippet choice. */
const TYPE_CHOICES = ["string(60)", "int(0..100)", "int64", "double", "bool", "datetime", "guid", "binary(1KiB)", "enum(A\\, B)"];

/** A property: its name, then a choice of types. */
export const PROPERTY_SNIPPET = `\${1:Name}: \${2|${TYPE_CHOICES.join(",")}|}`;
export const PROPERTY_DOC =
  '`Name: type modifiers` — a property of the entities. Modifiers say what the checks need: `distinct N`, `unique`, `increasing`, `hot 30%`, `charset "a-z0-9"`.';

/** Each type: what it inserts and a line of documentation (every type has both: the compiler checks the keys). */
export const TYPE_DOCS: Record<PropertyInfo["type"], { snippet: string; doc: string }> = {
  string: { snippet: "string(${1:60})", doc: "`string(60)`, `string(12..12)` — text with a maximum (or minimum..maximum) length." },
  int: { snippet: "int(${1:0}..${2:100})", doc: "`int(0..99999)` — a 32-bit integer, with its range." },
  int64: { snippet: "int64(${1:0}..${2:1000000})", doc: "`int64(0..9999999999)` — a 64-bit integer, with its range." },
  double: { snippet: "double", doc: "`double` — a 64-bit floating-point number." },
  bool: { snippet: "bool", doc: "`bool` — true or false (two values)." },
  datetime: { snippet: "datetime", doc: '`datetime` — a UTC date and time; in keys, ISO 8601 or `date(P, "yyyyMMdd")`.' },
  guid: { snippet: "guid", doc: "`guid` — a GUID, rendered in lowercase; one per row." },
  binary: { snippet: "binary(${1:1KiB})", doc: "`binary(1KiB)` — bytes, with a maximum size." },
  enum: { snippet: "enum(${1:A}, ${2:B})", doc: '`enum(Full, Half, "10K")` — one of the listed values.' },
};

/** Each modifier: its snippet when it takes a value, and a line of documentation. */
export const MODIFIER_DOCS: Record<(typeof MODIFIERS)[number], { snippet?: string; doc: string }> = {
  distinct: {
    snippet: "distinct ${1:100}",
    doc: "`distinct 200` — how many different values the table holds: partitions and selectivity follow from it.",
  },
  unique: { doc: "`unique` — every entity has its own value." },
  increasing: {
    doc: "`increasing` — each new entity gets a larger value than all before (times, sequence numbers): a key led by it is append-only.",
  },
  decreasing: { doc: "`decreasing` — each new entity gets a smaller value than all before." },
  hot: { snippet: "hot ${1:30}%", doc: "`hot 30%` — the most frequent value takes this share of the rows and the traffic." },
  charset: {
    snippet: 'charset "${1:a-z0-9}"',
    doc: '`charset "a-z0-9"` — the characters values may contain (the inside of a regex `[…]`): separator and key-character checks need it.',
  },
};

/** Each member keyword: what it inserts and a line of documentation. */
export const MEMBER_DOCS: Record<(typeof MEMBER_KEYWORDS)[number], { snippet: string; doc: string }> = {
  partitionKey: {
    snippet: "partitionKey = ",
    doc: '`partitionKey = A + "_" + pad(B, 5)` — how the PartitionKey is built from the properties.',
  },
  rowKey: { snippet: "rowKey = ", doc: "`rowKey = …` — how the RowKey is built; unique within a partition." },
  index: {
    snippet: "index ${1:Name} rowKey = ",
    doc: "`index Name rowKey = …` — a second row per entity in the same partition with another RowKey, written in the same transaction.",
  },
  rows: { snippet: "rows ${1:1M}", doc: "`rows 2M` — how many entities the table holds (size and partition estimates)." },
  entitySize: { snippet: "entitySize ${1:1KB}", doc: "`entitySize 1KB` — the entities' average size (size limits, cost)." },
  retention: { snippet: "retention ${1:90d}", doc: "`retention 90d` — how long entities stay: counts the time buckets of a date key." },
  account: {
    snippet: "account ${1:Name}",
    doc: "`account telemetry` — the storage account the table lives in; tables without one share the file's one account (the account target counts per account).",
  },
  query: {
    snippet: "query ${1:Name} ${2:100}/s where ",
    doc: '`query Name 200/s where A = ? and B between ?` (or `filter "…"`) — a read, classified as point, row-range, partition-range or table-scan.',
  },
  insert: { snippet: "insert ${1:Name} ${2:100}/s", doc: "`insert Name 300/s [batch 100]` — new entities at a peak rate." },
  upsert: { snippet: "upsert ${1:Name} ${2:100}/s", doc: "`upsert Name 300/s [batch 100]` — insert-or-replace at a peak rate." },
  update: {
    snippet: "update ${1:Name} ${2:100}/s",
    doc: "`update Name 300/s [sets A, B]` — replaces of existing entities at a peak rate; `sets` names the properties it changes.",
  },
  merge: {
    snippet: "merge ${1:Name} ${2:100}/s",
    doc: "`merge Name 300/s [sets A, B]` — merges into existing entities at a peak rate; `sets` names the properties it changes.",
  },
  delete: { snippet: "delete ${1:Name} ${2:100}/s", doc: "`delete Name 300/s` — deletes at a peak rate." },
  transaction: {
    snippet: "transaction ${1:Name} entities ${2:2} sharing ",
    doc: "`transaction Name 50/s entities 2 sharing A` — entities written atomically: they must share a partition.",
  },
};

/** The comparisons of a `where` clause, each with what it does to the key. */
export const COMPARISON_DOCS: Record<string, string> = {
  "=": "`A = ?` — one value: pins a key part.",
  "<": "`A < ?` — a range below a value.",
  "<=": "`A <= ?` — a range up to a value.",
  ">": "`A > ?` — a range above a value.",
  ">=": "`A >= ?` — a range from a value.",
  between: "`A between ?` — a closed range of values.",
  prefix: "`A prefix ?` — values starting with a text.",
};

/** Which property types each function takes (undefined: any). */
const ARGUMENT_TYPES: Partial<Record<KeyFunction, ReadonlyArray<PropertyInfo["type"]>>> = {
  pad: ["int", "int64"],
  reverse: ["int", "int64", "datetime"],
  date: ["datetime"],
  lower: ["string", "enum", "guid"],
  upper: ["string", "enum", "guid"],
};

/** At most this many properties in one snippet choice (a choice list is a menu, not a search). */
const MAX_CHOICES = 20;

/** A function's snippet: its first argument a choice of the table's properties it takes (a placeholder when none does). */
export function functionSnippet(fn: KeyFunction, props: readonly PropertyInfo[]): string {
  const takes = ARGUMENT_TYPES[fn];
  const fit = props.filter((p) => !takes || takes.includes(p.type)).slice(0, MAX_CHOICES);
  const arg = fit.length > 1 ? `\${1|${fit.map((p) => p.name).join(",")}|}` : `\${1:${fit[0]?.name ?? "P"}}`;
  switch (fn) {
    case "pad": {
      // Wide enough for every choice: a pad narrower than its property's values sorts them out of order.
      const widths = fit.map((p) => Math.max(renderedDigits(p.max ?? 0), renderedDigits(p.min ?? 0)));
      return `pad(${arg}, \${2:${widths.length ? Math.max(...widths) : 5}})`;
    }
    case "hash":
      return `hash(${arg}, \${2:4})`;
    case "bucket":
      return `bucket(${arg}, \${2:16})`;
    case "date":
      return `date(${arg}, "\${2:yyyyMMdd}")`;
    default:
      return `${fn}(${arg})`;
  }
}

export { FUNCTION_DOCS };
