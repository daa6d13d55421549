/**
 * Query rules over TypeScript code: the class of every `listEntities` and
 * `getEntity` call (a hint, also shown as CodeLens), and table scans.
 * The calls are classified once per file (`classifyQueries`), for the rules,
 * the lenses and the CLI's report. A filter the code receives from outside
 * (a parameter, user input, text built at run time) is "not known
 * statically": never a table scan.
 */
import ts from "typescript";
import { badge, Classification, classifyFilter, parseFilter } from "@core";
import { FileUsage, ListOption } from "../calls";
import { Budget } from "../budget";
import { FilterResolution, FilterResolver, Piece, textOf } from "../filters";
import { KeyDecomposer } from "../key-parts";
import { readBound } from "../consumption";
import { defineTsRule, span, TsQuery } from "./rule";

/** Where a query's diagnostics sit: the method name of the call. */
export const at = (sf: ts.SourceFile, call: ts.CallExpression) =>
  span(sf, ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call);

export const NOT_KNOWN = "filter not known statically";

const RANK: Record<Classification["class"], number> = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 };

const scan = (reason: string): Classification => ({
  class: "table-scan",
  partitions: null,
  scanned: null,
  returned: null,
  selectivity: null,
  reasons: [reason],
});

/** Every `getEntity` and `listEntities` call: its class, or why it has none. */
export function classifyQueries(usage: FileUsage, checker: ts.TypeChecker, sf: ts.SourceFile, decomposer: KeyDecomposer): TsQuery[] {
  const out: TsQuery[] = [];
  for (const k of usage.keyed) {
    if (k.method !== "getEntity") continue;
    const c: Classification = {
      class: "point",
      partitions: 1,
      scanned: 1,
      returned: 1,
      selectivity: 1,
      reasons: ["PartitionKey and RowKey are both given"],
    };
    out.push({ call: k.call, table: k.table, classification: c });
  }
  const resolver = new FilterResolver(checker, decomposer, sf);
  for (const l of usage.lists) {
    const classified = classifyOptions(l.options, resolver, decomposer.budget);
    // Without a filter, a read that stops after a few entities is the table's first page: a probe, not a scan.
    const bound = l.options.every((o) => !o.unknown && !o.filter) ? readBound(checker, l.call) : undefined;
    out.push({ call: l.call, table: l.table, ...classified, ...(bound !== undefined ? { classification: probe(bound) } : {}) });
  }
  out.sort((a, b) => a.call.pos - b.call.pos);
  return out;
}

/** A bounded read of a listing without a filter: the first entities of the table, one request. */
function probe(bound: number): Classification {
  return {
    class: "partition-range",
    partitions: null,
    scanned: bound,
    returned: bound,
    selectivity: null,
    reasons: [
      `a bounded read: no filter, and the code stops after ${bound === 1 ? "the first entity" : `${bound} entities`} (one request)`,
    ],
  };
}

/**
 * The class of a call made in one of several ways: the worst known one. A way without a filter lists
 * every entity, whatever the others (one where a later write under a condition did not set the filter, unless what
 * that write sets is not known); a way not known statically leaves the call unclassified unless
 * another is a scan.
 */
function classifyOptions(
  options: readonly ListOption[],
  resolver: FilterResolver,
  budget: Budget,
): Pick<TsQuery, "classification" | "syntax"> {
  const alternatives: Piece[][] = [];
  let unknown = false;
  let bare = false;
  let softBare = false;
  for (const o of options) {
    if (o.unknown) unknown = true;
    else if (!o.filter && o.soft) softBare = true;
    else if (!o.filter) bare = true;
    else {
      const r = budget.guard<FilterResolution>("some filters (left as not known)", { known: false, node: o.filter }, () =>
        resolver.resolve(o.filter!, o.env),
      );
      if (r.known) alternatives.push(...r.alternatives);
      else unknown = true;
    }
  }
  const known = alternatives.length ? classifyAlternatives(alternatives) : {};
  // A filter set only under a condition leaves the other paths without one: a scan when the filter set is known, but
  // when what is set comes from outside (a caller's filter), the options as a whole are the caller's, not absent.
  if (softBare && !unknown) bare = true;
  if (bare) {
    const why =
      options.length > 1
        ? "one of its branches passes no filter: every entity of every partition is listed"
        : "no filter: every entity of every partition is listed";
    return { classification: scan(why), syntax: known.syntax };
  }
  if (unknown && known.classification?.class !== "table-scan") return { syntax: known.syntax };
  return known;
}

