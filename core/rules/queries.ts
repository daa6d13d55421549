/**
 * Query rules (`docs/rules.md`, "Queries"): every query's class, table scans,
 * low selectivity, ranges over parts that do not keep order; and filters
 * that do not parse.
 */
import { Query, Table } from "../tdl/ast";
import { tableFacts } from "../model/facts";
import { QueryAnalysis } from "../model/queries";
import { PropertyInfo } from "../model/properties";
import { summary } from "../odata/classes";
import { formatCount } from "../text/words";
import { Fix } from "../findings";
import { identityTail, keyPartText, padWidth, separatorBelow, tdlString } from "./fix-helpers";
import { charsetMin } from "../model/charset";
import { ServiceProfile } from "../services";
import { padFix, separatorFix } from "./keys";
import { defineRule, TableContext } from "./rule";
import { secondTable } from "./fixes/second-table";
import { detectEol, indentOf } from "../tdl/line-ends";
import { clip } from "../text/words";

function eachQuery(ctx: TableContext, fn: (qa: QueryAnalysis) => void): void {
  for (const qa of tableFacts(ctx.table, ctx.props).queries) fn(qa);
}

export const filterSyntax = defineRule({
  code: "syntax",
  severity: "error",
  family: "Syntax and meaning",
  traits: { broken: true, neverSuppress: true },
  docs: {
    summary: "the text (or a `filter` string) does not parse; later errors are still found",
    why: "A design that does not parse cannot be checked; the parser recovers so that the rest still is.",
  },
  messages: {
    syntax: (p: { why: string }) => p.why,
  },

  checkTable(ctx) {
    eachQuery(ctx, ({ filterError }) => {
      if (filterError) ctx.report(filterError, "syntax", { why: filterError.message });
    });
  },
});

export const queryClass = defineRule({
  code: "query/class",
  severity: "hint",
  family: "Queries",
  docs: {
    summary:
      "every query: its class and estimates, e.g. `row-range · 1 partition · scans ≈ 333 to return ≈ 333`, or for a fan-out over a bucket no condition pins `partition-range · 16 × ≈ 1 partition` (16 requests; shown as CodeLens and hover, kept out of the Problems panel)",
    why: "The class decides the cost: a point read touches one entity, a table scan every partition.",
  },
  messages: {
    class: (p: { summary: string; via?: string }) => p.summary + (p.via ? ` (served by index ${p.via})` : ""),
  },

  checkTable(ctx) {
    eachQuery(ctx, ({ query, classification: c }) => {
      if (!c) return;
      ctx.report(query.name, "class", { summary: summary(c), ...(c.via && c.via !== "rowKey" ? { via: c.via } : {}) });
    });
  },
});

/**
 * An `index` whose row key leads with the query's filtered properties (equalities
 * first, then the range), then the main row key so that every index row stays unique.
 */
export function indexFix(ctx: TableContext, query: Query): Fix | undefined {
  const t = ctx.table;
  if (!t.rowKey || !query.where) return undefined;
  const pkProps = new Set(tableFacts(t, ctx.props).est.pk?.props ?? []);
  const conds = query.where.filter((c) => !pkProps.has(c.property.text) && ctx.props.has(c.property.text));
  const ordered = [...conds.filter((c) => c.op === "="), ...conds.filter((c) => c.op !== "=")];
  const props = [...new Set(ordered.map((c) => c.property.text))].map((n) => ctx.props.get(n)!);
  if (!props.length) return undefined;
  const names = new Set(t.indexes.map((ix) => ix.name.text));
  const name = names.has(query.name.text) ? `${query.name.text}Index` : query.name.text;
  const parts = [tdlString(`${name.toUpperCase()}:`)];
  props.forEach((p) => parts.push(keyPartText(p), tdlString(separatorAfter(p, ctx.profile))));
  // The row key keeps the index rows apart; a property the index already leads with is not written again.
  const rk = tableFacts(t, ctx.props).est.rk;
  const tail = identityTail(ctx.text, rk?.parts ?? [], t.rowKey.expr, new Set(props.map((p) => p.name)), ctx.profile).text;
  if (tail) parts.push(tail);
  else parts.pop();
  const rowKeyText = parts.pop()!;
  const anchor = t.indexes.length ? t.indexes[t.indexes.length - 1] : t.rowKey;
  const newText = `${lineStartAfter(ctx.text, t, anchor.start)}index ${name} rowKey = ${[...parts, rowKeyText].join(" + ")}`;
  return {
    title: `Add an index row ordered by ${props.map((p) => p.name).join(", ")}: index ${name} (written with each entity, in the same transaction)`,
    edits: [{ start: anchor.end, end: anchor.end, newText }],
    preferred: true,
  };
}

