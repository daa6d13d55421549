/**
 * `ts/filter-syntax`: a `listEntities` filter known statically that does
 * not parse as OData, reported where the error is inside the TypeScript
 * string (or on the interpolated expression that produced that part).
 */
import { clip } from "@core";
import { defineTsRule } from "./rule";

export const filterSyntax = defineTsRule({
  code: "ts/filter-syntax",
  severity: "error",
  family: "TypeScript code",
  traits: { neverSuppress: true },
  docs: {
    summary: "a filter string known statically that does not parse, at the position inside the string",
    why: "The service rejects the request (400 Bad Request): the query fails every time it runs.",
  },
  messages: {
    syntax: (p: { why: string; filter: string }) =>
      `this filter does not parse: ${p.why} (in "${clip(p.filter, 80)}"). The service rejects it with 400 Bad Request.`,
  },

  check(ctx) {
    for (const q of ctx.queries) {
      for (const s of q.syntax ?? []) {
        ctx.report({ start: s.start, end: Math.max(s.end, s.start) }, "syntax", { why: s.message, filter: s.filter });
      }
    }
  },
});