/** The worst class of a filter's alternatives (branches of conditionals), and the parse errors of those that do not parse. */
function classifyAlternatives(alternatives: Piece[][]): Pick<TsQuery, "classification" | "syntax"> {
  let worst: Classification | undefined;
  const syntax: NonNullable<TsQuery["syntax"]> = [];
  for (const alt of alternatives) {
    const text = textOf(alt);
    let c: Classification | undefined;
    if (!text.trim()) c = scan("an empty filter: every entity of every partition is listed");
    else {
      const parsed = parseFilter(text);
      if (parsed.ok) c = classifyFilter(parsed.expr);
      else {
        const { start, end } = widen(text, parsed.error.start, parsed.error.end);
        syntax.push({ ...fileSpan(alt, start, end), message: parsed.error.message, filter: text });
      }
    }
    if (c && (!worst || RANK[c.class] > RANK[worst.class])) worst = c;
  }
  if (worst && alternatives.length > 1) {
    worst = { ...worst, reasons: [`${worst.reasons[0]} (the worst of ${alternatives.length} branches)`, ...worst.reasons.slice(1)] };
  }
  return { classification: worst, syntax: syntax.length ? syntax : undefined };
}

/** An error at a point (the end of the filter) covers the word before it, so that it can be seen. */
function widen(text: string, start: number, end: number): { start: number; end: number } {
  if (end > start) return { start, end };
  let e = start;
  while (e > 0 && /\s/.test(text[e - 1])) e--;
  let s = e;
  while (s > 0 && !/\s/.test(text[s - 1])) s--;
  return s < e ? { start: s, end: e } : { start, end };
}

/** A range of the filter text as a range of the file: inside the string when it spells the text verbatim, else the piece's expression. */
function fileSpan(pieces: readonly Piece[], start: number, end: number): { start: number; end: number } {
  let offset = 0;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    const last = i === pieces.length - 1;
    if (start < offset + p.text.length || (last && start <= offset + p.text.length)) {
      const sf = p.node.getSourceFile();
      if (p.start === undefined || p.value) return { start: p.node.getStart(sf), end: p.node.getEnd() };
      const s = p.start + (start - offset);
      const e = p.start + Math.min(p.text.length, Math.max(start - offset, end - offset));
      return { start: s, end: e };
    }
    offset += p.text.length;
  }
  const n = pieces[pieces.length - 1]?.node;
  return n ? { start: n.getStart(n.getSourceFile()), end: n.getEnd() } : { start: 0, end: 0 };
}

/** The lens and hint text of a class. */
export function queryLabel(c: Classification | undefined): string {
  if (!c) return NOT_KNOWN;
  return c.class === "table-scan" ? "table-scan · scans every partition" : badge(c);
}

export const queryClass = defineTsRule({
  code: "ts/query-class",
  severity: "hint",
  family: "TypeScript code",
  docs: {
    summary:
      'every `listEntities`/`getEntity` call\'s class, or "filter not known statically" (shown as CodeLens and hover, kept out of the Problems panel)',
    why: "The class decides the cost: a point read touches one entity, a table scan every partition.",
  },
  messages: {
    class: (p: { label: string }) => p.label,
    unknown: () => `${NOT_KNOWN}: the filter comes from outside this code (a parameter, user input or text built at run time)`,
  },

  check(ctx) {
    for (const q of ctx.queries) {
      if (q.syntax && !q.classification) continue;
      if (q.classification) ctx.report(at(ctx.sf, q.call), "class", { label: queryLabel(q.classification) });
      else ctx.report(at(ctx.sf, q.call), "unknown");
    }
  },
});

export const tableScan = defineTsRule({
  code: "ts/table-scan",
  severity: "warning",
  family: "TypeScript code",
  docs: {
    summary:
      'a `listEntities` filter that does not pin `PartitionKey`, no filter at all, or `""`; never when the filter is not known statically',
    why: "A table scan reads every partition, one continuation token at a time: its cost grows with the table, not with the result.",
  },
  messages: {
    scan: (p: { reason: string }) =>
      `this listEntities call is a table scan: ${p.reason}. Pin PartitionKey with 'eq' (and RowKey for a point read), or key a table for this query.`,
  },

  check(ctx) {
    for (const q of ctx.queries) {
      if (q.classification?.class !== "table-scan") continue;
      ctx.report(at(ctx.sf, q.call), "scan", { reason: q.classification.reasons[0] });
    }
  },
});