const lineStarts = new WeakMap<Table, string>();

/**
 * A line end in the document's style and the indentation of the line at
 * `anchor`: what starts a new member below it. Once per table, however many
 * queries offer the fix (the anchor's line may be long).
 */
function lineStartAfter(text: string, table: Table, anchor: number): string {
  let s = lineStarts.get(table);
  if (s === undefined) lineStarts.set(table, (s = detectEol(text) + indentOf(text, anchor)));
  return s;
}

/** `,` sorts below letters and digits; for a wider alphabet, the highest allowed character below it. */
function separatorAfter(p: PropertyInfo, profile: ServiceProfile): string {
  if (p.type === "int" || p.type === "int64" || !p.charset) return ",";
  return separatorBelow(charsetMin(p.charset), profile) ?? ",";
}

const SECOND_TABLE = "Key a second table for this query (its filtered properties in the PartitionKey), written alongside this one.";

/** What a table scan's message advises, by what the query pins. */
const SCAN_ADVICE = {
  branches: "Issue the branches as separate point or range queries.",
  index: "Add an index row ordered by the filtered properties.",
  secondTable: SECOND_TABLE,
};

export const tableScan = defineRule({
  code: "query/table-scan",
  severity: "warning",
  family: "Queries",
  docs: {
    summary: "a query reads every partition",
    why: "A table scan reads every partition, one continuation token at a time: its cost grows with the table, not with the result.",
    fix: "an `index` when the query pins the partition; otherwise the message suggests a second table",
  },
  messages: {
    scan: (p: { query: string; reason?: string; scanned?: number; advice: "branches" | "index" | "secondTable" }) =>
      `query '${p.query}' is a table scan: ${p.reason ?? "every partition is read"}` +
      (p.scanned !== undefined ? ` (≈ ${formatCount(p.scanned)} entities a call)` : "") +
      `. ${SCAN_ADVICE[p.advice]}`,
  },

  checkTable(ctx) {
    const pkProps = tableFacts(ctx.table, ctx.props).est.pk?.props ?? new Set<string>();
    eachQuery(ctx, ({ query, classification: c }) => {
      if (c?.class !== "table-scan") return;
      const pinsPartition =
        !!query.where && pkProps.size > 0 && [...pkProps].every((p) => query.where!.some((w) => w.property.text === p && w.op === "="));
      const fix = pinsPartition ? indexFix(ctx, query) : c.orAcrossPartitions ? undefined : secondTable(ctx, query);
      const advice = c.orAcrossPartitions ? "branches" : pinsPartition ? "index" : "secondTable";
      ctx.report(
        query.name,
        "scan",
        {
          query: query.name.text,
          ...(c.reasons[0] !== undefined ? { reason: c.reasons[0] } : {}),
          ...(c.scanned !== null ? { scanned: c.scanned } : {}),
          advice,
        },
        { fixes: fix ? [fix] : undefined },
      );
    });
  },
});

