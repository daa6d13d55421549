/**
 * Query rules over TypeScript code: the class of every `listEntities` and
 * `getEntity` call (a hint, also shown as CodeLens), and table scans.
 * The calls are classified once per file (`classifyQueries`), for the rules,
 * the lenses and the CLI's report.
 */
import ts from "typescript";
import { badge, Classification, classifyFilter, parseFilter } from "../../core";
import { FileUsage } from "../calls";
import { filterText } from "../filters";
import { span, TsQuery, TsRule, TsRuleContext } from "./rule";

/** Where a query's diagnostics sit: the method name of the call. */
const at = (sf: ts.SourceFile, call: ts.CallExpression) => span(sf, ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call);

/** Every `getEntity` and `listEntities` call whose class is known. */
export function classifyQueries(usage: FileUsage, checker: ts.TypeChecker): TsQuery[] {
  const out: TsQuery[] = [];
  for (const k of usage.keyed) {
    if (k.method !== "getEntity") continue;
    const c: Classification = { class: "point", partitions: 1, scanned: 1, returned: 1, selectivity: 1, reasons: ["PartitionKey and RowKey are both given"] };
    out.push({ call: k.call, table: k.table, classification: c });
  }
  for (const l of usage.lists) {
    let c: Classification | undefined;
    if (!l.filter) {
      c = { class: "table-scan", partitions: null, scanned: null, returned: null, selectivity: null, reasons: ["no filter: every entity of every partition is listed"] };
    } else {
      const src = filterText(l.filter, checker);
      const parsed = src !== undefined ? parseFilter(src) : undefined;
      if (parsed?.ok) c = classifyFilter(parsed.expr);
    }
    if (c) out.push({ call: l.call, table: l.table, classification: c });
  }
  return out;
}

/** The lens and hint text of a class. */
export function queryLabel(c: Classification): string {
  return c.class === "table-scan" ? "table-scan · scans every partition" : badge(c);
}

export const queryClass: TsRule = {
  code: "ts/query-class",
  severity: "hint",
  family: "TypeScript code",
  docs: {
    summary: "every `listEntities`/`getEntity` call's class (shown as CodeLens and hover, kept out of the Problems panel)",
    why: "The class decides the cost: a point read touches one entity, a table scan every partition.",
  },
  check(ctx: TsRuleContext) {
    for (const q of ctx.queries) ctx.report(at(ctx.sf, q.call), queryLabel(q.classification));
  },
};

export const tableScan: TsRule = {
  code: "ts/table-scan",
  severity: "warning",
  family: "TypeScript code",
  docs: {
    summary: "a `listEntities` filter that does not pin `PartitionKey`, or no filter at all",
    why: "A table scan reads every partition, one continuation token at a time: its cost grows with the table, not with the result.",
  },
  check(ctx) {
    for (const q of ctx.queries) {
      if (q.classification.class !== "table-scan") continue;
      ctx.report(at(ctx.sf, q.call), `this listEntities call is a table scan: ${q.classification.reasons[0]}. Pin PartitionKey with 'eq' (and RowKey for a point read), or key a table for this query.`);
    }
  },
};
