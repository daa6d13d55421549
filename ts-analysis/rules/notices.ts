/**
 * Codes the TypeScript analysis reports about itself rather than about the
 * code: a file whose time budget ran out (`ts/budget`: the analyzer adds it
 * once every rule has run; the record gives the code its place in the
 * catalog, the docs, SARIF and the severity settings), and calls it cannot
 * see because their client is typed `any` (`ts/untyped-client`).
 */
import ts from "typescript";
import { span, TsRule } from "./rule";

export const budgetNotice: TsRule = {
  code: "ts/budget",
  severity: "info",
  family: "TypeScript code",
  docs: {
    summary: "the analysis of a file stopped at its time budget: the message says what was skipped; the findings made before are kept",
    why: "Diagnostics must follow typing whatever the code: past the budget, the rest of the file would otherwise hold the editor (or `tdl check`) for as long as it takes.",
  },
  check() {
    // Reported by the analyzer once the rules have run (analysis.ts, budgetNotice).
  },
};

export const untypedClient: TsRule = {
  code: "ts/untyped-client",
  severity: "hint",
  family: "TypeScript code",
  docs: {
    summary:
      "an SDK method called on a client the checker types `any` that the analysis could not trace to where it is made: the hint says why; the project gets one notice",
    why: "The analysis judges keys, filters and tables by their types: through an `any` it sees nothing there, and silence would read as a clean bill.",
    fix: "type the client (`TableClient`, or a JSDoc `@type` in JavaScript)",
  },
  check(ctx) {
    for (const u of ctx.usage.untyped) {
      const callee = u.call.expression as ts.PropertyAccessExpression;
      ctx.report(
        span(ctx.sf, callee.name),
        `the analysis cannot see this ${callee.name.text} call: ${u.why}, so its table, keys and filter are not checked. Type the client as TableClient (or with a JSDoc @type in JavaScript).`,
      );
    }
    // Recognised without types: said once per file, at the first such call, so that the user knows what the findings rest on.
    const first = ctx.usage.recognised[0];
    if (first) {
      const callee = first.call.expression as ts.PropertyAccessExpression;
      const more = ctx.usage.recognised.length - 1;
      ctx.report(
        span(ctx.sf, callee.name),
        `this client is typed any and could not be traced to where it is made; it is taken for a TableClient because ${first.how}` +
          `${more ? ` (and ${more} more call${more > 1 ? "s" : ""} of this file likewise)` : ""}. Type it as TableClient (or with a JSDoc @type in JavaScript) to have its table checked too.`,
      );
    }
  },
};