export const lowSelectivity = defineRule({
  code: "query/low-selectivity",
  severity: "warning",
  family: "Queries",
  docs: {
    summary: "a query with a rate scans 100 entities or more for each one it returns",
    why: "Scanned entities count toward the partition's and the account's targets, returned or not.",
    fix: "an `index` whose row key leads with the filtered properties",
  },
  messages: {
    lowSelectivity: (p: {
      query: string;
      scanned: number;
      returned: number;
      perSecond: number;
      rate: string;
      advice: "index" | "rowKey" | "secondTable";
      lead?: string;
    }) =>
      `query '${p.query}' scans ≈ ${formatCount(p.scanned)} entities to return ≈ ${formatCount(p.returned)} (${formatCount(p.scanned / p.returned)} scanned for each one returned; ` +
      `≈ ${formatCount(p.scanned * p.perSecond)} entities/s at ${p.rate}). ` +
      (p.advice === "rowKey"
        ? `It names only its partition, so it reads all of it: bound it by the row key${p.lead ? ` (a range on ${p.lead})` : ""} so that it reads about what it returns.`
        : p.advice === "secondTable"
          ? SECOND_TABLE
          : "Add an index whose row key leads with the filtered properties."),
  },

  checkTable(ctx) {
    eachQuery(ctx, ({ query, classification: c }) => {
      if (!query.rate || !c || c.class === "table-scan" || c.scanned === null || c.returned === null || c.returned <= 0) return;
      const ratio = c.scanned / c.returned;
      if (ratio < 100) return;
      const index = indexFix(ctx, query);
      const { est } = tableFacts(ctx.table, ctx.props);
      const pkProps = est.pk?.props ?? new Set<string>();
      const where = query.where ?? [];
      // Conditions on the partition key alone: it reads all of its partition, and no index row changes that.
      const partitionOnly = c.class === "row-range" && !!query.where && where.every((w) => pkProps.has(w.property.text) && w.op === "=");
      const lead = est.rk?.parts.find((p) => p.props.length);
      // Across partitions, index rows (which live in each entity's partition) cannot narrow it: a table keyed for it can.
      const fix = index ?? (c.class === "partition-range" ? secondTable(ctx, query) : undefined);
      const advice = index ? "index" : partitionOnly ? "rowKey" : c.class === "partition-range" ? "secondTable" : "index";
      ctx.report(
        query.name,
        "lowSelectivity",
        {
          query: query.name.text,
          scanned: c.scanned,
          returned: c.returned,
          perSecond: query.rate.perSecond,
          rate: query.rate.raw,
          advice,
          ...(advice === "rowKey" && lead?.prop ? { lead: lead.prop.name } : {}),
        },
        { fixes: fix ? [fix] : undefined },
      );
    });
  },
});

/** Largest value of each integer type, as the language writes it. */
const TYPE_MAX = { int: "2147483647", int64: "9223372036854775807" } as const;

/**
 * A padded integer declared without a range may be negative, and "-5"
 * sorts after "-10" as text: where its values never are (an order number,
 * a count), declaring so is the fix — a fact, checked as one.
 */
function nonNegativeFact(prop: PropertyInfo): Fix | undefined {
  const type = prop.decl.type;
  if (type.name !== "int" && type.name !== "int64") return undefined;
  const range = `(0..${TYPE_MAX[type.name]})`;
  return {
    title: `Declare ${prop.name} non-negative: ${type.name}(0..) up to the ${type.name} maximum (a fact, if its values are never below 0: padded, they then sort as numbers)`,
    edits: [{ start: type.nameSpan.end, end: type.end, newText: range }],
    preferred: true,
    fact: true,
  };
}

export const unorderedRange = defineRule({
  code: "query/unordered-range",
  severity: "error",
  family: "Queries",
  docs: {
    summary: "a range over a key part that does not keep order (unpadded number, `hash`, `bucket`, a separator that breaks order)",
    why: "The key range does not match the property range, so the query returns the wrong entities or must scan.",
    fix: "the key rule's fix",
  },
  messages: {
    unordered: (p: { query: string; property: string; op: string; part: string; reason: string }) =>
      `query '${clip(p.query)}' ranges over '${clip(p.property)}' (${p.op}), but its key part ${clip(p.part)} does not keep order: ${p.reason}. ` +
      `The key range does not match the property range, so the query cannot be served as a range.`,
  },

  checkTable(ctx) {
    const facts = tableFacts(ctx.table, ctx.props);
    eachQuery(ctx, ({ query, mapping }) => {
      if (!mapping || mapping.class === "point") return;
      const unordered =
        mapping.rk.kind !== "range" && mapping.pk.kind !== "range" ? (mapping.pk.unordered ?? mapping.rk.unordered) : undefined;
      if (!unordered) return;
      const { cond, part, reason } = unordered;
      let fix: Fix | undefined;
      if (part.part.kind === "ref" && part.prop && (part.prop.type === "int" || part.prop.type === "int64")) {
        fix = padFix(part.part, padWidth(part.prop));
      } else if (part.fn === "pad" && part.prop && (part.prop.min ?? 0) < 0 && !part.prop.decl.type.min) {
        fix = nonNegativeFact(part.prop);
      } else if (reason.startsWith("the separator")) {
        const key = [facts.est.pk, facts.est.rk, ...facts.est.indexKeys].find((k) => k?.parts.includes(part));
        const i = key ? key.parts.indexOf(part) : -1;
        if (key && i >= 0) fix = separatorFix(key.parts, i, ctx.profile);
      }
      ctx.report(
        query.name,
        "unordered",
        { query: query.name.text, property: cond.property.text, op: cond.op, part: ctx.text.slice(part.part.start, part.part.end), reason },
        { fixes: fix ? [fix] : undefined },
      );
    });
  },
});
