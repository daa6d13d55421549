/**
 * `ts/filter-syntax`: a `listEntities` filter known statically that does
 * not parse as OData, reported where the error is inside the TypeScript
 * string (or on the interpolated expression that produced that part).
 */
import { clip } from "@core";
import { TsRule } from "./rule";

export const filterSyntax: TsRule = {
  code: "ts/filter-syntax",
  severity: "error",
  family: "TypeScript code",
  docs: {
    summary: "a filter string known statically that does not parse, at the position inside the string",
    why: "The service rejects the request (400 Bad Request): the query fails every time it runs.",
  },
  check(ctx) {
    for (const q of ctx.queries) {
      for (const s of q.syntax ?? []) {
        const shown = clip(s.filter, 80);
        ctx.report(
          { start: s.start, end: Math.max(s.end, s.start) },
          `this filter does not parse: ${s.message} (in "${shown}"). The service rejects it with 400 Bad Request.`,
        );
      }
    }
  },
};
