/**
 * `ts/design-drift-query`: a query on a table that a `.tdl` of the
 * workspace declares, whose class (point, row range, partition range,
 * table scan) differs from every query the design declares for that table:
 * the design's figures do not cover it. Filters not known statically are
 * not judged, nor `getEntity`: a point read by both keys has no filter to
 * compare, and costs one entity whatever the design.
 */
import * as path from "node:path";
import ts from "typescript";
import { at } from "./queries";
import { defineTsRule } from "./rule";

const isGetEntity = (call: ts.CallExpression) =>
  ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === "getEntity";

export const designDriftQuery = defineTsRule({
  code: "ts/design-drift-query",
  severity: "warning",
  family: "TypeScript code",
  traits: { drift: true },
  docs: {
    summary: "a query (`listEntities`) on a declared table whose class differs from every query the design declares for it",
    why: "The design's load figures and key choices were checked against its declared queries: a query of another class (a scan where the design reads a row range) is a cost the design never counted.",
    fix: "declare the query in the design (and check it there), or query as a declared query does",
  },
  messages: {
    undeclared: (p: { class: string; table: string; design: string; declared: Array<{ name: string; class: string }> }) =>
      `this query is a ${p.class} on table "${p.table}", but the design (${p.design}) does not declare one: ${
        p.declared.length
          ? `its declared queries are ${p.declared.map((d) => `${d.name} (${d.class})`).join(", ")}`
          : "it declares no query for this table"
      }. ` + "Declare it in the design, so its cost is checked, or query as a declared query does.",
  },

  check(ctx) {
    for (const q of ctx.queries) {
      const c = q.classification;
      if (!c || isGetEntity(q.call)) continue;
      const design = ctx.designTable?.(q.table);
      // A design that does not parse is not judged (ts/design-drift-key says so once).
      if (!design || design.broken) continue;
      if (design.queries.some((d) => d.classification.class === c.class)) continue;
      ctx.report(at(ctx.sf, q.call), "undeclared", {
        class: c.class,
        table: design.name,
        design: path.basename(design.source),
        declared: design.queries.map((d) => ({ name: d.name, class: d.classification.class })),
      });
    }
  },
});
